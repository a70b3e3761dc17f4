import { SOCKET_MAX_CHAT_BOXES, SOCKET_RATE } from '#shared/constants';
import type { TicketStatus } from '#shared/constants';
import { AppError } from '../errors';
import { take, type RateRule } from '../rate-limit';
import { changeChatBoxes, updateRooms, type WsConnection } from '../realtime';
import { requireVisibleTicket } from '../tickets/access';
import { announceViewers } from './service';

/**
 * The rooms a socket joins (issue 35). The message's shape is checked before (shared/schemas/socket.ts):
 * here are the rules that need the data. A chat box is a ticket of the socket's company that its user
 * may see now, by the rule of GET /tickets/{id}; a socket holds at most SOCKET_MAX_CHAT_BOXES of them
 * (the web app opens one at a time and leaves it on a switch, so a join past the cap is refused, not
 * made to push out an older one). Whether the user may still see it is checked again whenever the
 * room is used (presence/service.ts: viewers and typing), so a ticket moved out of their reach, or a
 * user moved out of its queue, stops showing them as its viewer and sends them nothing of it.
 */

/** Messages one socket may send per window; past it the socket is told and closed (ws/default.ts). */
export const SOCKET_MESSAGES: RateRule = {
  name: 'socket-messages',
  per: 'connection',
  windowSeconds: SOCKET_RATE.windowSeconds,
  free: SOCKET_RATE.messages,
};

/** Counts one message of the socket; false past SOCKET_RATE. */
export async function withinSocketRate(connectionId: string): Promise<boolean> {
  try {
    await take(SOCKET_MESSAGES, { connectionId });
    return true;
  } catch (err) {
    if (err instanceof AppError && err.code === 'ERR_TOO_MANY_ATTEMPTS') return false;
    throw err;
  }
}

export async function openChatBox(conn: WsConnection, ticketId: number) {
  await requireVisibleTicket(conn.companyId, { userId: conn.userId, profile: conn.profile }, ticketId);
  const now = await changeChatBoxes(conn, (open) => {
    if (open.includes(ticketId)) return open;
    if (open.length >= SOCKET_MAX_CHAT_BOXES)
      throw new AppError('ERR_LIST_LIMIT_REACHED', undefined, { list: 'chatBoxes', cap: SOCKET_MAX_CHAT_BOXES });
    return [...open, ticketId];
  });
  // the ticket's viewers (the joiner included) learn who has it open now
  if (now) await announceViewers(conn.companyId, [ticketId], { connectionId: conn.connectionId, conn: now });
}

/** Leaving a chat box the socket has not open changes and announces nothing. */
export async function closeChatBox(conn: WsConnection, ticketId: number) {
  if (!(conn.chatBoxes ?? []).includes(ticketId)) return;
  const now = await changeChatBoxes(conn, (open) => open.filter((id) => id !== ticketId));
  if (now) await announceViewers(conn.companyId, [ticketId], { connectionId: conn.connectionId, conn: now });
}

/** A ticket list (one status tab): the socket keeps at most one entry per status. */
export async function setTicketList(conn: WsConnection, status: TicketStatus, on: boolean) {
  const rooms = (conn.ticketRooms ?? []).filter((room) => room !== status);
  await updateRooms(conn, { ticketRooms: on ? [...rooms, status] : rooms });
}
