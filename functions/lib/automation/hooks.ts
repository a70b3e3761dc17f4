/**
 * The ticket events the automation rules hear from the ticket service's move hook (loaded by
 * startup.ts): created, assigned (someone takes a ticket nobody held), transferred (to another
 * attendant, or to another queue) and closed. Tags, customer messages and SLA breaches emit where
 * they happen (tags/service.ts, inbound/wiring.ts, sla/breach.ts).
 */
import { onTicketMoved } from '../tickets/service';
import { emitAutomationEvent } from './emit';

onTicketMoved(async (companyId, before, after) => {
  if (!after) return;
  const ticketId = after.id;
  if (!before) {
    await emitAutomationEvent(companyId, { type: 'ticket_created', ticketId });
    return;
  }
  if (before.status !== 'closed' && after.status === 'closed') {
    await emitAutomationEvent(companyId, { type: 'ticket_closed', ticketId });
    return;
  }
  if (after.userId !== null && after.userId !== before.userId) {
    await emitAutomationEvent(companyId, {
      type: before.userId === null ? 'ticket_assigned' : 'ticket_transferred',
      ticketId,
    });
  } else if (before.queueId !== null && after.queueId !== before.queueId) {
    await emitAutomationEvent(companyId, { type: 'ticket_transferred', ticketId });
  }
});
