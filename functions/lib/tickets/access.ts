import type { Ticket } from '#shared/schemas/tickets';
import type { User } from '#shared/schemas/accounts';
import { can } from '#shared/permissions';
import { canSeeTicket } from '#shared/visibility';
import { lockHolder, mayTakeOver, type LockedTicket } from '#shared/presence';
import { AppError } from '../errors';
import { getUser } from '../accounts/users';
import { settingValue } from '../settings';
import { batchGet } from '../db';
import { listWhatsapps } from '../whatsapp/repo';
import { getStoredTicket, openGuardKeys, requireStoredTicket } from './repo';

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
  /** the viewer's user as the caller read it (null: read, and not found) */
  known?: User | null,
) {
  if (isAdmin(actor)) return;
  const user = known !== undefined ? known : await getUser(companyId, actor.userId);
  if (!user || !canSeeTicket({ ...user, userId: user.id }, ticket)) throw new AppError('ERR_NO_PERMISSION');
}

/**
 * A ticket of the company that the actor may see now (ERR_NO_TICKET_FOUND, ERR_NO_PERMISSION): what a
 * socket's chat box join asks, by the rule GET /tickets/{id} applies.
 */
export async function requireVisibleTicket(companyId: number, actor: Actor, ticketId: number) {
  const ticket = await requireStoredTicket(companyId, ticketId);
  await assertCanSee(companyId, actor, ticket);
  return ticket;
}

/**
 * A contact as far as the caller may reach it (a schedule's recipient): admins reach every contact;
 * others every contact whose open or pending tickets (one per connection, found by their guards)
 * they may all see, so nobody writes through a schedule to a conversation kept from them.
 */
export async function assertCanSeeContact(companyId: number, actor: Actor, contactId: number) {
  if (isAdmin(actor)) return;
  const whatsapps = await listWhatsapps(companyId);
  const guards = await batchGet(whatsapps.map((w) => openGuardKeys(companyId, contactId, w.id)));
  const user = guards.length ? await getUser(companyId, actor.userId) : undefined;
  for (const guard of guards) {
    const ticket = await getStoredTicket(companyId, guard.ticketId as number);
    if (ticket) await assertCanSee(companyId, actor, ticket, user);
  }
}

/**
 * The soft lock (issue 24): only the assignee of an open ticket sends in it, admins included (they
 * take it over first), and so does a schedule's author when it falls due. Pending and closed
 * tickets lock nobody out (shared/presence.ts lockHolder).
 */
export function assertMaySend(actor: Pick<Actor, 'userId'>, ticket: LockedTicket) {
  if (lockHolder(ticket, actor.userId) !== null) throw new AppError('ERR_TICKET_LOCKED');
}

/**
 * The soft lock on every change (issue 35): a ticket someone else holds is changed (updated,
 * transferred, closed, reopened, deleted, tagged, its messages deleted) only by an admin, or by
 * anyone when the company enables `takeoverByAnyUser`; others get ERR_TICKET_LOCKED. Pending and
 * closed tickets lock nobody out. Sending stays stricter (assertMaySend: admins take over first).
 */
export function assertMayChange(actor: Actor, ticket: LockedTicket, takeoverByAnyUser: string | undefined) {
  if (lockHolder(ticket, actor.userId) !== null && !mayTakeOver(isAdmin(actor), takeoverByAnyUser))
    throw new AppError('ERR_TICKET_LOCKED');
}

/** assertMayChange, reading the company's setting only when someone else holds the ticket. */
export async function assertMayChangeIn(companyId: number, actor: Actor, ticket: LockedTicket) {
  if (lockHolder(ticket, actor.userId) === null || isAdmin(actor)) return;
  assertMayChange(actor, ticket, await settingValue(companyId, 'takeoverByAnyUser'));
}
