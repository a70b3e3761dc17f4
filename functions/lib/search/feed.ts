import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Message, TicketNote } from '#shared/schemas/messages';
import type { Ticket } from '#shared/schemas/tickets';
import { batchGet, type Item } from '../db';
import { ticketKeys, toTicket } from '../tickets/repo';
import { log } from '../log';
import type { SearchDoc, SearchPort, TicketFacts } from './port';

/**
 * Feeds the search index from the table's change stream (the Lambda on the DynamoDB stream on AWS,
 * the local stream poller in infra/local): messages and notes become documents (a deleted or emptied
 * message leaves the index), and a ticket whose facts changed (status, queue, attendant, connection,
 * tags, contact) carries its documents along. Documents take the ticket's facts when they are indexed.
 */
type Kind = 'message' | 'note' | 'ticket';

/** What kind of item a stream record carries, by the entity modules' key shapes. */
export function kindOf(item: Item): Kind | undefined {
  const pk = String(item.pk ?? '');
  const sk = String(item.sk ?? '');
  if (sk.startsWith('M#') && /^C#\d+#MSG#/.test(pk)) return 'message';
  if (sk.startsWith('N#') && /^C#\d+#NOTES#/.test(pk)) return 'note';
  if (sk.startsWith('TICKET#') && /^C#\d+$/.test(pk)) return 'ticket';
  return undefined;
}

export function factsOf(
  t: Pick<Ticket, 'id' | 'uuid' | 'status' | 'queueId' | 'userId' | 'whatsappId' | 'tags' | 'contactId' | 'contact'> & {
    tagIds?: number[];
  },
): TicketFacts {
  return {
    ticketId: t.id,
    uuid: t.uuid,
    status: t.status,
    queueId: t.queueId ?? null,
    userId: t.userId ?? null,
    whatsappId: t.whatsappId,
    tagIds: t.tagIds ?? (t.tags ?? []).map((tag) => tag.id),
    contactId: t.contactId,
    contactName: t.contact?.name ?? '',
    contactNumber: t.contact?.number ?? '',
  };
}

const sameFacts = (a: TicketFacts, b: TicketFacts) => JSON.stringify(a) === JSON.stringify(b);

/** The searchable text of a message: its text or caption, and its file's name. */
export const messageText = (m: Pick<Message, 'body' | 'mediaName'>) =>
  [m.body ?? '', m.mediaName ?? ''].filter(Boolean).join('\n');

export const messageDocId = (id: string) => `m:${id}`;
export const noteDocId = (id: number) => `n:${id}`;

export function messageDoc(m: Message, facts: TicketFacts): SearchDoc | undefined {
  const text = messageText(m);
  if (m.isDeleted || !text.trim()) return undefined;
  return {
    ...facts,
    docId: messageDocId(m.id),
    companyId: m.companyId,
    kind: 'message',
    sourceId: m.id,
    text,
    createdAt: m.createdAt,
  };
}

export function noteDoc(n: TicketNote, facts: TicketFacts): SearchDoc {
  return {
    ...facts,
    docId: noteDocId(n.id),
    companyId: n.companyId,
    kind: 'note',
    sourceId: String(n.id),
    text: n.note,
    createdAt: n.createdAt,
  };
}

const searchable = (i: Item) => JSON.stringify([i.body, i.mediaName, i.note, i.isDeleted, i.ticketId, i.createdAt]);

const image = (image: Record<string, AttributeValue> | undefined) =>
  image ? (unmarshall(image as Parameters<typeof unmarshall>[0]) as Item) : undefined;

/** Applies a batch of stream records to the index, in order. */
export async function applyChanges(port: SearchPort, records: DynamoDBRecord[]) {
  const changes = records.flatMap((r) => {
    const now = image(r.dynamodb?.NewImage);
    const old = image(r.dynamodb?.OldImage);
    const kind = kindOf(now ?? old ?? {});
    if (!kind) return [];
    // acks, reads and the like change nothing searchable
    if (kind !== 'ticket' && now && old && searchable(now) === searchable(old)) return [];
    return [{ kind, now, old }];
  });
  // the tickets the documents of this batch belong to, read once
  const needed = new Map<string, { companyId: number; ticketId: number }>();
  for (const c of changes)
    if (c.kind !== 'ticket' && c.now) {
      const ref = { companyId: Number(c.now.companyId), ticketId: Number(c.now.ticketId) };
      needed.set(`${ref.companyId}:${ref.ticketId}`, ref);
    }
  const tickets = new Map<string, TicketFacts>();
  const read = needed.size ? await batchGet([...needed.values()].map((t) => ticketKeys(t.companyId, t.ticketId))) : [];
  for (const item of read) {
    const t = toTicket(item);
    tickets.set(`${t.companyId}:${t.id}`, factsOf(t));
  }

  // consecutive documents go in one request
  let batch: SearchDoc[] = [];
  const flush = async () => {
    if (batch.length) await port.index(batch);
    batch = [];
  };
  for (const c of changes) {
    if (c.kind === 'ticket') {
      if (!c.now) continue;
      const facts = factsOf(toTicket(c.now));
      if (c.old && sameFacts(facts, factsOf(toTicket(c.old)))) continue;
      await flush();
      await port.updateTicket(Number(c.now.companyId), facts);
      continue;
    }
    const item = (c.now ?? c.old)!;
    const companyId = Number(item.companyId);
    const docId = c.kind === 'message' ? messageDocId(String(item.id)) : noteDocId(Number(item.id));
    const facts = c.now && tickets.get(`${companyId}:${Number(c.now.ticketId)}`);
    const doc =
      c.now && facts
        ? c.kind === 'message'
          ? messageDoc(c.now as Message, facts)
          : noteDoc(c.now as TicketNote, facts)
        : undefined;
    if (doc) batch.push(doc);
    else {
      if (c.now && !facts) log.warn('search: a document of a ticket not found', { companyId, docId });
      await flush();
      await port.remove(companyId, [docId]);
    }
  }
  await flush();
}
