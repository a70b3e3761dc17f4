import type { Message, TicketNote } from '#shared/schemas/messages';
import { query, type Item, type QueryOptions } from '../db';
import { queryCompanies } from '../accounts/companies';
import { conversationPk } from '../messages/repo';
import { notesPk } from '../notes/service';
import { allTicketsQuery, toTicket } from '../tickets/repo';
import { factsOf, messageDoc, noteDoc } from './feed';
import type { SearchDoc, SearchPort, TicketFacts } from './port';

/**
 * Rebuilds the search index from the table (`npm run reindex`): per company, its tickets (one Query
 * on the company partition), then each conversation's messages and each contact's notes (one Query
 * per partition), all by key, no Scan. Documents go in time order, so the embedded index's arrival
 * order is the messages' order. Searches during a reindex see a partial index.
 */
const PAGE = 500;
const BATCH = 1000;

async function* pages(opts: QueryOptions) {
  let startKey: Item | undefined;
  do {
    const page = await query({ ...opts, limit: PAGE, startKey });
    yield page.items;
    startKey = page.lastKey;
  } while (startKey);
}

export async function reindexCompany(port: SearchPort, companyId: number) {
  await port.clear(companyId);
  const tickets = new Map<number, TicketFacts>();
  const conversations = new Set<string>();
  const contacts = new Set<number>();
  for await (const items of pages(allTicketsQuery(companyId)))
    for (const item of items) {
      const t = toTicket(item);
      tickets.set(t.id, factsOf(t));
      conversations.add(conversationPk(companyId, t.contactId, t.whatsappId));
      contacts.add(t.contactId);
    }
  const docs: SearchDoc[] = [];
  const add = (doc: SearchDoc | undefined) => {
    if (doc) docs.push(doc);
  };
  for (const pk of conversations)
    for await (const items of pages({ pk, sk: { beginsWith: 'M#' } }))
      for (const m of items as Message[]) {
        const facts = tickets.get(m.ticketId);
        if (facts) add(messageDoc(m, facts));
      }
  for (const contactId of contacts)
    for await (const items of pages({ pk: notesPk(companyId, contactId), sk: { beginsWith: 'N#' } }))
      for (const n of items as TicketNote[]) {
        const facts = tickets.get(n.ticketId);
        if (facts) add(noteDoc(n, facts));
      }
  docs.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  for (let i = 0; i < docs.length; i += BATCH) await port.index(docs.slice(i, i + BATCH));
  return { tickets: tickets.size, documents: docs.length };
}

/** Every company, through the companies index. */
export async function reindexAll(
  port: SearchPort,
  onCompany?: (companyId: number, counts: { tickets: number; documents: number }) => void,
) {
  let startKey: Item | undefined;
  let documents = 0;
  do {
    const page = await queryCompanies({ limit: 100, startKey });
    for (const company of page.companies) {
      const counts = await reindexCompany(port, company.id);
      documents += counts.documents;
      onCompany?.(company.id, counts);
    }
    startKey = page.lastKey;
  } while (startKey);
  return { documents };
}
