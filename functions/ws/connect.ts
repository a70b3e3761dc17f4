import type { APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { verifyWsTicket } from '#lib/auth';
import { getUser } from '#lib/accounts/users';
import { consumeWsTicket, currentSession } from '#lib/accounts/sessions';
import { saveConnection } from '#lib/realtime';
import { log } from '#lib/log';

type ConnectEvent = APIGatewayProxyWebsocketEventV2 & { queryStringParameters?: Record<string, string | undefined> };

/**
 * `$connect`: the query string carries a short-lived ticket from `POST /auth/ws-ticket`. A ticket opens
 * one socket, and only while its session and user still exist.
 */
export async function handler(event: ConnectEvent) {
  const ticket = event.queryStringParameters?.ticket;
  if (!ticket) return { statusCode: 401 };
  try {
    const claims = await verifyWsTicket(ticket);
    await consumeWsTicket(claims.jti);
    await currentSession(claims);
    const user = await getUser(claims.companyId, claims.userId);
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
