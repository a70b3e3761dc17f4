import type { Ticket } from '#shared/schemas/tickets';
import type { User } from '#shared/schemas/accounts';
import { can } from '#shared/permissions';
import { canSeeTicket } from '#shared/visibility';
import { lockHolder, type LockedTicket } from '#shared/presence';
import { AppError } from '../errors';
import { getUser } from '../accounts/users';

/** Who asks for a change: drives visibility checks and who an accept assigns. */
export interface Actor {
  userId: number;
  profile: string;
}

export const isAdmin = (actor: Actor) => can(actor.profile, 'tickets-manager:showall');

/**
 * Refuses a non-admin a ticket outside what they may see (attendance.md 2.4, 6): ERR_NO_PERMISSION.
 * Admins see every ticket.
 */
export async function assertCanSee(
  companyId: number,
  actor: Actor,
  ticket: Pick<Ticket, 'status' | 'queueId' | 'userId'>,
  known?: User,
) {
  if (isAdmin(actor)) return;
  const user = known ?? (await getUser(companyId, actor.userId));
  if (!user || !canSeeTicket({ ...user, userId: user.id }, ticket)) throw new AppError('ERR_NO_PERMISSION');
}

/**
 * The soft lock (issue 24): only the assignee of an open ticket sends in it, admins included (they
 * take it over first). Pending and closed tickets lock nobody out (shared/presence.ts lockHolder).
 */
export function assertMaySend(actor: Actor, ticket: LockedTicket) {
  if (lockHolder(ticket, actor.userId) !== null) throw new AppError('ERR_TICKET_LOCKED');
}
