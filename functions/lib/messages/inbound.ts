import type { Message } from '#shared/schemas/messages';
import type { Ticket } from '#shared/schemas/tickets';
import type { InboundMessage } from '#shared/whatsapp-protocol';
import { AppError } from '../errors';
import { nowIso } from '../keys';
import { bumpTicket, refreshLastMessage, requireStoredTicket, toTicket } from '../tickets/repo';
import { publishTicketChange } from '../tickets/events';
import { conversationMessageId, getMessageByWid, type StoredMessage } from './repo';
import {
  announce,
  bumpOf,
  insertWithTicket,
  lastMessageText,
  patchFound,
  quoteOf,
  sameConversation,
  storedOrUndefined,
  stripKey,
} from './store';

/**
 * Stores a message from WhatsApp, idempotently by its WhatsApp id: a redelivery, or the echo of
 * a message we sent (fromMe, under the wid the API chose when it stored it), returns the stored message
 * with `duplicate: true`. A new message from the contact counts as unread.
 * The one message a wid may still change: a placeholder for a message that could not be decrypted
 * (`undecryptable`), which the real message with that wid replaces in place (`replaced`).
 */
export async function storeInboundMessage(
  companyId: number,
  ticket: Ticket,
  message: InboundMessage,
  opts: { openedTicket?: boolean } = {},
): Promise<{ message: Message; duplicate: boolean; ticket: Ticket; replaced?: { openedTicket: boolean } }> {
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
    ...(message.undecryptable ? { undecryptable: true, ...(opts.openedTicket ? { openedTicket: true } : {}) } : {}),
    ...(message.transport ? { transport: message.transport } : {}),
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
      if (winner?.undecryptable && !message.undecryptable) {
        const replaced = await replacePlaceholder(companyId, ticket, winner, stored);
        if (replaced) return replaced;
      }
      if (winner) return { message: stripKey(winner), duplicate: true, ticket };
    }
    throw err;
  }
}

/**
 * The real message for a placeholder of the same conversation: it takes the placeholder's place
 * (same id, so the same position) with its content, and the flag goes. The update is conditional
 * on the flag, so of two deliveries of the real message one replaces and the other is a duplicate.
 * A placeholder whose ticket was closed meanwhile moves to the ticket the real message was given.
 */
async function replacePlaceholder(companyId: number, ticket: Ticket, placeholder: StoredMessage, real: Message) {
  if (!sameConversation(ticket, placeholder)) return undefined;
  const moved = placeholder.ticketId !== ticket.id;
  const content: Partial<Message> = {
    ticketId: ticket.id,
    body: real.body,
    mediaType: real.mediaType,
    mediaKey: real.mediaKey,
    mediaName: real.mediaName,
    quotedMsgId: real.quotedMsgId,
    quotedMsg: real.quotedMsg,
    contact: real.contact,
    participant: real.participant,
    error: real.error,
  };
  const before = storedOrUndefined(ticket) ?? (await requireStoredTicket(companyId, ticket.id));
  const message = await patchFound(
    companyId,
    ticket,
    placeholder,
    content,
    { expr: 'undecryptable = :yes', values: { ':yes': true } },
    ['undecryptable', 'openedTicket'],
  );
  if (!message) return undefined;
  // the ticket's preview was the placeholder's (empty) when it is still the last message
  const after = moved
    ? await bumpTicket(before, bumpOf(message, !message.read))
    : await refreshLastMessage(before, message.id, lastMessageText(message));
  if (after) await publishTicketChange(companyId, before, toTicket(after), 'update');
  return {
    message,
    duplicate: false,
    ticket: after ? toTicket(after) : ticket,
    replaced: { openedTicket: Boolean(placeholder.openedTicket) },
  };
}
