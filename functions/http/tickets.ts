import '#lib/startup';
import { z } from 'zod';
import { httpModule, reply, route } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { TicketCreateBody, TicketSnoozeBody, TicketsQuery, TicketUpdateBody } from '#shared/schemas/tickets';
import { KanbanQuery } from '#shared/schemas/tags';
import { AppError } from '#lib/errors';
import { listTickets } from '#lib/tickets/list';
import { viewerOf } from '#lib/tickets/viewer';
import { createTicketByUser, deleteTicket, getTicket, getTicketByUuid, updateTicketByUser } from '#lib/tickets/service';
import { assertCanSee } from '#lib/tickets/access';
import { takeOverTicket } from '#lib/tickets/takeover';
import { snoozeTicket, unsnoozeTicket } from '#lib/tickets/snooze';
import { actorOf as auditActorOf } from '#lib/audit/actor';
import { addTicketTag, clearTicketTags } from '#lib/tags/service';
import type { AuthContext } from '#lib/auth';

const params = z.object({ id: idParam });
const actorOf = (auth: AuthContext) => ({ userId: auth.userId, profile: auth.profile });

async function visibleTicket(auth: AuthContext, found: Awaited<ReturnType<typeof getTicket>>) {
  if (!found) throw new AppError('ERR_NO_TICKET_FOUND');
  await assertCanSee(auth.companyId, actorOf(auth), found);
  return found;
}

/** Tickets (attendance.md 2.4, 4.2, 7) and the kanban board (management.md "Kanban"). */
export const handler = httpModule({
  'GET /tickets': route({ query: TicketsQuery }, async ({ auth, query }) =>
    listTickets(auth.companyId, await viewerOf(auth, { kept: true }), query),
  ),

  'GET /tickets/u/{uuid}': route({ params: z.object({ uuid: z.string().uuid() }) }, async ({ auth, params }) =>
    visibleTicket(auth, await getTicketByUuid(auth.companyId, params.uuid)),
  ),

  'GET /tickets/{id}': route({ params }, async ({ auth, params }) =>
    visibleTicket(auth, await getTicket(auth.companyId, params.id)),
  ),

  'POST /tickets': route({ body: TicketCreateBody }, async ({ auth, body }) =>
    reply(await createTicketByUser(auth.companyId, actorOf(auth), body), 201),
  ),

  'PUT /tickets/{id}': route({ params, body: TicketUpdateBody }, async ({ auth, params, body, clientAddress }) => {
    const { whatsappId, ...rest } = body;
    return updateTicketByUser(
      auth.companyId,
      actorOf(auth),
      params.id,
      { ...rest, ...(whatsappId ? { whatsappId } : {}) },
      auditActorOf(auth, clientAddress),
    );
  }),

  /** issue 24: the caller takes over a ticket another attendant handles (admins, or all with takeoverByAnyUser) */
  'POST /tickets/{id}/takeover': route({ params }, async ({ auth, params, clientAddress }) =>
    takeOverTicket(auth.companyId, actorOf(auth), params.id, auditActorOf(auth, clientAddress)),
  ),

  /** issue 40: put an open ticket aside until a time or until the customer writes; DELETE wakes it now */
  'POST /tickets/{id}/snooze': route({ params, body: TicketSnoozeBody }, async ({ auth, params, body }) =>
    snoozeTicket(auth.companyId, actorOf(auth), params.id, body),
  ),

  'DELETE /tickets/{id}/snooze': route({ params }, async ({ auth, params }) =>
    unsnoozeTicket(auth.companyId, actorOf(auth), params.id),
  ),

  'DELETE /tickets/{id}': route({ permission: 'ticket-options:deleteTicket', params }, async ({ auth, params }) => {
    await deleteTicket(auth.companyId, actorOf(auth), params.id);
    return { message: 'ticket deleted' };
  }),

  'GET /ticket/kanban': route({ feature: 'useKanban', query: KanbanQuery }, async ({ auth, query }) => {
    const out = await listTickets(
      auth.companyId,
      await viewerOf(auth),
      { queueIds: query.queueIds, showAll: query.showAll, cursor: query.cursor, limit: 100 },
      { kanban: true },
    );
    return out;
  }),

  'DELETE /ticket-tags/{ticketId}': route({ params: z.object({ ticketId: idParam }) }, async ({ auth, params }) =>
    clearTicketTags(auth.companyId, actorOf(auth), params.ticketId),
  ),

  'PUT /ticket-tags/{ticketId}/{tagId}': route(
    { params: z.object({ ticketId: idParam, tagId: idParam }) },
    async ({ auth, params }) => addTicketTag(auth.companyId, actorOf(auth), params.ticketId, params.tagId),
  ),
});
