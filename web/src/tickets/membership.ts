import { can } from '#shared/permissions';
import { canSeeTicket, type TicketViewer } from '#shared/visibility';
import type { Ticket, TicketStatus } from './types';

/** The list a manager tab shows (attendance.md 2.4). */
export interface ListFilter {
  /** open = Assigned, pending = Pending, closed = Closed, snoozed = open tickets set aside (issue 40); search lists any status */
  tab: TicketStatus | 'snoozed' | 'search';
  /** the queue multi-select; empty = every queue the viewer may see */
  queueIds: number[];
  showAll: boolean;
  /** Search tab: selected tags and (admins) users */
  tags?: number[];
  users?: number[];
  searchParam?: string;
}

/**
 * Whether a ticket belongs to a list (attendance.md 4.2): its status must match the tab and its
 * queue must be among the selected queues; non-admins see only their own queues, and the Assigned
 * tab without Show all lists only the viewer's own tickets.
 */
export function belongsToList(
  ticket: Pick<Ticket, 'status' | 'queueId' | 'userId' | 'tags' | 'contact' | 'lastMessage' | 'snooze'>,
  filter: ListFilter,
  viewer: TicketViewer,
): boolean {
  if (!canSeeTicket(viewer, { status: ticket.status, queueId: ticket.queueId, userId: ticket.userId })) return false;
  // a snoozed open ticket is in the Snoozed list, not the open one
  const snoozed = ticket.status === 'open' && Boolean(ticket.snooze);
  if (filter.tab === 'snoozed' ? !snoozed : filter.tab !== 'search' && (ticket.status !== filter.tab || snoozed))
    return false;
  if (filter.queueIds.length > 0 && ticket.queueId !== null && !filter.queueIds.includes(ticket.queueId)) return false;
  const showAll = filter.showAll && can(viewer.profile, 'tickets-manager:showall');
  if ((filter.tab === 'open' || filter.tab === 'snoozed') && !showAll && ticket.userId !== viewer.userId) return false;
  if (filter.tab === 'search') {
    if (filter.tags?.length && !(ticket.tags ?? []).some((t) => filter.tags!.includes(t.id))) return false;
    if (filter.users?.length && (ticket.userId === null || !filter.users.includes(ticket.userId))) return false;
    const q = filter.searchParam?.trim().toLowerCase();
    if (q) {
      const hay =
        `${ticket.contact?.name ?? ''} ${ticket.contact?.number ?? ''} ${ticket.lastMessage ?? ''}`.toLowerCase();
      if (!hay.includes(q)) return false;
    }
  }
  return true;
}

export type TicketEvent =
  | { action: 'update'; ticket: Ticket }
  | { action: 'delete'; ticketId: number }
  | { action: 'updateUnread'; ticketId: number }
  | { action: 'create'; ticket: Ticket };

const byUpdatedDesc = (a: Ticket, b: Ticket) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? '');

/**
 * Apply one realtime event to a list: a ticket that still matches is replaced (or added) and the
 * list re-sorted by last activity; one that no longer matches leaves the list.
 */
export function applyTicketEvent(
  list: Ticket[],
  event: TicketEvent,
  filter: ListFilter,
  viewer: TicketViewer,
): Ticket[] {
  switch (event.action) {
    case 'delete':
      return list.filter((t) => t.id !== event.ticketId);
    case 'updateUnread':
      return list.map((t) => (t.id === event.ticketId ? { ...t, unreadMessages: 0 } : t));
    case 'update':
    case 'create': {
      const rest = list.filter((t) => t.id !== event.ticket.id);
      if (!belongsToList(event.ticket, filter, viewer)) return rest;
      const previous = list.find((t) => t.id === event.ticket.id);
      return [{ ...previous, ...event.ticket }, ...rest].sort(byUpdatedDesc);
    }
    default:
      return list;
  }
}

/**
 * The same event applied to a paged (SWR infinite) cache: the ticket is removed from every page
 * and, when it belongs, put back in the first page in order.
 */
export function applyTicketEventToPages<P extends { items: Ticket[] }>(
  pages: P[],
  event: TicketEvent,
  filter: ListFilter,
  viewer: TicketViewer,
): P[] {
  if (pages.length === 0) return pages;
  if (event.action === 'delete' || event.action === 'updateUnread')
    return pages.map((p) => ({ ...p, items: applyTicketEvent(p.items, event, filter, viewer) }));
  const previous = pages.flatMap((p) => p.items).find((t) => t.id === event.ticket.id);
  const merged = { ...previous, ...event.ticket } as Ticket;
  const stripped = pages.map((p) => ({ ...p, items: p.items.filter((t) => t.id !== merged.id) }));
  if (!belongsToList(merged, filter, viewer)) return stripped;
  const [first, ...others] = stripped;
  return [{ ...first, items: [merged, ...first.items].sort(byUpdatedDesc) }, ...others];
}

/** The bell (2.10): unread tickets; pending ones only when the user's allTicket is enabled. */
export const isNotifiable = (ticket: Pick<Ticket, 'status' | 'unreadMessages'>, allTicket: string) =>
  (ticket.unreadMessages ?? 0) > 0 &&
  (ticket.status === 'open' || (ticket.status === 'pending' && allTicket === 'enabled'));

/** Pending tickets are accepted, never opened by clicking their row (2.4). */
export const openableByClick = (ticket: Pick<Ticket, 'status'>) => ticket.status !== 'pending';

/**
 * Opening a ticket by URL (2.4): admins may open any ticket; others only tickets they may see
 * (own queues, assigned to them); otherwise the unauthorized toast and a redirect to /tickets.
 */
export const mayOpenTicket = (ticket: Pick<Ticket, 'status' | 'queueId' | 'userId'>, viewer: TicketViewer) =>
  can(viewer.profile, 'tickets-manager:showall') || canSeeTicket(viewer, ticket);

/** Admin peek (eye icon): refused when the ticket's queue is not among the user's queues, for non-admins. */
export const mayPeek = (ticket: Pick<Ticket, 'queueId'>, viewer: TicketViewer) =>
  viewer.profile === 'admin' || ticket.queueId === null || viewer.queueIds.includes(ticket.queueId);

export const viewerOf = (user: {
  id: number;
  profile: string;
  queueIds?: number[];
  allTicket?: string;
  showNoQueue?: boolean;
}): TicketViewer => ({
  userId: user.id,
  profile: user.profile,
  queueIds: user.queueIds ?? [],
  allTicket: user.allTicket ?? 'desabled',
  showNoQueue: user.showNoQueue,
});
