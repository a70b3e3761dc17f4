import '#lib/startup';
import { log } from '#lib/log';
import { dueItems, removeDue, retryDue, type DueItem } from '#lib/chatbot/timers';
import { expireRatingWait, onTicketClosed } from '#lib/chatbot/rating';
import { getTicket, updateTicket } from '#lib/tickets/service';
import { sendMessage } from '#lib/messages/send';
import { getWhatsapp } from '#lib/whatsapp/repo';
import { fillVariables } from '#shared/message-variables';

/**
 * Every minute: the chatbot's due wake-ups (functions/lib/chatbot/timers.ts). Each one re-checks
 * the ticket, so a stale wake-up does nothing, and is removed once handled; a failed one comes back
 * later (retryDue).
 */
export const handler = async () => {
  let handled = 0;
  for (;;) {
    const due = await dueItems(new Date());
    if (!due.length) break;
    for (const item of due) {
      try {
        await fire(item);
        await removeDue(item);
      } catch (err) {
        const kept = await retryDue(item);
        log.error('chatbot timer failed', {
          kind: item.kind,
          companyId: item.companyId,
          ticketId: item.ticketId,
          willRetry: kept,
          error: (err as Error).message,
        });
      }
      handled++;
    }
  }
  return { handled };
};

async function fire(item: DueItem) {
  const { companyId, ticketId } = item;
  if (item.kind === 'rating') return expireRatingWait(companyId, item.marker);
  const ticket = await getTicket(companyId, ticketId);
  if (!ticket) return;
  const whatsapp = await getWhatsapp(companyId, ticket.whatsappId);
  if (!whatsapp) return;
  if (item.kind === 'transfer') {
    // timeToTransfer: still pending, still without a queue and nobody took it
    if (ticket.status !== 'pending' || ticket.queueId !== null || ticket.userId !== null || !whatsapp.transferQueueId)
      return;
    await updateTicket(companyId, ticketId, { queueId: whatsapp.transferQueueId }, null);
    return;
  }
  // expire: open, and nothing happened since our message that scheduled it
  if (ticket.status !== 'open' || ticket.updatedAt !== item.marker || !whatsapp.expiresTicket) return;
  if (whatsapp.expiresInactiveMessage.trim()) {
    await sendMessage(companyId, ticket, {
      body: fillVariables(whatsapp.expiresInactiveMessage, {
        contactName: ticket.contact.name,
        now: new Date(),
        protocol: ticket.id,
      }),
      automatic: true,
    });
  }
  const closed = await updateTicket(companyId, ticketId, { status: 'closed' }, null);
  await onTicketClosed(companyId, closed);
}
