import type { UserStatus } from '#shared/schemas/presence';
import { channelEvent } from '#shared/events';
import {
  becameAvailable,
  statusOf,
  type PresenceEntry,
  type PresenceEvent,
  type TicketViewer,
  type TicketViewersEvent,
  type TypingEvent,
} from '#shared/presence';
import { getItem, query, updateItem, type Item } from '../db';
import { userKeys } from '../accounts/users';
import { companyConnections, postAll, type WsConnection } from '../realtime';
import { onUserAvailable } from '../tickets/assignment';
import { log } from '../log';

/**
 * Presence (issue 24). The truth lives on the user item, beside the `sockets` set that
 * accounts/users.ts describes: `idle` holds the connection ids whose tab reported no input for the
 * company's `awayAfterMinutes`, and `presenceStatus` the status last announced. So the company's
 * statuses are one Query of its users, and a status event goes out only when the status changes
 * (conditionally: of two changes at once, one announces). Viewers and typing need no writes: who
 * views a ticket is the `chatBoxes` of the company's connections, read with the one Query every
 * publish makes anyway.
 */

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A user item's status now (see statusOf in shared/presence.ts). */
export const itemStatus = (item: Item, now = nowSeconds()): UserStatus =>
  statusOf(item.sockets as Set<string> | undefined, item.idle as Set<string> | undefined, now);

/** Everyone's status in the company: one Query of its users (a user absent from the map does not exist). */
export async function userStatuses(companyId: number): Promise<Map<number, UserStatus>> {
  const out = new Map<number, UserStatus>();
  for (const item of await presenceItems(companyId)) out.set(item.id as number, itemStatus(item));
  return out;
}

async function presenceItems(companyId: number): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Item | undefined;
  do {
    const page = await query({
      pk: `C#${companyId}`,
      sk: { beginsWith: 'USER#' },
      projection: ['id', 'name', 'sockets', 'idle'],
      startKey,
    });
    items.push(...page.items);
    startKey = page.lastKey;
  } while (startKey);
  return items;
}

/** GET /presence: admins see every user of the company, others their own status. */
export async function listPresence(companyId: number, userId: number, admin: boolean): Promise<PresenceEntry[]> {
  const items = admin
    ? await presenceItems(companyId)
    : [await getItem(userKeys(companyId, userId))].filter((i): i is Item => Boolean(i));
  return items.map((i) => ({ userId: i.id as number, name: String(i.name ?? ''), status: itemStatus(i) }));
}

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

/** One entry per user among the connections that have the ticket open. */
export function viewersOf(connections: Pick<WsConnection, 'userId' | 'name'>[]): TicketViewer[] {
  const seen = new Map<number, TicketViewer>();
  for (const c of connections) if (!seen.has(c.userId)) seen.set(c.userId, { userId: c.userId, name: c.name ?? '' });
  return [...seen.values()];
}

const inRoom = (c: WsConnection, ticketId: number) => (c.chatBoxes ?? []).includes(ticketId);

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
  const listed = (await companyConnections(companyId)).filter((c) => c.connectionId !== changed.connectionId);
  const connections = changed.conn ? [...listed, changed.conn] : listed;
  const event = channelEvent(companyId, 'ticketViewers');
  const posts: { conn: WsConnection; message: unknown }[] = [];
  for (const ticketId of new Set(ticketIds)) {
    const room = connections.filter((c) => inRoom(c, ticketId));
    const data: TicketViewersEvent = { action: 'update', ticketId, viewers: viewersOf(room) };
    posts.push(...room.map((conn) => ({ conn, message: { event, data } })));
  }
  await postAll(posts);
}

/**
 * `typing` from a tab that has the ticket open: relayed to the other users viewing it. Nothing is
 * written (the browser sends at most one per TYPING_SIGNAL_MS).
 */
export async function relayTyping(conn: WsConnection, ticketId: number) {
  if (!inRoom(conn, ticketId)) return;
  const others = (await companyConnections(conn.companyId)).filter(
    (c) => c.userId !== conn.userId && inRoom(c, ticketId),
  );
  const data: TypingEvent = { action: 'update', ticketId, userId: conn.userId, name: conn.name ?? '' };
  const message = { event: channelEvent(conn.companyId, 'typing'), data };
  await postAll(others.map((c) => ({ conn: c, message })));
}
