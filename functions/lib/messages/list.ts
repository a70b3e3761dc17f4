import type { Message } from '#shared/schemas/messages';
import { batchGet, query, type Item } from '../db';
import { decodeCursor, page } from '../cursor';
import { AppError } from '../errors';
import { afterAnswer } from '../after-answer';
import { toUser, userKeys } from '../accounts/users';
import { ticketKeys, toStored, toTicket, type StoredTicket } from '../tickets/repo';
import { assertCanSee, isAdmin, type Actor } from '../tickets/access';
import { resetUnread } from '../tickets/mutate';
import { conversationPk, presentMessage } from './repo';

const PAGE = 20;

interface Conversation {
  contactId: number;
  whatsappId: number;
}

/**
 * What this instance learnt from the pages it served: the conversation each ticket was in, and the
 * tickets each page held. Hints only, so that a page's reads go out together: every answer is checked
 * against the ticket read beside it, and a wrong or missing hint costs a round trip, never a wrong page.
 */
const MAX_HINTS = 50_000;
const conversationOf = new Map<string, Conversation>();
const ticketsOnPage = new Map<string, number[]>();
function remember<T>(hints: Map<string, T>, key: string, value: T) {
  hints.delete(key);
  if (hints.size >= MAX_HINTS) hints.delete(hints.keys().next().value!);
  hints.set(key, value);
}
const ticketHint = (companyId: number, ticketId: number) => `${companyId}#${ticketId}`;
const pageHint = (where: { pk: string }, cursor: string | undefined, limit: number) =>
  `${where.pk}#${limit}#${cursor ?? ''}`;
const sameConversation = (a: Conversation, b: Conversation) =>
  a.contactId === b.contactId && a.whatsappId === b.whatsappId;
const whereOf = (companyId: number, c: Conversation) => ({
  pk: conversationPk(companyId, c.contactId, c.whatsappId),
  sk: { beginsWith: 'M#' },
});

/** A read whose failure is looked at later (after the visibility check, whose refusal comes first). */
const settle = <T>(read: Promise<T>) =>
  read.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
const settled = async <T>(read: Promise<{ value: T } | { error: unknown }>) => {
  const out = await read;
  if ('error' in out) throw out.error;
  return out.value;
};

/**
 * GET /messages/{ticketId}: the newest page of the contact's conversation on the ticket's
 * connection (earlier tickets included, for the ticket-change banner), older pages by cursor.
 * Messages come oldest first within a page. Reading resets the ticket's unread count, after the
 * answer.
 *
 * When this instance knows the ticket's conversation and the tickets its page held, the page costs
 * two requests sent together: the Query of the messages, and one BatchGet of the ticket (for the
 * visibility check, always made before anything is answered), the page's other tickets (the banners)
 * and, for a non-admin, the viewer's user. The conversation is known from an earlier page on this
 * instance or from the client's `conversation` hint (`<contactId>-<whatsappId>`, the ticket as its
 * list showed it), so a fresh instance serves an opened ticket in one round trip too. Otherwise the
 * ticket is read first.
 */
export async function listMessages(
  companyId: number,
  actor: Actor,
  ticketId: number,
  cursor?: string,
  limit = PAGE,
  clientHint?: string,
) {
  const guess = conversationOf.get(ticketHint(companyId, ticketId)) ?? parseHint(clientHint);
  const early = guess && readPage(companyId, guess, cursor, limit);
  const first = await batchGet([
    ticketKeys(companyId, ticketId),
    ...(isAdmin(actor) ? [] : [userKeys(companyId, actor.userId)]),
    ...(early?.expected ?? []).map((id) => ticketKeys(companyId, id)),
  ]);
  const tickets = new Map(first.filter((i) => i.sk.startsWith('TICKET#')).map((i) => [i.id as number, toStored(i)]));
  const stored = tickets.get(ticketId);
  if (!stored) throw new AppError('ERR_NO_TICKET_FOUND');
  if (!isAdmin(actor)) {
    const user = first.find((i) => i.sk.startsWith('USER#'));
    await assertCanSee(companyId, actor, stored, user ? toUser(user) : null);
  }
  if (stored.unreadMessages > 0) afterAnswer('resetUnread', () => resetUnread(companyId, ticketId, stored));

  const conversation = { contactId: stored.contactId, whatsappId: stored.whatsappId };
  remember(conversationOf, ticketHint(companyId, ticketId), conversation);
  // a guess that no longer holds (the ticket moved to another connection or contact) is read again
  const late =
    early && sameConversation(guess, conversation) ? undefined : readPage(companyId, conversation, cursor, limit);
  const [read] = await Promise.all([
    settled((late ?? early)!.page),
    late?.expected.length &&
      batchGet(late.expected.map((id) => ticketKeys(companyId, id))).then((items) => {
        for (const item of items) tickets.set(item.id as number, toStored(item));
      }),
  ]);
  const { result, where, hint } = read;

  const ids = [...new Set(result.items.map((m) => m.ticketId))];
  remember(ticketsOnPage, hint, ids);
  for (const id of ids) remember(conversationOf, ticketHint(companyId, id), conversation);
  const missing = ids.filter((id) => !tickets.has(id));
  if (missing.length)
    for (const item of await batchGet(missing.map((id) => ticketKeys(companyId, id))))
      tickets.set(item.id as number, toStored(item));

  const messages = await Promise.all(
    result.items.reverse().map(async (item) => {
      const t = tickets.get(item.ticketId);
      return { ...(await presentMessage(stripMessageKeys(item))), ticket: t ? brief(t) : null };
    }),
  );
  const paged = await page(companyId, messages, result.lastKey, where);
  // the count the reset (after the answer) writes
  const ticket = toTicket({ ...stored, unreadMessages: 0 });
  return { messages: paged.items, ticket, hasMore: paged.hasMore, cursor: paged.cursor };
}

/** `<contactId>-<whatsappId>` as a conversation, or nothing */
function parseHint(hint: string | undefined): Conversation | undefined {
  const [contactId, whatsappId] = (hint ?? '').split('-').map(Number);
  return contactId && whatsappId ? { contactId, whatsappId } : undefined;
}

/**
 * One page of a conversation (its Query starts now), and the tickets this instance saw on the same
 * page last time (`expected`), to be read beside it.
 */
function readPage(companyId: number, conversation: Conversation, cursor: string | undefined, limit: number) {
  const where = whereOf(companyId, conversation);
  const hint = pageHint(where, cursor, limit);
  const run = async () => {
    const startKey = await decodeCursor(companyId, cursor, where);
    const result = await query<Message>({ ...where, forward: false, limit, startKey });
    return { result, where, hint };
  };
  return { page: settle(run()), expected: ticketsOnPage.get(hint) ?? [] };
}

/** A ticket as the banner between conversations shows it (started / closed times). */
const brief = (t: StoredTicket) => ({
  id: t.id,
  status: t.status,
  createdAt: t.createdAt,
  updatedAt: t.updatedAt,
  closedAt: t.finishedAt,
});

function stripMessageKeys(item: Item): Message {
  const { pk: _pk, sk: _sk, gsi1pk: _g, gsi1sk: _s, ...rest } = item;
  return rest as Message;
}
