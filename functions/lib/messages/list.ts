import type { Message } from '#shared/schemas/messages';
import { batchGet, query, type Item } from '../db';
import { decodeCursor, page } from '../cursor';
import { requireStoredTicket, ticketKeys, toStored, toTicket, type StoredTicket } from '../tickets/repo';
import { assertCanSee, type Actor } from '../tickets/access';
import { resetUnread } from '../tickets/mutate';
import { conversationPk, presentMessage } from './repo';

const PAGE = 20;

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
