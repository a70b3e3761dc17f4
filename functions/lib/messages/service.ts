import { randomUUID } from 'node:crypto';
import type { Message, QuotedMessage, UndeliveredCount } from '#shared/schemas/messages';
import { mediaKindOf, mediaTypeOf } from '#shared/schemas/messages';
import { REPAIR_AFTER_UNDELIVERED } from '#shared/constants';
import type { Ticket } from '#shared/schemas/tickets';
import type { Contact } from '#shared/schemas/contacts';
import {
  ACK,
  COMMAND_QUEUE,
  commandGroupId,
  type EditSender,
  type InboundMessage,
  type MediaKind,
  type SessionCommand,
} from '#shared/whatsapp-protocol';
import { AppError } from '../errors';
import { batchGet, batchWrite, getItem, putItem, query, stripKeys, updateItem, type Item } from '../db';
import { decodeCursor, page } from '../cursor';
import { nowIso } from '../keys';
import { log } from '../log';
import { enqueue } from '../queue';
import { acceptStoredUpload, assertTenantKey } from '../storage';
import { contactJid, digitsOnly, getContact, jidUser, requireContact } from '../contacts/repo';
import { bumpTicket, getStoredTicket, ticketKeys, toStored, toTicket, type StoredTicket } from '../tickets/repo';
import { mutateTicket, type Actor, assertCanSee, resetUnread } from '../tickets/service';
import { publishTicketChange, publishToTicket } from '../tickets/events';
import { companyConnections } from '../realtime';
import { requireStoredTicket } from '../tickets/repo';
import {
  conversationPk,
  getMessageById,
  getMessageByWid,
  messageItem,
  conversationMessageId,
  newWid,
  presentMessage,
  widGuardKeys,
} from './repo';
import { watchDueAt, watchItem } from '../watchdog/repo';

export type { Message, InboundMessage };

const PAGE = 20;

/**
 * A quote names a message of the same conversation (the contact on that connection), as on
 * WhatsApp; any other message is treated as not found, so its body is never copied into a chat
 * whose viewers may not see it.
 */
const sameConversation = <M extends Message>(ticket: Ticket, m: M | undefined) =>
  m && m.contactId === ticket.contactId && m.whatsappId === ticket.whatsappId ? m : undefined;

function quoteOf(m: Message | undefined): QuotedMessage | null {
  if (!m) return null;
  return { id: m.id, body: m.body, fromMe: m.fromMe, mediaType: m.mediaType, contact: m.fromMe ? null : m.contact };
}

const messageKeysOf = (t: Pick<Ticket, 'companyId' | 'contactId' | 'whatsappId'>, id: string) => ({
  msgPk: conversationPk(t.companyId, t.contactId, t.whatsappId),
  msgSk: `M#${id}`,
});

/**
 * The ticket's preview of its last message: one line in the list, so the ticket (rewritten with
 * every message, and copied into three list indexes) stays under 1 KB, the unit writes are billed in.
 */
export const LAST_MESSAGE_PREVIEW = 120;
const lastMessageText = (m: Pick<Message, 'body' | 'mediaName' | 'mediaType'>) =>
  (m.body || m.mediaName || m.mediaType || '').slice(0, LAST_MESSAGE_PREVIEW);

/**
 * Stores a message, then moves its ticket (lastMessage, updatedAt, unread), with no transaction: a
 * transaction bills every item and index write twice (issue 15: a message costs under 10 units).
 * - A WhatsApp id that came from outside (inbound, an echo) is claimed first with a conditional
 *   put of its guard: a redelivery or an echo fails there (ERR_DUPLICATED), and the guard names the
 *   message it was claimed for.
 * - A WhatsApp id we just chose (`freshWid`: a send) cannot be held by anyone else, so its guard,
 *   the watchdog's wake-up and the message are one BatchWrite.
 * - Then the message, then the ticket's move (see bumpTicket).
 * A crash after the guard leaves the rest undone; the redelivery of the same message finds the guard
 * and repairs what is missing (the message under the id the guard names, then the ticket's move,
 * applied only if the ticket has not moved past it). A send that crashes was never enqueued, so
 * nothing of it reaches WhatsApp; its caller got the error.
 */
