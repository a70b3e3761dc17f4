import { createHash, randomUUID } from 'node:crypto';
import { enqueue } from '#lib/queue';
import { INBOUND_QUEUE, inboundGroupId, type InboundEvent } from '#shared/whatsapp-protocol';

/**
 * Puts a provider event on the `inbound` FIFO queue. Group: company#connection#chat, so a message
 * and its later acks, edits and deletions stay in order; dedup: the WhatsApp id plus the kind of
 * event, so a provider that reports a message twice produces one message.
 */
export async function emit(event: InboundEvent) {
  const { groupId, dedupId } = routing(event);
  await enqueue(INBOUND_QUEUE, event, { groupId, dedupId });
}

const short = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

export function routing(event: InboundEvent): { groupId: string; dedupId: string } {
  const g = (chat: string) => inboundGroupId(event.companyId, event.whatsappId, chat);
  switch (event.type) {
    case 'message':
      return { groupId: g(event.message.chatJid), dedupId: `${event.companyId}:${event.message.wid}:message` };
    case 'ack':
      return { groupId: g(event.chatJid), dedupId: `${event.companyId}:${event.wid}:ack:${event.ack}` };
    case 'edit':
      return { groupId: g(event.chatJid), dedupId: `${event.companyId}:${event.wid}:edit:${short(event.body)}` };
    case 'revoke':
      return { groupId: g(event.chatJid), dedupId: `${event.companyId}:${event.wid}:revoke` };
    case 'sendResult':
      return {
        groupId: g(event.chatJid ?? `ticket:${event.ticketId}`),
        // by outcome: a redelivered send answered "sent" must not swallow the first attempt's later failure
        dedupId: `${event.companyId}:${event.messageId}:sendResult:${event.error ?? 'sent'}`,
      };
    case 'checkNumberResult':
      return { groupId: g('check'), dedupId: `${event.companyId}:${event.replyTo}:check` };
    case 'call':
      return { groupId: g(event.from), dedupId: `${event.companyId}:${event.callId}:call` };
    case 'addressBook':
      return { groupId: g('address-book'), dedupId: `${event.companyId}:${event.requestId}:book:${event.part}` };
    case 'lidMapping':
      return { groupId: g(event.pn), dedupId: `${event.companyId}:${event.lid}:${event.pn}:lid` };
    case 'session':
    case 'health':
      // every status change counts, in order (health reports travel with them)
      return { groupId: g('session'), dedupId: randomUUID() };
  }
}
