import '#lib/startup';
import type { APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { CLIENT_ACTIONS, type ClientMessage } from '#shared/events';
import {
  closeConnections,
  disconnect,
  findConnection,
  refreshConnection,
  updateRooms,
  postToConnection,
} from '#lib/realtime';
import { getUser } from '#lib/accounts/users';
import { announceViewers, relayTyping, setIdle } from '#lib/presence/service';
import { currentSession } from '#lib/accounts/sessions';
import { AppError } from '#lib/errors';
import { log } from '#lib/log';

const toggle = <T>(list: T[], value: T, on: boolean) =>
  on ? [...new Set([...list, value])] : list.filter((v) => v !== value);

/**
 * Whether the socket's session still holds (`currentSession`): one whose session ended without closing
 * it (its TTL passed, or its company expired by the calendar) is closed at its next `userStatus`, and
 * so is a connection recorded before connections named their session.
 */
async function sessionHolds(conn: { companyId: number; userId: number; sessionId?: string }) {
  if (!conn.sessionId) return false;
  try {
    await currentSession(
      { companyId: conn.companyId, userId: conn.userId, sessionId: conn.sessionId },
      { fresh: true },
    );
    return true;
  } catch (err) {
    if (err instanceof AppError) return false;
    throw err;
  }
}

/**
 * `$default`: room joins and leaves, `userStatus` (keeps the connection alive and refreshes the
 * user's queues and role on it), `ping`, and presence (issue 24): `typing` in a chat box, `idle` and
 * `active` of the tab.
 */
export async function handler(event: APIGatewayProxyWebsocketEventV2) {
  let message: ClientMessage;
  try {
    message = JSON.parse(event.body ?? '{}');
  } catch {
    return { statusCode: 400 };
  }
  if (!CLIENT_ACTIONS.includes(message.action)) return { statusCode: 400 };
  const conn = await findConnection(event.requestContext.connectionId);
  if (!conn) {
    // An open socket nobody can publish to (its record expired or was removed): closing it makes
    // the client reconnect, register again and refetch what it shows.
    log.info('message from unknown connection', { connectionId: event.requestContext.connectionId });
    await disconnect(event.requestContext.connectionId);
    return { statusCode: 410 };
  }
  switch (message.action) {
    case 'joinChatBox':
    case 'leaveChatBox': {
      const ticketId = Number(message.value);
      const chatBoxes = toggle(conn.chatBoxes, ticketId, message.action === 'joinChatBox');
      await updateRooms(conn, { chatBoxes });
      // the ticket's viewers (the joiner included) learn who has it open now
      await announceViewers(conn.companyId, [ticketId], {
        connectionId: conn.connectionId,
        conn: { ...conn, chatBoxes },
      });
      break;
    }
    case 'typing':
      // relayed without an acknowledgement: the browser sends it while typing and waits for nothing
      await relayTyping(conn, Number(message.value));
      return { statusCode: 200 };
    case 'idle':
    case 'active':
      await setIdle(conn, message.action === 'idle');
      break;
    case 'joinTickets':
    case 'leaveTickets':
      await updateRooms(conn, {
        ticketRooms: toggle(conn.ticketRooms, String(message.value), message.action === 'joinTickets'),
      });
      break;
    case 'joinNotification':
    case 'leaveNotification':
      await updateRooms(conn, { notification: message.action === 'joinNotification' });
      break;
    case 'userStatus': {
      if (!(await sessionHolds(conn))) {
        log.info('socket of an ended session closed', { connectionId: conn.connectionId, companyId: conn.companyId });
        await closeConnections(conn.companyId, [conn.connectionId]);
        return { statusCode: 410 };
      }
      const user = await getUser(conn.companyId, conn.userId, { consistent: true });
      if (!user) return { statusCode: 410 };
      const kept = await refreshConnection(conn, {
        name: user.name,
        profile: user.profile,
        queueIds: user.queueIds,
        allTicket: user.allTicket,
        showNoQueue: Boolean(user.showNoQueue),
      });
      if (!kept) return { statusCode: 410 };
      break;
    }
    case 'ping':
      break;
  }
  await postToConnection(conn, { event: 'ready', data: { action: message.action, value: message.value ?? null } });
  return { statusCode: 200 };
}