async function insertWithTicket(
  companyId: number,
  ticketId: number,
  message: Message,
  opts: { wid?: string; freshWid?: boolean; unread: boolean; initial?: StoredTicket; watch?: boolean },
) {
  const before = opts.initial ?? (await requireStoredTicket(companyId, ticketId));
  const stored = { ...message, contactId: before.contactId, whatsappId: before.whatsappId };
  const keys = messageKeysOf(before, message.id);
  const guard = opts.wid
    ? { ...widGuardKeys(companyId, opts.wid), ...keys, messageId: message.id, ticketId }
    : undefined;
  // the undelivered watchdog's wake-up (see watchdog/repo.ts)
  const watch = opts.watch
    ? watchItem({
        companyId,
        messageId: message.id,
        ticketId,
        dueAt: watchDueAt(Date.parse(message.createdAt)),
        ...keys,
      })
    : undefined;
  if (guard && !opts.freshWid) {
    try {
      await putItem(guard, { ifNotExists: true });
    } catch (err) {
      if (err instanceof AppError && err.code === 'ERR_DUPLICATED')
        await repairDuplicate(companyId, opts.wid!, stored, before);
      throw err;
    }
    if (watch) await batchWrite([messageItem(stored), watch]);
    else await putItem(messageItem(stored));
  } else {
    await batchWrite([...(guard ? [guard] : []), ...(watch ? [watch] : []), messageItem(stored)]);
  }
  // undefined when a concurrent delivery's repair moved the ticket for this message already
  const after =
    (await bumpTicket(before, bumpOf(stored, opts.unread))) ?? (await getStoredTicket(companyId, ticketId)) ?? before;
  return { before, after };
}

const bumpOf = (m: Message, unread: boolean) => ({
  id: m.id,
  createdAt: m.createdAt,
  lastMessage: lastMessageText(m),
  unread,
});

/**
 * A message whose WhatsApp id is already claimed: an echo or a redelivery. When the first delivery
 * died after its guard, the message is stored now under the id the guard names; when it died before
 * moving the ticket, the ticket moves now (only if it has not moved past that message).
 */
async function repairDuplicate(companyId: number, wid: string, redelivered: Message, ticket: StoredTicket) {
  const guard = await getItem<{ msgPk: string; msgSk: string; messageId?: string; ticketId?: number }>(
    widGuardKeys(companyId, wid),
  );
  if (!guard?.messageId) return;
  let first = await getMessageById(companyId, guard.messageId);
  if (!first && guard.ticketId === ticket.id && redelivered.wid === wid) {
    const restored: Message = { ...redelivered, id: guard.messageId, ticketId: guard.ticketId };
    await putItem(messageItem(restored));
    first = { ...restored, key: { pk: guard.msgPk, sk: guard.msgSk } };
    log.warn('message restored from a redelivery', { companyId, messageId: restored.id });
  }
  if (!first || guard.ticketId !== ticket.id) return;
  if (ticket.lastMessageId && ticket.lastMessageId >= guard.messageId) return;
  await bumpTicket(ticket, bumpOf(first, !first.fromMe && !first.read), { onlyIfBehind: true });
}

/** A ticket the caller read from the table (it still carries `version`) spares the send a re-read. */
const storedOrUndefined = (ticket: Ticket) => ('version' in ticket ? (ticket as StoredTicket) : undefined);

/** appMessage to the ticket's viewers (and, for a new message, the ticket update): one connections Query. */
async function announce(
  companyId: number,
  before: Parameters<typeof publishTicketChange>[1],
  ticket: Ticket,
  message: Message,
  action: 'create' | 'update',
) {
  const [shown, connections] = await Promise.all([presentMessage(message), companyConnections(companyId)]);
  await publishToTicket(
    companyId,
    ticket,
    'appMessage',
    { action, message: shown, ticket, contact: ticket.contact },
    connections,
  );
  if (action === 'create') await publishTicketChange(companyId, before, ticket, 'update', connections);
}

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

const stripKey = <T extends { key?: unknown }>(m: T): Omit<T, 'key'> => {
  const { key: _key, ...rest } = m;
  return rest;
};

/**
 * The outbound path: stores the message (fromMe, ack 0) with the WhatsApp id it will be sent with,
 * bumps the ticket, publishes, and asks the session runner to send it with that id (FIFO group per
 * connection, deduplicated by command id). Every ack and echo then finds the message, whatever
 * order they arrive in. A failure to enqueue is recorded on the message (ERR_SENDING_WAPP_MSG),
 * never silent.
 */
