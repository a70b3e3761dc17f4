import type { Ticket } from '#shared/schemas/tickets';
import { config } from '../config';
import { getItem, stripKeys, updateItem, type Item, type TransactItem } from '../db';
import { AppError } from '../errors';
import { nowIso, pad } from '../keys';
import { normalizeText } from '../contacts/repo';

/**
 * A ticket: pk `C#<cid>`, sk `TICKET#<pad(id)>`, with up to five index entries (all sort keys of
 * the lists begin with `updatedAt`, so newest first is `ScanIndexForward=false` and the `updatedAt`
 * day filter is a key condition). Every message moves the ticket in each list index it is in (a
 * delete and a put each), so a ticket is in only the lists that are read (issue 15):
 * - gsi1 `C#<cid>#TS#<status>` / `<updatedAt>#<pad(id)>`: a status list of the whole company (admins);
 *   in the three status lists a snoozed open ticket is under the status `snoozed` (listStatus)
 * - gsi2 `C#<cid>#TQ#<queueId|0>#<status>` / `<updatedAt>#<pad(id)>`: a status list of one queue,
 *   except for an open ticket with an attendant: open tickets are listed by attendant ("Assigned"),
 *   and an open list by queue (a queue filter with "show all", the kanban) reads the company's open
 *   list filtered by queue;
 * - gsi3 `C#<cid>#TU#<userId>#<status>` / `<updatedAt>#<pad(id)>`: a status list of one attendant,
 *   only for tickets that have one;
 * - gsi4 `C#<cid>#TN` / `<normalized contact name>#<pad(id)>`: search by contact-name prefix
 * - gsi5 `C#<cid>#TC#<contactId>` / `<pad(whatsappId)>#<createdAt>#<pad(id)>`: a contact's tickets
 *   (per connection by prefix): message history banner, contact renames, number search.
 * Companion items:
 * - `C#<cid>` / `TOPEN#<contactId>#<whatsappId>` {ticketId}: the guard that allows ONE open or
 *   pending ticket per contact and connection (written/deleted in the ticket's transactions);
 * - `C#<cid>#TUUID#<uuid>` / `T` {ticketId}: the uuid lookup of /tickets/u/{uuid};
 * - `C#<cid>#T#<pad(id)>` / `ROUND#<pad(n)>`: each finished service round (queued, started,
 *   finished, user, rating).
 * `version` is bumped by every write (optimistic locking: index keys are derived from the whole item).
 */
export const ticketKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `TICKET#${pad(id)}` });
/** Every ticket of a company, in id order (the search reindex pages through it). */
export const allTicketsQuery = (companyId: number) => ({ pk: `C#${companyId}`, sk: { beginsWith: 'TICKET#' } });
export const openGuardKeys = (companyId: number, contactId: number, whatsappId: number) => ({
  pk: `C#${companyId}`,
  sk: `TOPEN#${contactId}#${whatsappId}`,
});
export const uuidKeys = (companyId: number, uuid: string) => ({ pk: `C#${companyId}#TUUID#${uuid}`, sk: 'T' });
export const roundKeys = (companyId: number, ticketId: number, round: number) => ({
  pk: `C#${companyId}#T#${pad(ticketId)}`,
  sk: `ROUND#${pad(round, 5)}`,
});

export const ticketIndex = {
  status: (companyId: number, status: string) => `C#${companyId}#TS#${status}`,
  queue: (companyId: number, queueId: number | null, status: string) => `C#${companyId}#TQ#${queueId ?? 0}#${status}`,
  user: (companyId: number, userId: number | null, status: string) => `C#${companyId}#TU#${userId ?? 0}#${status}`,
  name: (companyId: number) => `C#${companyId}#TN`,
  contact: (companyId: number, contactId: number) => `C#${companyId}#TC#${contactId}`,
};

/** The stored ticket: the API shape plus bookkeeping that never leaves the data layer. */
export type StoredTicket = Ticket & {
  version: number;
  round: number;
  tagIds: number[];
  createdDay: string;
  /** the last message that moved the ticket (a redelivery repairs a bump it missed) */
  lastMessageId?: string;
  /** an AI prompt answered on it (dashboard/agent.ts) */
  aiAnswered?: boolean;
  /** a person sent a message on it or took it, at some point (dashboard/agent.ts personTouched) */
  personTouched?: boolean;
  /** who resolved its last close (dashboard/agent.ts) */
  resolvedBy?: 'agent' | 'person';
};

/**
 * The status a ticket is listed (and counted, counts.ts) under: a snoozed open ticket is listed as
 * `snoozed`, apart from the open lists and their badges (issue 40 item 6), and comes back when it wakes.
 */
export const listStatus = (t: Pick<Ticket, 'status' | 'snooze'>) =>
  t.status === 'open' && t.snooze ? 'snoozed' : t.status;

/** Whether a ticket is in its queue's list (gsi2) and its attendant's (gsi3): see above. */
export const listedByQueue = (t: Pick<Ticket, 'status' | 'userId'>) => !(t.status === 'open' && Boolean(t.userId));
export const listedByUser = (t: Pick<Ticket, 'userId'>) => Boolean(t.userId);

