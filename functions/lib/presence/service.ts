import type { UserStatus } from '#shared/schemas/presence';
import { channelEvent } from '#shared/events';
import {
  becameAvailable,
  type PresenceEvent,
  type TicketViewersEvent,
  viewersOf,
  type TypingEvent,
} from '#shared/presence';
import { updateItem, type Item } from '../db';
import { bumpRoster, userKeys } from '../accounts/users';
import {
  changeChatBoxes,
  companyConnections,
  mayReceive,
  onConnectionChange,
  postAll,
  type ConnectionChange,
  type WsConnection,
} from '../realtime';
import { onUserAvailable } from '../tickets/assignment';
import { ticketAudience } from '../tickets/events';
import { getStoredTicket, type StoredTicket } from '../tickets/repo';
import { itemStatus } from './status';
import { log } from '../log';

/**
 * Presence (issue 24). The truth lives on the user item, beside the `sockets` set that
 * accounts/users.ts describes: `idle` holds the connection ids whose tab reported no input for the
 * company's `awayAfterMinutes`, and `presenceStatus` the status last announced. So the company's
 * statuses are one Query of its users, and a status event goes out only when the status changes
 * (conditionally: of two changes at once, one announces). Viewers and typing need no writes: who
 * views a ticket is the `chatBoxes` of the company's connections, read with the one Query every
 * publish makes anyway. The statuses are read in status.ts. Realtime tells this module of every socket that opens, moves or closes
 * (`onConnectionChange`, registered below when the module loads).
 */

/**
 * After a change of a user's sockets or idleness (`item`: the user item as that change left it):
 * records and announces a new status to the company's admins and the user's own tabs, and calls the
 * assignment hook when the user became available (first socket, or back from away).
 */
export async function settlePresence(companyId: number, userId: number, item: Item | undefined) {
  if (!item) return;
  const status = itemStatus(item);
  const before = (item.presenceStatus as UserStatus | undefined) ?? 'offline';
  if (status === before) return;
  const recorded = await updateItem(userKeys(companyId, userId), {
    set: { presenceStatus: status },
    condition:
      before === 'offline'
        ? 'attribute_exists(pk) AND (attribute_not_exists(presenceStatus) OR presenceStatus = :before)'
        : 'presenceStatus = :before',
    conditionValues: { ':before': before },
  });
  if (!recorded) return;
  log.info('user status', { companyId, userId, from: before, to: status });
  const connections = (await companyConnections(companyId)).filter((c) => c.profile === 'admin' || c.userId === userId);
  const data: PresenceEvent = { action: 'update', userId, status };
  const message = { event: channelEvent(companyId, 'presence'), data };
  await postAll(connections.map((conn) => ({ conn, message })));
  if (becameAvailable(before, status))
    await onUserAvailable(companyId, userId).catch((err) =>
      log.error('assignment on availability failed', { companyId, userId, error: (err as Error).message }),
    );
}

/** `idle` / `active` from a tab: its connection joins or leaves the user's idle set. */
export async function setIdle(conn: Pick<WsConnection, 'companyId' | 'userId' | 'connectionId'>, idle: boolean) {
  const ids = new Set([conn.connectionId]);
  const item = await updateItem(userKeys(conn.companyId, conn.userId), {
    ...(idle ? { add: { idle: ids } } : { deleteFromSet: { idle: ids } }),
    condition: 'attribute_exists(pk)',
  });
  await settlePresence(conn.companyId, conn.userId, item);
}

const inRoom = (c: WsConnection, ticketId: number) => (c.chatBoxes ?? []).includes(ticketId);

/**
 * Who has a ticket open and may see it now (issue 35): a join is checked when made
 * (presence/rooms.ts), and checked here again at every use, by the rule every ticket event is
 * delivered by (realtime `mayReceive`, over the viewer fields users/service.ts keeps on each
 * connection), so a ticket transferred out of a user's queues, or a user taken out of its queue,
 * drops them from its viewers and its typing at once. A ticket deleted has no viewers.
 */
function roomOf(connections: WsConnection[], ticket: StoredTicket | undefined, ticketId: number) {
  if (!ticket) return [];
  const audience = ticketAudience(ticket);
  return connections.filter((c) => inRoom(c, ticketId) && mayReceive(c, audience));
}

/**
 * Tells the viewers of these tickets who views them now. `changed`: the connection whose rooms just
 * changed, as it is now (or `gone`), since the Query may not show a write made a moment ago.
 */
