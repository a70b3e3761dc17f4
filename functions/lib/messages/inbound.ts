import type { Message } from '#shared/schemas/messages';
import type { Ticket } from '#shared/schemas/tickets';
import type { InboundMessage } from '#shared/whatsapp-protocol';
import { AppError } from '../errors';
import { nowIso } from '../keys';
import { toTicket } from '../tickets/repo';
import { conversationMessageId, getMessageByWid } from './repo';
import { announce, insertWithTicket, quoteOf, sameConversation, storedOrUndefined, stripKey } from './store';

/**
 * Stores a message from WhatsApp, idempotently by its WhatsApp id: a redelivery, or the echo of
 * a message we sent (fromMe, under the wid the API chose when it stored it), returns the stored message
 * with `duplicate: true`. A new message from the contact counts as unread.
 */
export async function storeInboundMessage(
  companyId: number,
  ticket: Ticket,
  message: InboundMessage,
): Promise<{ message: Message; duplicate: boolean; ticket: Ticket }> {
  // no read first: the transaction's wid guard catches a redelivery or an echo (handled below)
  const quoted = sameConversation(
    ticket,
    message.quotedWid ? await getMessageByWid(companyId, message.quotedWid) : undefined,
  );
  const storedAtMs = Date.now();
  const createdAtMs = message.timestamp ? Math.min(message.timestamp * 1000, storedAtMs) : storedAtMs;
  const createdAt = new Date(createdAtMs).toISOString();
  const stored: Message = {
    id: conversationMessageId(ticket, createdAtMs, storedAtMs),
    companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    wid: message.wid,
    body: message.body ?? '',
    fromMe: message.fromMe,
    read: message.fromMe,
    ack: message.fromMe ? 1 : 0,
    mediaType: message.mediaType,
    mediaUrl: null,
    mediaKey: message.media?.key ?? null,
    mediaName: message.media?.fileName ?? null,
    isDeleted: false,
    isEdited: false,
    quotedMsgId: quoted?.id ?? null,
    quotedMsg: quoteOf(quoted),
    contact: message.fromMe
      ? null
      : {
          name: message.isGroup
            ? (message.participantName ?? message.participantJid ?? '')
            : (message.pushName ?? ticket.contact.name),
        },
    participant: message.participantJid ?? null,
    userId: null,
    automatic: false,
    error: message.mediaError ?? null,
    createdAt,
    updatedAt: nowIso(),
  };
  try {
    const { before, after } = await insertWithTicket(companyId, ticket.id, stored, {
      wid: message.wid,
      unread: !message.fromMe,
      initial: storedOrUndefined(ticket),
    });
    const current = toTicket(after);
    await announce(companyId, before, current, stored, 'create');
    return {
      message: { ...stored, contactId: after.contactId, whatsappId: after.whatsappId },
      duplicate: false,
      ticket: current,
    };
  } catch (err) {
    if (err instanceof AppError && err.code === 'ERR_DUPLICATED') {
      const winner = await getMessageByWid(companyId, message.wid);
      if (winner) return { message: stripKey(winner), duplicate: true, ticket };
    }
    throw err;
  }
}
