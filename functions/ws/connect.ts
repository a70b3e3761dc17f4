import type { APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { verifyWsTicket } from '#lib/auth';
import { getUser } from '#lib/accounts/users';
import { saveConnection } from '#lib/realtime';
import { log } from '#lib/log';

type ConnectEvent = APIGatewayProxyWebsocketEventV2 & { queryStringParameters?: Record<string, string | undefined> };

/** `$connect`: the query string carries a short-lived ticket from `POST /auth/ws-ticket`. */
export async function handler(event: ConnectEvent) {
  const ticket = event.queryStringParameters?.ticket;
  if (!ticket) return { statusCode: 401 };
  try {
    const auth = await verifyWsTicket(ticket);
    const user = await getUser(auth.companyId, auth.userId);
    if (!user) return { statusCode: 401 };
    await saveConnection({
      connectionId: event.requestContext.connectionId,
      companyId: user.companyId,
      userId: user.id,
      profile: user.profile,
      super: user.super,
      queueIds: user.queueIds,
      allTicket: user.allTicket,
      showNoQueue: Boolean(user.showNoQueue),
      chatBoxes: [],
      ticketRooms: [],
      notification: false,
      connectedAt: new Date().toISOString(),
    });
    return { statusCode: 200 };
  } catch (err) {
    log.info('websocket connect refused', { reason: (err as Error).message });
    return { statusCode: 401 };
  }
}