export async function sendMessage(
  companyId: number,
  ticket: Ticket,
  input: {
    body: string;
    media?: { key: string; mimetype: string; fileName: string; kind: MediaKind; ptt?: boolean };
    quotedMsgId?: string;
    userId?: number | null;
    automatic?: boolean;
    /** chosen by a resend, which records it on the message it replaces before sending */
    id?: string;
    /** a campaign's send: its acks are reported to the campaign */
    campaign?: Message['campaign'];
  },
): Promise<Message> {
  if (!input.media && !input.body.trim())
    throw new AppError('ERR_VALIDATION', 400, [{ path: ['body'], message: 'required' }]);
  if (input.media) assertTenantKey(companyId, input.media.key);
  const contact = await requireContact(companyId, ticket.contactId);
  const quoted = sameConversation(
    ticket,
    input.quotedMsgId ? await getMessageById(companyId, input.quotedMsgId) : undefined,
  );
  const now = Date.now();
  const wid = newWid();
  const message: Message = {
    id: input.id ?? conversationMessageId(ticket, now, now),
    companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    wid,
    body: input.body,
    fromMe: true,
    read: true,
    ack: 0,
    mediaType: input.media ? mediaTypeOf(input.media.mimetype) : 'chat',
    mediaUrl: null,
    mediaKey: input.media?.key ?? null,
    mediaName: input.media?.fileName ?? null,
    isDeleted: false,
    isEdited: false,
    quotedMsgId: quoted?.id ?? null,
    quotedMsg: quoteOf(quoted),
    contact: null,
    userId: input.userId ?? null,
    automatic: Boolean(input.automatic),
    error: null,
    ...(input.campaign ? { campaign: input.campaign } : {}),
    createdAt: new Date(now).toISOString(),
    updatedAt: new Date(now).toISOString(),
  };
  const { before, after } = await insertWithTicket(companyId, ticket.id, message, {
    wid,
    freshWid: true,
    unread: false,
    initial: storedOrUndefined(ticket),
    watch: true,
  });
  const current = toTicket(after);
  const saved = { ...message, contactId: after.contactId, whatsappId: after.whatsappId };
  await announce(companyId, before, current, saved, 'create');
  const command: SessionCommand = {
    type: 'send',
    commandId: randomUUID(),
    companyId,
    whatsappId: after.whatsappId,
    messageId: saved.id,
    wid,
    ticketId: ticket.id,
    to: contactJid(contact),
    body: saved.body,
    ...(input.media ? { media: input.media } : {}),
    ...(quoted?.wid
      ? {
          quotedWid: quoted.wid,
          quotedFromMe: quoted.fromMe,
          quotedBody: quoted.body,
          ...(quoted.participant ? { quotedParticipant: quoted.participant } : {}),
        }
      : {}),
  };
  try {
    await enqueue(COMMAND_QUEUE, command, {
      groupId: commandGroupId(companyId, after.whatsappId),
      dedupId: command.commandId,
    });
  } catch (err) {
    log.error('send command not enqueued', { messageId: saved.id, error: (err as Error).message });
    return (await patchMessage(companyId, current, saved.id, { error: 'ERR_SENDING_WAPP_MSG' })) ?? saved;
  }
  return saved;
}

/** Sets fields on a stored message and publishes `appMessage` update. */
async function patchMessage(
  companyId: number,
  ticket: Ticket | undefined,
  id: string,
  set: Partial<Message>,
  condition?: { expr: string; values: Record<string, unknown> },
) {
  const found = await getMessageById(companyId, id);
  if (!found) return undefined;
  return patchFound(companyId, ticket, found, set, condition);
}

async function patchFound(
  companyId: number,
  ticket: Ticket | undefined,
  found: Message & { key: { pk: string; sk: string } },
  set: Partial<Message>,
  condition?: { expr: string; values: Record<string, unknown> },
) {
  const updated = await updateItem(found.key, {
    set: { ...set, updatedAt: nowIso() },
    condition: condition ? `attribute_exists(pk) AND (${condition.expr})` : 'attribute_exists(pk)',
    conditionValues: condition?.values,
  });
  if (!updated) return undefined;
  const message = stripKeys(updated) as Message;
  const t = ticket ?? toTicket(await requireStoredTicket(companyId, message.ticketId));
  await announce(companyId, null, t, message, 'update');
  return message;
}

