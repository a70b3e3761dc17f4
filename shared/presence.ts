import type { UserStatus } from './schemas/presence';

/**
 * Presence and the soft lock (issue 24): pure rules the server and the browser share.
 */

/** The browser sends at most one `typing` signal per ticket in this time, however fast one types. */
export const TYPING_SIGNAL_MS = 3_000;
/** A viewer shows "typing" this long after the last signal (a little over one signal interval). */
export const TYPING_SHOW_MS = 6_000;
/** How often a tab checks whether it went idle. */
export const IDLE_CHECK_MS = 5_000;

/** `awayAfterMinutes` as milliseconds; an unreadable value falls back to the default 5 minutes. */
export function awayAfterMs(setting: string | undefined): number {
  const minutes = Number(setting);
  return (Number.isFinite(minutes) && minutes > 0 ? minutes : 5) * 60_000;
}

/**
 * A user's status from their open sockets and the sockets whose tab reported idle: offline without a
 * live socket, online while any live socket's tab is active, away when every one is idle. `sockets`
 * entries are `<connectionId>@<expires epoch s>` (accounts/users.ts); an expired entry is a socket that
 * ended without a `$disconnect`.
 */
export function statusOf(
  sockets: Iterable<string> | undefined,
  idle: Iterable<string> | undefined,
  nowSeconds: number,
): UserStatus {
  const idleIds = new Set(idle ?? []);
  let live = 0;
  for (const entry of sockets ?? []) {
    const at = entry.lastIndexOf('@');
    if (Number(entry.slice(at + 1)) <= nowSeconds) continue;
    live++;
    if (!idleIds.has(entry.slice(0, at))) return 'online';
  }
  return live ? 'away' : 'offline';
}

/** Whether a status change makes the user available for new work (the assignment hook). */
export const becameAvailable = (before: UserStatus, after: UserStatus) => after === 'online' && before !== 'online';

/** What decides who may send in a ticket. */
export interface LockedTicket {
  status: string;
  userId: number | null;
}

/**
 * The soft lock: an open ticket with an assignee is written to by that assignee only; the answer is
 * who holds it, or null when the user may send. Pending tickets (no assignee: whoever accepts takes
 * them) and closed ones (history; reopening assigns the one who reopens) lock nobody out, as before.
 */
export function lockHolder(ticket: LockedTicket, userId: number): number | null {
  if (ticket.status !== 'open' || ticket.userId === null) return null;
  return ticket.userId === userId ? null : ticket.userId;
}

/** Who may take over a ticket someone else handles: admins, and everyone when the company allows it. */
export const mayTakeOver = (admin: boolean, takeoverByAnyUser: string | undefined) =>
  admin || takeoverByAnyUser === 'enabled';

/** `ticketViewers` event: the users who have the ticket open now (one entry per user). */
export interface TicketViewer {
  userId: number;
  name: string;
}
export interface TicketViewersEvent {
  action: 'update';
  ticketId: number;
  viewers: TicketViewer[];
}
/** One entry per user among the connections that have the ticket open. */
export function viewersOf(connections: { userId: number; name?: string }[]): TicketViewer[] {
  const seen = new Map<number, TicketViewer>();
  for (const c of connections) if (!seen.has(c.userId)) seen.set(c.userId, { userId: c.userId, name: c.name ?? '' });
  return [...seen.values()];
}
/** `typing` event: someone else types in a ticket one has open. */
export interface TypingEvent {
  action: 'update';
  ticketId: number;
  userId: number;
  name: string;
}
/** `presence` event: a user's status changed (to admins and to the user's own tabs). */
export interface PresenceEvent {
  action: 'update';
  userId: number;
  status: UserStatus;
}
/** `GET /presence`: admins get every user of the company, others themselves only. */
export interface PresenceEntry {
  userId: number;
  name: string;
  status: UserStatus;
}
