import '#lib/startup';
import type { APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { verifyWsTicket } from '#lib/auth';
import { getUser } from '#lib/accounts/users';
import { attachSocket, consumeWsTicket, currentSession } from '#lib/accounts/sessions';
import { removeConnection, saveConnection } from '#lib/realtime';
import { log } from '#lib/log';
import { onUserAvailable } from '#lib/tickets/assignment';

type ConnectEvent = APIGatewayProxyWebsocketEventV2 & { queryStringParameters?: Record<string, string | undefined> };

/**
 * `$connect`: the query string carries a short-lived ticket from `POST /auth/ws-ticket`. A ticket opens
 * one socket, and only while its session and user still exist. The connection is saved before it is
 * listed on its session: a session that ends after the listing finds it and removes it, and one that
 * ended before makes the listing fail, and the connection is removed here and refused.
 */
export async function handler(event: ConnectEvent) {
  const ticket = event.queryStringParameters?.ticket;
  if (!ticket) return { statusCode: 401 };
  const connectionId = event.requestContext.connectionId;
  try {
    const claims = await verifyWsTicket(ticket);
    await consumeWsTicket(claims.jti);
    await currentSession(claims, { fresh: true });
    const user = await getUser(claims.companyId, claims.userId, { consistent: true });
    if (!user) return { statusCode: 401 };
    await saveConnection({
      connectionId,
      companyId: user.companyId,
      userId: user.id,
      name: user.name,
      sessionId: claims.sessionId,
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
    const attached = await attachSocket(claims, connectionId);
    if (attached !== 'attached') {
      await removeConnection(connectionId, user.companyId);
      const ended = attached === 'ended';
      log.info('websocket connect refused', {
        reason: ended ? 'session ended while connecting' : 'too many sockets on the session',
      });
      return { statusCode: ended ? 401 : 429 };
    }
    // an attendant coming online takes the tickets waiting in their automatic queues
    await onUserAvailable(user.companyId, user.id, user).catch((err) =>
      log.error('automatic assignment on connect failed', { error: (err as Error).message }),
    );
    return { statusCode: 200 };
  } catch (err) {
    log.info('websocket connect refused', { reason: (err as Error).message });
    return { statusCode: 401 };
  }
}