/** An audio's transcript (made for an AI prompt), stored on it and shown to the ticket's viewers. */
export async function saveTranscript(companyId: number, ticket: Ticket, wid: string, transcript: string) {
  const found = await getMessageByWid(companyId, wid);
  return found ? patchFound(companyId, ticket, found, { transcript }) : undefined;
}

/**
 * The runner's outcome of a send: the ack it reached, or the error. It may come after acks of the
 * same message (they travel in the chat's FIFO group, which may be the other id form's), so it
 * only ever raises the ack. Returns the message as it stands, or undefined when it is unknown.
 */
export async function applySendResult(
  companyId: number,
  result: { messageId: string; ack: number; error?: string },
): Promise<Message | undefined> {
  const found = await getMessageById(companyId, result.messageId);
  if (!found) return undefined;
  if (result.error) return (await markSendFailed(companyId, found)) ?? stripKey(found);
  return (await raiseAck(companyId, found, result.ack)) ?? stripKey(found);
}

export type StoredMessage = Message & { key: { pk: string; sk: string } };

/**
 * Acks only move forward (a late "delivered" never undoes "read"), however events interleave.
 * A delivery ack clears the undelivered watchdog's flag.
 */
async function raiseAck(companyId: number, found: StoredMessage, ack: number) {
  if (found.ack >= ack) return undefined;
  const raised = await patchFound(
    companyId,
    undefined,
    found,
    { ack },
    { expr: 'ack < :ack', values: { ':ack': ack } },
  );
  if (!raised?.undelivered || ack < ACK.delivered) return raised;
  const cleared = await patchFound(
    companyId,
    undefined,
    { ...raised, key: found.key },
    { undelivered: false },
    { expr: 'undelivered = :yes', values: { ':yes': true } },
  );
  if (cleared) await countUndelivered(companyId, cleared.ticketId, -1);
  return cleared ?? raised;
}

/**
 * The ticket's count of flagged messages (the warning on its row), changed with the flag that
 * moved it; publishes the ticket update.
 */
async function countUndelivered(companyId: number, ticketId: number, delta: number, initial?: StoredTicket) {
  const { before, after, changed } = await mutateTicket(
    companyId,
    ticketId,
    (t) => {
      const current = (t as StoredTicket & UndeliveredCount).undeliveredMessages ?? 0;
      const next = Math.max(0, current + delta);
      return next === current ? null : ({ ...t, undeliveredMessages: next } as StoredTicket);
    },
    { initial },
  );
  const ticket = toTicket(after) as Ticket & UndeliveredCount;
  if (changed) await publishTicketChange(companyId, before, ticket, 'update');
  return ticket;
}

/** A message we sent that the watchdog may flag: still without a delivery ack, not failed, deleted or resent. */
const awaitsDelivery = (m: Message) =>
  m.fromMe && m.ack < ACK.delivered && !m.error && !m.isDeleted && !m.resentAs && !m.undelivered;

/**
 * The undelivered watchdog's verdict on a message it found due: flags the message and counts it
 * on its ticket; from REPAIR_AFTER_UNDELIVERED flagged messages on one ticket on, the runner is
 * asked (once, when the count reaches it) to repair the session's keys for that chat.
 * Answers whether the message was flagged.
 */
export async function flagUndelivered(companyId: number, found: StoredMessage): Promise<boolean> {
  if (!awaitsDelivery(found)) return false;
  const stored = await requireStoredTicket(companyId, found.ticketId);
  const flagged = await patchFound(
    companyId,
    toTicket(stored),
    found,
    { undelivered: true },
    {
      expr: 'ack < :delivered AND attribute_not_exists(resentAs) AND (attribute_not_exists(undelivered) OR undelivered = :no)',
      values: { ':delivered': ACK.delivered, ':no': false },
    },
  );
  if (!flagged) return false;
  const ticket = await countUndelivered(companyId, found.ticketId, 1, stored);
  if (ticket.undeliveredMessages === REPAIR_AFTER_UNDELIVERED) {
    const contact = await requireContact(companyId, ticket.contactId);
    const command: SessionCommand = {
      type: 'repairSession',
      commandId: randomUUID(),
      companyId,
      whatsappId: ticket.whatsappId,
      ticketId: ticket.id,
      to: contactJid(contact),
    };
    await enqueue(COMMAND_QUEUE, command, {
      groupId: commandGroupId(companyId, ticket.whatsappId),
      dedupId: command.commandId,
    });
    log.warn('session repair asked', { companyId, whatsappId: ticket.whatsappId, ticketId: ticket.id });
  }
  return true;
}

