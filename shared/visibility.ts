import { can } from './permissions';

/** What decides whether a viewer may see a ticket (attendance.md 4.2, 6). Pure: server and web share it. */
export interface TicketViewer {
  profile: string;
  userId: number;
  queueIds: number[];
  allTicket: string;
  showNoQueue?: boolean;
}
export interface VisibleTicket {
  status: string;
  queueId: number | null;
  userId: number | null;
}

/**
 * Admins see every ticket. Others see tickets assigned to them, tickets of their own queues, and
 * tickets without a queue when they may (their flag, or allTicket enabled); pending tickets
 * without a queue only with allTicket enabled.
 */
export function canSeeTicket(viewer: TicketViewer, ticket: VisibleTicket): boolean {
  if (can(viewer.profile, 'tickets-manager:showall')) return true;
  if (ticket.userId !== null && ticket.userId === viewer.userId) return true;
  if (ticket.queueId === null) {
    if (ticket.status === 'pending') return viewer.allTicket === 'enabled' || Boolean(viewer.showNoQueue);
    return Boolean(viewer.showNoQueue) || viewer.allTicket === 'enabled';
  }
  return viewer.queueIds.includes(ticket.queueId);
}
