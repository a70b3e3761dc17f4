/**
 * What the paths that write messages share: storing a message with its ticket's move, changing a
 * stored one, and telling the ticket's viewers. The paths: inbound.ts (from WhatsApp), send.ts (to
 * WhatsApp), delivery.ts (acks, the undelivered watchdog), edits.ts (edits, revokes, deletes,
 * transcripts); list.ts reads.
 */
import type { Message, QuotedMessage } from '#shared/schemas/messages';
import type { Ticket } from '#shared/schemas/tickets';
import { AppError } from '../errors';
import { batchWrite, getItem, putItem, stripKeys, updateItem } from '../db';
import { nowIso } from '../keys';
import { log } from '../log';
import { companyConnections } from '../realtime';
import { bumpTicket, getStoredTicket, requireStoredTicket, toTicket, type StoredTicket } from '../tickets/repo';
import { publishTicketChange, publishToTicket } from '../tickets/events';
import { watchDueAt, watchItem } from '../watchdog/repo';
import { conversationPk, getMessageById, messageItem, presentMessage, widGuardKeys, type StoredMessage } from './repo';

/**
 * A quote names a message of the same conversation (the contact on that connection), as on
 * WhatsApp; any other message is treated as not found, so its body is never copied into a chat
 * whose viewers may not see it.
 */
export const sameConversation = <M extends Message>(ticket: Ticket, m: M | undefined) =>
  m && m.contactId === ticket.contactId && m.whatsappId === ticket.whatsappId ? m : undefined;

export function quoteOf(m: Message | undefined): QuotedMessage | null {
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
const LAST_MESSAGE_PREVIEW = 120;
// a placeholder for a message that could not be read has nothing to preview (the web shows a note)
export const lastMessageText = (m: Pick<Message, 'body' | 'mediaName' | 'mediaType' | 'undecryptable'>) =>
  m.undecryptable ? '' : (m.body || m.mediaName || m.mediaType || '').slice(0, LAST_MESSAGE_PREVIEW);

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
export async function insertWithTicket(
  companyId: number,
  ticketId: number,
  message: Message,
  opts: {
    wid?: string;
    freshWid?: boolean;
    unread: boolean;
    initial?: StoredTicket;
    watch?: boolean;
    /** an attendant's message: the wait's first response unless one was recorded */
    firstResponse?: boolean;
    /** who sent it, when a person or the AI prompt holding the ticket (see bumpTicket) */
    by?: 'person' | 'ai';
  },
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
    (await bumpTicket(before, { ...bumpOf(stored, opts.unread), firstResponse: opts.firstResponse, by: opts.by })) ??
    (await getStoredTicket(companyId, ticketId)) ??
    before;
  return { before, after };
}

export const bumpOf = (m: Message, unread: boolean) => ({
  id: m.id,
  createdAt: m.createdAt,
  lastMessage: lastMessageText(m),
  unread,
  fromCustomer: !m.fromMe,
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
export const storedOrUndefined = (ticket: Ticket) => ('version' in ticket ? (ticket as StoredTicket) : undefined);

/** appMessage to the ticket's viewers (and, for a new message, the ticket update): one connections Query. */
export async function announce(
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

export const stripKey = <T extends { key?: unknown }>(m: T): Omit<T, 'key'> => {
  const { key: _key, ...rest } = m;
  return rest;
};

/** Sets fields on a stored message and publishes `appMessage` update. */
export async function patchMessage(
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

export async function patchFound(
  companyId: number,
  ticket: Ticket | undefined,
  found: StoredMessage,
  set: Partial<Message>,
  condition?: { expr: string; values: Record<string, unknown> },
  remove?: (keyof Message)[],
) {
  const updated = await updateItem(found.key, {
    set: { ...set, updatedAt: nowIso() },
    remove,
    condition: condition ? `attribute_exists(pk) AND (${condition.expr})` : 'attribute_exists(pk)',
    conditionValues: condition?.values,
  });
  if (!updated) return undefined;
  const message = stripKeys(updated) as Message;
  const t = ticket ?? toTicket(await requireStoredTicket(companyId, message.ticketId));
  await announce(companyId, null, t, message, 'update');
  return message;
}