/**
 * POST /messages/{id}/resend: the same content again as a new message (new WhatsApp id) through
 * the normal send path, for one of our messages that has no delivery ack. The old one is marked
 * with the new one's id first, conditionally, so a double click sends once.
 */
export async function resendMessage(companyId: number, actor: Actor, id: string): Promise<Message> {
  const found = await getMessageById(companyId, id);
  if (!found) throw new AppError('ERR_NOT_FOUND');
  const stored = await requireStoredTicket(companyId, found.ticketId);
  await assertCanSee(companyId, actor, stored);
  if (!found.fromMe) throw new AppError('ERR_NO_PERMISSION');
  if (found.ack >= ACK.delivered || found.isDeleted || found.resentAs) throw new AppError('ERR_MESSAGE_NOT_RESENDABLE');
  const media = found.mediaKey
    ? { key: found.mediaKey, fileName: found.mediaName ?? found.mediaKey.split('/').pop() ?? 'file' }
    : undefined;
  const mimetype = media && (await acceptStoredUpload(companyId, media.key, media.fileName)).mimetype;
  const newId = conversationMessageId(found);
  const claimed = await updateItem(found.key, {
    set: { resentAs: newId, undelivered: false, updatedAt: nowIso() },
    condition: `ack < :delivered AND attribute_not_exists(resentAs) AND isDeleted = :no AND ${
      found.undelivered ? 'undelivered = :yes' : '(attribute_not_exists(undelivered) OR undelivered = :no)'
    }`,
    conditionValues: { ':delivered': ACK.delivered, ':no': false, ...(found.undelivered ? { ':yes': true } : {}) },
  });
  if (!claimed) throw new AppError('ERR_MESSAGE_NOT_RESENDABLE');
  if (found.undelivered) await countUndelivered(companyId, found.ticketId, -1);
  // read after the count moved: the send's transaction starts from this version
  const current = await requireStoredTicket(companyId, found.ticketId);
  await announce(companyId, null, toTicket(current), stripKeys(claimed) as Message, 'update');
  return sendMessage(companyId, current, {
    id: newId,
    body: found.body,
    media: media && mimetype ? { ...media, mimetype, kind: mediaKindOf(mimetype) } : undefined,
    quotedMsgId: found.quotedMsgId ?? undefined,
    userId: actor.userId,
  });
}

/** WhatsApp did not take the message: shown on it for good (a late ack never clears the error). */
const markSendFailed = (companyId: number, found: StoredMessage) =>
  found.error === 'ERR_SENDING_WAPP_MSG'
    ? undefined
    : patchFound(companyId, undefined, found, { error: 'ERR_SENDING_WAPP_MSG' });

/**
 * An ack from WhatsApp, found by the message's WhatsApp id whichever chat id form (number or
 * `@lid`) it came under; an ack with an error marks the send as failed.
 */
export async function applyAck(
  companyId: number,
  event: { wid: string; ack: number; error?: string },
): Promise<Message | undefined> {
  const found = await getMessageByWid(companyId, event.wid);
  if (!found) return undefined;
  if (event.error) return markSendFailed(companyId, found);
  return raiseAck(companyId, found, event.ack);
}

/**
 * The message an edit or a revoke from WhatsApp may change: one in the chat it came from, on that
 * connection, and sent by the same side (our phone changes only our messages; a contact only its
 * own, in groups only the same participant's). Anything else is ignored, so a contact cannot
 * rewrite the company's messages or another contact's.
 */
async function editableByWid(
  companyId: number,
  change: { whatsappId: number; wid: string; chatJid: string } & EditSender,
) {
  const found = await getMessageByWid(companyId, change.wid);
  if (!found || found.whatsappId !== change.whatsappId) return undefined;
  const fromMe = change.fromMe === true;
  if (found.fromMe !== fromMe) return undefined;
  if (!fromMe && found.participant && found.participant !== change.participantJid) return undefined;
  const contact = await getContact(companyId, found.contactId);
  return contact && isChatOf(contact, change.chatJid) ? found : undefined;
}

/** Whether a chat id (`<number>@s.whatsapp.net`, `<id>@g.us`, `<lid>@lid`) names this contact. */
function isChatOf(contact: Contact, chatJid: string) {
  const user = jidUser(chatJid);
  if (chatJid.endsWith('@lid')) return contact.lid === user;
  return contact.number === (contact.isGroup ? user : digitsOnly(user));
}

