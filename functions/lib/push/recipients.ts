import type { User } from '#shared/schemas/accounts';
import { can } from '#shared/permissions';
import { canSeeTicket, type VisibleTicket } from '#shared/visibility';

type Candidate = Pick<User, 'id' | 'profile' | 'queueIds' | 'allTicket' | 'showNoQueue'>;

/**
 * Who hears of a pending ticket: the user it is pending for, if any; for a ticket in a queue, the
 * queue's users and the admins without queues (who watch everything); for a ticket without a
 * queue, whoever may see it (shared/visibility.ts: admins, and users with allTicket or showNoQueue).
 */
export function pendingTicketRecipients<U extends Candidate>(users: U[], ticket: VisibleTicket): U[] {
  if (ticket.userId !== null) return users.filter((u) => u.id === ticket.userId);
  return users.filter((u) => {
    if (ticket.queueId === null) return canSeeTicket({ ...u, userId: u.id }, ticket);
    if (u.queueIds.includes(ticket.queueId)) return true;
    return u.queueIds.length === 0 && can(u.profile, 'tickets-manager:showall');
  });
}
