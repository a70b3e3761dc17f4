import { lockHolder, mayTakeOver } from '#shared/presence';
import type { Ticket } from '#shared/schemas/tickets';
import { AppError } from '../errors';
import { settingValue } from '../settings';
import type { AuditActor } from '../audit/actor';
import { requireStoredTicket, toTicket } from './repo';
import { assertCanSee, isAdmin, type Actor } from './access';
import { updateTicketByUser } from './service';

/**
 * POST /tickets/{id}/takeover (issue 24): the caller takes an open ticket another attendant handles.
 * Admins may; others only when the company's `takeoverByAnyUser` is enabled, and only tickets they
 * can see. The assignment moves through the ordinary change (updateTicketByUser: counters, the
 * `ticket` event, the transfer notice when enabled), which leaves the note and the audit entry of
 * every takeover. A ticket already the caller's is answered as it is; a pending or closed one is
 * ERR_TICKET_NOT_LOCKED (accept or reopen it instead).
 */
export async function takeOverTicket(
  companyId: number,
  actor: Actor,
  ticketId: number,
  audit: AuditActor,
): Promise<Ticket> {
  const stored = await requireStoredTicket(companyId, ticketId);
  await assertCanSee(companyId, actor, stored);
  if (!mayTakeOver(isAdmin(actor), await settingValue(companyId, 'takeoverByAnyUser')))
    throw new AppError('ERR_NO_PERMISSION');
  if (stored.status === 'open' && stored.userId === actor.userId) return toTicket(stored);
  if (lockHolder(stored, actor.userId) === null) throw new AppError('ERR_TICKET_NOT_LOCKED');
  const ticket = await updateTicketByUser(companyId, actor, ticketId, { userId: actor.userId }, audit);
  // closed or returned meanwhile: nothing was taken
  if (ticket.status !== 'open' || ticket.userId !== actor.userId) throw new AppError('ERR_TICKET_NOT_LOCKED');
  return ticket;
}