export async function markEdited(
  companyId: number,
  change: { whatsappId: number; wid: string; chatJid: string; body: string } & EditSender,
): Promise<Message | undefined> {
  const found = await editableByWid(companyId, change);
  if (!found) return undefined;
  return patchFound(companyId, undefined, found, { body: change.body, isEdited: true });
}

export async function markRevoked(
  companyId: number,
  change: { whatsappId: number; wid: string; chatJid: string } & EditSender,
): Promise<Message | undefined> {
  const found = await editableByWid(companyId, change);
  if (!found) return undefined;
  return patchFound(companyId, undefined, found, { isDeleted: true });
}

/** DELETE /messages/{id}: only the sender's own messages (fromMe); WhatsApp is asked to revoke it. */
export async function deleteMessageByUser(companyId: number, actor: Actor, id: string): Promise<Message> {
  const found = await getMessageById(companyId, id);
  if (!found) throw new AppError('ERR_NOT_FOUND');
  const ticket = await requireStoredTicket(companyId, found.ticketId);
  await assertCanSee(companyId, actor, ticket);
  if (!found.fromMe) throw new AppError('ERR_NO_PERMISSION');
  const updated = await patchFound(companyId, toTicket(ticket), found, { isDeleted: true });
  if (found.wid) {
    const contact = await requireContact(companyId, ticket.contactId);
    const command: SessionCommand = {
      type: 'delete',
      commandId: randomUUID(),
      companyId,
      whatsappId: found.whatsappId,
      messageId: found.id,
      wid: found.wid,
      to: contactJid(contact),
      fromMe: true,
    };
    await enqueue(COMMAND_QUEUE, command, {
      groupId: commandGroupId(companyId, found.whatsappId),
      dedupId: command.commandId,
    }).catch((err) => log.error('delete command not enqueued', { messageId: id, error: (err as Error).message }));
  }
  return updated ?? stripKey(found);
}

/**
 * GET /messages/{ticketId}: the newest page of the contact's conversation on the ticket's
 * connection (earlier tickets included, for the ticket-change banner), older pages by cursor.
 * Messages come oldest first within a page. Reading resets the ticket's unread count.
 */
export async function listMessages(companyId: number, actor: Actor, ticketId: number, cursor?: string, limit = PAGE) {
  const stored = await requireStoredTicket(companyId, ticketId);
  await assertCanSee(companyId, actor, stored);
  const where = { pk: conversationPk(companyId, stored.contactId, stored.whatsappId), sk: { beginsWith: 'M#' } };
  const startKey = await decodeCursor(companyId, cursor, where);
  const [result, ticket] = await Promise.all([
    query<Message>({
      ...where,
      forward: false,
      limit,
      startKey,
    }),
    stored.unreadMessages > 0 ? resetUnread(companyId, ticketId) : Promise.resolve(toTicket(stored)),
  ]);
  const briefs = await ticketBriefs(
    companyId,
    stored,
    result.items.map((m) => m.ticketId),
  );
  const messages = await Promise.all(
    result.items.reverse().map(async (item) => ({
      ...(await presentMessage(stripMessageKeys(item))),
      ticket: briefs.get(item.ticketId) ?? null,
    })),
  );
  const paged = await page(companyId, messages, result.lastKey, where);
  return { messages: paged.items, ticket, hasMore: paged.hasMore, cursor: paged.cursor };
}

/**
 * The ticket of each message, for the banner between conversations (started / closed times).
 * A page usually holds one ticket (the open one, already read): earlier ones are one BatchGet.
 */
async function ticketBriefs(companyId: number, current: StoredTicket, ids: number[]) {
  const brief = (t: StoredTicket) => ({
    id: t.id,
    status: t.status,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    closedAt: t.finishedAt,
  });
  const out = new Map([[current.id, brief(current)]]);
  const others = [...new Set(ids)].filter((id) => id !== current.id);
  if (others.length)
    for (const item of await batchGet(others.map((id) => ticketKeys(companyId, id))))
      out.set(item.id, brief(toStored(item)));
  return out;
}

function stripMessageKeys(item: Item): Message {
  const { pk: _pk, sk: _sk, gsi1pk: _g, gsi1sk: _s, ...rest } = item;
  return rest as Message;
}
