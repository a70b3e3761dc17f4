import type { Ticket } from './types';

/** Contact (and user) search starts at 3 characters (2.7, 2.8). */
export const searchStarts = (text: string) => text.trim().length >= 3;

/** A queue must be chosen unless the user is admin (2.7). */
export const needsQueue = (queueId: number | '' | null, profile: string | undefined) =>
  (queueId === '' || queueId === null) && profile !== 'admin';

/**
 * What to do with an ERR_OTHER_OPEN_TICKET answer (section 8): a ticket held by another user ->
 * a notice naming user and queue; one of our own -> close the modal and open it; else a toast.
 */
export function otherTicketOutcome(
  details: unknown,
  myUserId: number,
): { kind: 'notice'; user: string; queue: string } | { kind: 'open'; ticket: Ticket } | { kind: 'toast' } {
  const ticket = (details as { ticket?: Ticket } | undefined)?.ticket;
  if (!ticket) return { kind: 'toast' };
  // The API names the holder as `user` ({ id, name }); older shapes carry only userId.
  const holder = ticket.user?.id ?? ticket.userId ?? null;
  if (holder !== null && holder !== myUserId)
    return { kind: 'notice', user: ticket.user?.name ?? '', queue: ticket.queue?.name ?? '' };
  return { kind: 'open', ticket };
}