export async function announceViewers(
  companyId: number,
  ticketIds: number[],
  changed: { connectionId: string; conn?: WsConnection },
) {
  if (!ticketIds.length) return;
  const ids = [...new Set(ticketIds)];
  const [all, tickets] = await Promise.all([
    companyConnections(companyId),
    Promise.all(ids.map((id) => getStoredTicket(companyId, id))),
  ]);
  const listed = all.filter((c) => c.connectionId !== changed.connectionId);
  const connections = changed.conn ? [...listed, changed.conn] : listed;
  const event = channelEvent(companyId, 'ticketViewers');
  const posts: { conn: WsConnection; message: unknown }[] = [];
  ids.forEach((ticketId, i) => {
    const room = roomOf(connections, tickets[i], ticketId);
    const data: TicketViewersEvent = { action: 'update', ticketId, viewers: viewersOf(room) };
    posts.push(...room.map((conn) => ({ conn, message: { event, data } })));
  });
  await postAll(posts);
}

/**
 * `typing` from a tab that has the ticket open and may still see it: relayed to the other users
 * viewing it who may see it. Nothing is written (the browser sends at most one per
 * TYPING_SIGNAL_MS), but a join its user may no longer see is dropped.
 */
export async function relayTyping(conn: WsConnection, ticketId: number) {
  if (!inRoom(conn, ticketId)) return;
  const [ticket, connections] = await Promise.all([
    getStoredTicket(conn.companyId, ticketId),
    companyConnections(conn.companyId),
  ]);
  const room = roomOf([...connections.filter((c) => c.connectionId !== conn.connectionId), conn], ticket, ticketId);
  if (!room.includes(conn)) {
    await changeChatBoxes(conn, (open) => open.filter((id) => id !== ticketId));
    return;
  }
  const data: TypingEvent = { action: 'update', ticketId, userId: conn.userId, name: conn.name ?? '' };
  const message = { event: channelEvent(conn.companyId, 'typing'), data };
  await postAll(room.filter((c) => c.userId !== conn.userId).map((c) => ({ conn: c, message })));
}

/**
 * The user's socket set (see accounts/users.ts); a user deleted meanwhile is left alone. A socket
 * that goes also leaves the idle set, and the user's status is settled after the change (announced
 * when it changed), after the roster's version moved (accounts/users.ts: the dashboard keeps who is
 * online by it). Best effort: a failed write (a transaction on the user item at the same moment) is
 * logged and never refuses or breaks the socket itself.
 */
async function updateSockets(
  companyId: number,
  userId: number,
  op: 'ADD' | 'DELETE',
  entry: string,
  connectionId?: string,
) {
  const change =
    op === 'ADD'
      ? { add: { sockets: new Set([entry]) } }
      : {
          deleteFromSet: {
            sockets: new Set([entry]),
            ...(connectionId ? { idle: new Set([connectionId]) } : {}),
          },
        };
  try {
    const item = await updateItem(userKeys(companyId, userId), { ...change, condition: 'attribute_exists(pk)' });
    if (item) await bumpRoster(companyId);
    await settlePresence(companyId, userId, item);
  } catch (err) {
    log.warn('presence not recorded', { companyId, userId, op, error: (err as Error).message });
  }
}

/** A socket's change, as presence sees it: the user's socket set, their status, and the viewers of the tickets it had open. */
async function connectionChanged(change: ConnectionChange) {
  switch (change.kind) {
    case 'opened':
      await updateSockets(change.companyId, change.userId, 'ADD', change.entry);
      break;
    case 'moved':
      await updateSockets(change.companyId, change.userId, 'ADD', change.entry);
      if (change.previous && change.previous !== change.entry)
        await updateSockets(change.companyId, change.userId, 'DELETE', change.previous);
      break;
    case 'closed': {
      const { user, companyId, connectionId } = change;
      if (user) await updateSockets(user.companyId, user.userId, 'DELETE', user.entry, connectionId);
      // the tickets it had open lose a viewer
      if (companyId !== undefined && change.chatBoxes.length)
        await announceViewers(companyId, change.chatBoxes, { connectionId }).catch((err) =>
          log.warn('viewers not announced', { connectionId, error: (err as Error).message }),
        );
      break;
    }
  }
}

onConnectionChange(connectionChanged);