export function ticketItem(t: StoredTicket): Item {
  const order = `${t.updatedAt}#${pad(t.id)}`;
  const listed = listStatus(t);
  return {
    ...ticketKeys(t.companyId, t.id),
    ...t,
    // sticky: a person took it at some point (the AI agent's metrics, dashboard/agent.ts)
    ...(t.userId !== null && t.userId !== undefined ? { personTouched: true } : {}),
    gsi1pk: ticketIndex.status(t.companyId, listed),
    gsi1sk: order,
    ...(listedByQueue(t) ? { gsi2pk: ticketIndex.queue(t.companyId, t.queueId, listed), gsi2sk: order } : {}),
    ...(listedByUser(t) ? { gsi3pk: ticketIndex.user(t.companyId, t.userId, listed), gsi3sk: order } : {}),
    gsi4pk: ticketIndex.name(t.companyId),
    gsi4sk: `${normalizeText(t.contact.name)}#${pad(t.id)}`,
    gsi5pk: ticketIndex.contact(t.companyId, t.contactId),
    gsi5sk: `${pad(t.whatsappId)}#${t.createdAt}#${pad(t.id)}`,
  };
}

/** Start key of a query that resumes right after this item on the given index. */
export function indexKeyOf(item: Item, index?: string): Item {
  const key: Item = { pk: item.pk, sk: item.sk };
  if (index) {
    key[`${index}pk`] = item[`${index}pk`];
    key[`${index}sk`] = item[`${index}sk`];
  }
  return key;
}

const PRIVATE = [
  'version',
  'round',
  'tagIds',
  'createdDay',
  'lastMessageId',
  'aiAnswered',
  'personTouched',
  'resolvedBy',
] as const;
export function toTicket(item: Item): Ticket {
  const out = stripKeys(item) as Item;
  for (const field of PRIVATE) delete out[field];
  return out as Ticket;
}
export const toStored = (item: Item) => stripKeys(item) as StoredTicket;

export async function getStoredTicket(companyId: number, id: number): Promise<StoredTicket | undefined> {
  const item = await getItem(ticketKeys(companyId, id));
  return item ? toStored(item) : undefined;
}

export async function requireStoredTicket(companyId: number, id: number): Promise<StoredTicket> {
  const found = await getStoredTicket(companyId, id);
  if (!found) throw new AppError('ERR_NO_TICKET_FOUND');
  return found;
}

/** A versioned put for a transaction: fails when someone else wrote the ticket in between. */
export function ticketPutTx(after: StoredTicket, expectedVersion: number | null): TransactItem {
  return {
    Put: {
      TableName: config().tableName,
      Item: ticketItem(after),
      ...(expectedVersion === null
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: '#v = :v',
            ExpressionAttributeNames: { '#v': 'version' },
            ExpressionAttributeValues: { ':v': expectedVersion },
          }),
    },
  } as TransactItem;
}

/**
 * A new message moves its ticket: preview, time, unread count and its list positions, in one
 * UpdateItem (the sort key of a list the ticket is not in costs nothing: without its partition
 * key an item is in no index).
 * No version check: nothing here depends on the rest of the ticket, and the version bump makes a
 * concurrent read-modify-write of the ticket retry. `onlyIfBehind`: the repair of a redelivery,
 * applied only when the ticket has not moved for this message or a later one.
 */
export async function bumpTicket(
  before: StoredTicket,
  /** `firstResponse`: an attendant's message, the wait's first response unless one was recorded (sla/clock.ts) */
  m: {
    id: string;
    createdAt: string;
    lastMessage: string;
    unread: boolean;
    firstResponse?: boolean;
    /** a customer's message: the ticket keeps when they last wrote (the Cloud API's window) */
    fromCustomer?: boolean;
    /** sent by a person, or by the AI prompt holding the ticket (sticky flags, dashboard/agent.ts) */
    by?: 'person' | 'ai';
  },
  opts: { onlyIfBehind?: boolean } = {},
): Promise<StoredTicket | undefined> {
  const updatedAt = m.createdAt > before.updatedAt ? m.createdAt : nowIso();
  const order = `${updatedAt}#${pad(before.id)}`;
  const item = await updateItem(ticketKeys(before.companyId, before.id), {
    set: {
      lastMessage: m.lastMessage,
      updatedAt,
      gsi1sk: order,
      gsi2sk: order,
      gsi3sk: order,
      lastMessageId: m.id,
      // an older message delivered late never moves it back
      ...(m.fromCustomer && !(before.customerMessageAt && before.customerMessageAt > m.createdAt)
        ? { customerMessageAt: m.createdAt }
        : {}),
      ...(m.by === 'person'
        ? { personTouched: true, agentMessageAt: m.createdAt }
        : m.by === 'ai'
          ? { aiAnswered: true }
          : {}),
      // a person answered: the "back from snooze" mark has done its job (null: clients merging the update see it go)
      ...(m.by === 'person' && before.snoozeWoke ? { snoozeWoke: null } : {}),
    },
    ...(m.firstResponse ? { setIfAbsent: { firstResponseAt: m.createdAt } } : {}),
    add: { version: 1, ...(m.unread ? { unreadMessages: 1 } : {}) },
    // a message moves its ticket once, also when a concurrent redelivery's repair got there first
    condition: `attribute_exists(pk) AND (attribute_not_exists(#last) OR #last ${opts.onlyIfBehind ? '<' : '<>'} :id)`,
    conditionNames: { '#last': 'lastMessageId' },
    conditionValues: { ':id': m.id },
  });
  return item ? toStored(item) : undefined;
}

/**
 * The ticket's preview when `messageId` is still its last message: a placeholder the real message
 * replaced in place (the ticket does not move, its order stays). Undefined when another message came since.
 */
export async function refreshLastMessage(before: StoredTicket, messageId: string, lastMessage: string) {
  const item = await updateItem(ticketKeys(before.companyId, before.id), {
    set: { lastMessage },
    add: { version: 1 },
    condition: 'attribute_exists(pk) AND #last = :id',
    conditionNames: { '#last': 'lastMessageId' },
    conditionValues: { ':id': messageId },
  });
  return item ? toStored(item) : undefined;
}

export const isActive = (status: string) => status === 'open' || status === 'pending';
