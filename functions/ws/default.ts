import '#lib/startup';
import type { APIGatewayProxyWebsocketEventV2 } from 'aws-lambda';
import { CLIENT_ACTIONS, type ClientAction, type SocketReply } from '#shared/events';
import type { ErrorCode } from '#shared/errors';
import { ClientMessage } from '#shared/schemas/socket';
import {
  closeConnections,
  disconnect,
  findConnection,
  refreshConnection,
  updateRooms,
  postToConnection,
  type WsConnection,
} from '#lib/realtime';
import { getUser } from '#lib/accounts/users';
import { relayTyping, setIdle } from '#lib/presence/service';
import { closeChatBox, openChatBox, setTicketList, withinSocketRate } from '#lib/presence/rooms';
import { currentSession } from '#lib/accounts/sessions';
import { AppError } from '#lib/errors';
import { log } from '#lib/log';

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

/** The action a message names, when it is one of ours: the only thing of the message ever sent back. */
function actionOf(raw: unknown): ClientAction | null {
  const action = (raw as { action?: unknown } | null)?.action;
  return CLIENT_ACTIONS.find((known) => known === action) ?? null;
}

function parse(body: string | undefined): { raw: unknown; message?: ClientMessage } {
  let raw: unknown;
  try {
    raw = JSON.parse(body ?? '');
  } catch {
    return { raw: null };
  }
  const parsed = ClientMessage.safeParse(raw);
  return { raw, message: parsed.success ? parsed.data : undefined };
}

const refuse = (conn: WsConnection, action: ClientAction | null, error: ErrorCode) =>
  postToConnection(conn, { event: 'error', data: { action, error } } satisfies SocketReply);

/**
 * `$default`: room joins and leaves, `userStatus` (keeps the connection alive and refreshes the
 * user's queues and role on it), `ping`, and presence (issue 24): `typing` in a chat box, `idle` and
 * `active` of the tab. Only the rooms and values shared/schemas/socket.ts names are taken (issue 35);
 * a message that is not one of them, names a ticket the user may not see, or passes a cap gets an
 * `error` event with its code and changes nothing. A socket past SOCKET_RATE is told so and closed:
 * API Gateway's DeleteConnection takes no close code, so the `error` event says why (docs/realtime.md).
 */
export async function handler(event: APIGatewayProxyWebsocketEventV2) {
  const connectionId = event.requestContext.connectionId;
  const withinRate = await withinSocketRate(connectionId);
  const conn = await findConnection(connectionId);
  if (!conn) {
    // An open socket nobody can publish to (its record expired or was removed): closing it makes
    // the client reconnect, register again and refetch what it shows.
    log.info('message from unknown connection', { connectionId });
    await disconnect(connectionId);
    return { statusCode: 410 };
  }
  const { raw, message } = parse(event.body);
  if (!withinRate) {
    log.info('socket over its message rate closed', { connectionId, companyId: conn.companyId });
    await refuse(conn, actionOf(raw), 'ERR_TOO_MANY_ATTEMPTS');
    await closeConnections(conn.companyId, [connectionId]);
    return { statusCode: 429 };
  }
  if (!message) {
    await refuse(conn, actionOf(raw), 'ERR_VALIDATION');
    return { statusCode: 400 };
  }
  try {
    const status = await act(conn, message);
    if (status !== 200 || message.action === 'typing') return { statusCode: status };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    await refuse(conn, message.action, err.code);
    return { statusCode: err.status };
  }
  await postToConnection(conn, { event: 'ready', data: { action: message.action } } satisfies SocketReply);
  return { statusCode: 200 };
}

async function act(conn: WsConnection, message: ClientMessage): Promise<number> {
  switch (message.action) {
    case 'joinChatBox':
      await openChatBox(conn, message.value);
      break;
    case 'leaveChatBox':
      await closeChatBox(conn, message.value);
      break;
    case 'typing':
      // relayed without an acknowledgement: the browser sends it while typing and waits for nothing
      await relayTyping(conn, message.value);
      break;
    case 'idle':
    case 'active':
      await setIdle(conn, message.action === 'idle');
      break;
    case 'joinTickets':
    case 'leaveTickets':
      await setTicketList(conn, message.value, message.action === 'joinTickets');
      break;
    case 'joinNotification':
    case 'leaveNotification':
      await updateRooms(conn, { notification: message.action === 'joinNotification' });
      break;
    case 'userStatus': {
      if (!(await sessionHolds(conn))) {
        log.info('socket of an ended session closed', { connectionId: conn.connectionId, companyId: conn.companyId });
        await closeConnections(conn.companyId, [conn.connectionId]);
        return 410;
      }
      const user = await getUser(conn.companyId, conn.userId, { consistent: true });
      if (!user) return 410;
      const kept = await refreshConnection(conn, {
        name: user.name,
        profile: user.profile,
        queueIds: user.queueIds,
        allTicket: user.allTicket,
        showNoQueue: Boolean(user.showNoQueue),
      });
      if (!kept) return 410;
      break;
    }
    case 'ping':
      break;
  }
  return 200;
}
