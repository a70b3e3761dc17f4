import type { Contact, ContactMergeCounts, ContactMergeResult } from '#shared/schemas/contacts';
import {
  batchGet,
  conditionTx,
  deleteTx,
  getItem,
  putIfTx,
  putTx,
  query,
  transact,
  updateTx,
  type TransactItem,
} from '../db';
import { AppError } from '../errors';
import { companyScope, counterTx } from '../ids';
import { nowIso } from '../keys';
import { log } from '../log';
import { publish } from '../realtime';
import { recordAudit } from '../audit/record';
import { auditBy, type AuditActor } from '../audit/actor';
import { bumpDay } from '../dashboard/aggregates';
import { isActive, openGuardKeys, ticketIndex, ticketKeys, toStored, toTicket } from '../tickets/repo';
import { mutateTicket } from '../tickets/mutate';
import { publishTicketChange } from '../tickets/events';
import { refreshTicketContact } from '../tickets/service';
import { conversationPk } from '../messages/repo';
import { moveConversation } from '../messages/move';
import { createSystemNote, moveContactNotes, notesPk } from '../notes/service';
import { contactSchedulePages, moveContactSchedules } from '../schedules/service';
import { moveListMemberships } from '../contact-lists/service';
import { listWhatsapps } from '../whatsapp/repo';
import { itemKeys } from '../contact-lists/repo';
import {
  CONTACTS_USAGE,
  contactItem,
  contactKeys,
  lidGuardKeys,
  mergeRecordKeys,
  numberGuardKeys,
  toContact,
} from './repo';

/**
 * Merging contact `other` into contact `keep` (issue 27): everything of `other` moves to `keep`, then
 * `other` is deleted. Crash-safe and idempotent:
 * 1. a merge record `CMERGE#<otherId>` {keepId, status running} is written first (a second merge of
 *    either contact meanwhile is ERR_MERGE_IN_PROGRESS; the same merge again resumes);
 * 2. each kind of item moves in steps that are transactions, each with the record's count (ADD), so
 *    a step is done or not done and the counts are exact; a step run again finds only what is left:
 *    messages (per connection), tickets, notes, schedules, contact-list memberships;
 * 3. one transaction ends it: the kept contact with the merged fields, `other` deleted, its number
 *    and lid guards handed to `keep` (listed on it as `mergedNumbers`/`mergedLids`, so a customer
 *    writing from them reaches `keep` and deleting `keep` frees them), the usage counter, and the
 *    record marked done. Items that arrived under `other` in the meantime are swept once more after.
 * Decisions:
 * - tickets keep their ids, tags, rounds and notes; their contact snapshot becomes `keep`. When both
 *   contacts have an open or pending ticket on the same connection, `keep`'s stays and `other`'s is
 *   closed (no messages are sent) with a system note; its messages join `keep`'s conversation on that
 *   connection, so they show in the kept ticket's history;
 * - fields: `keep`'s win. Its empty name-like name (the number or lid), e-mail, number or lid take
 *   `other`'s; custom fields are the union: a field of `other` with a name `keep` has and a different
 *   value is kept as `<name> (#<otherId>)`, and so is an e-mail or a name that lost;
 * - message ids keep naming `other`'s conversation; the record sends their lookups to `keep`.
 */

type Hooks = { extra?: (n: number) => TransactItem[]; onMoved?: (n: number) => void };

export interface MergeOptions {
  actor?: AuditActor;
  /** the session runner said the two are one person (a lid mapped to a number) */
  automatic?: boolean;
  /** tests only: throws once this many items have moved (a crash in the middle) */
  failAfter?: number;
}

interface MergeRecord {
  keepId: number;
  otherId: number;
  status: 'running' | 'done';
  whatsappIds?: Set<string>;
  startedAt: string;
  finishedAt?: string;
  automatic?: boolean;
  counts?: Partial<ContactMergeCounts>;
  cTickets?: number;
  cMessages?: number;
  cNotes?: number;
  cSchedules?: number;
  cLists?: number;
  cClosed?: number;
  cExtraInfo?: number;
}

const countsOf = (r: MergeRecord | undefined): ContactMergeCounts => ({
  tickets: r?.cTickets ?? 0,
  messages: r?.cMessages ?? 0,
  notes: r?.cNotes ?? 0,
  schedules: r?.cSchedules ?? 0,
  listMemberships: r?.cLists ?? 0,
  extraInfo: r?.cExtraInfo ?? 0,
  closedTickets: r?.cClosed ?? 0,
});

async function readPair(companyId: number, keepId: number, otherId: number) {
  if (keepId === otherId) throw new AppError('ERR_MERGE_SAME_CONTACT');
  const items = await batchGet(
    [
      contactKeys(companyId, keepId),
      contactKeys(companyId, otherId),
      mergeRecordKeys(companyId, keepId),
      mergeRecordKeys(companyId, otherId),
    ],
    { consistent: true },
  );
  const find = (key: { pk: string; sk: string }) => items.find((i) => i.pk === key.pk && i.sk === key.sk);
  const keepItem = find(contactKeys(companyId, keepId));
  const otherItem = find(contactKeys(companyId, otherId));
  return {
    keep: keepItem ? toContact(keepItem) : undefined,
    other: otherItem ? toContact(otherItem) : undefined,
    keepRecord: find(mergeRecordKeys(companyId, keepId)) as MergeRecord | undefined,
    record: find(mergeRecordKeys(companyId, otherId)) as MergeRecord | undefined,
  };
}

/** The other contact's tickets (ids and connections), from its tickets index. */
async function ticketsOf(companyId: number, contactId: number) {
  const out: { id: number; whatsappId: number }[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await query({ index: 'gsi5', pk: ticketIndex.contact(companyId, contactId), startKey });
    for (const item of page.items)
      out.push({ id: Number(item.id), whatsappId: Number(String(item.gsi5sk).split('#')[0]) });
    startKey = page.lastKey;
  } while (startKey);
  return out;
}

/** The connections a contact may have conversations on: its tickets' and the company's. */
async function connectionsOf(companyId: number, contactId: number, recorded?: Set<string>) {
  const ids = new Set<number>([...(recorded ?? [])].map(Number));
  for (const t of await ticketsOf(companyId, contactId)) ids.add(t.whatsappId);
  for (const w of await listWhatsapps(companyId)) ids.add(w.id);
  return [...ids];
}

/** What a merge of `other` into `keep` would move (the confirmation dialog). */
export async function previewMerge(companyId: number, keepId: number, otherId: number): Promise<ContactMergeCounts> {
  const { keep, other } = await readPair(companyId, keepId, otherId);
  if (!keep || !other) throw new AppError('ERR_NO_CONTACT_FOUND');
  if (keep.isGroup || other.isGroup) throw new AppError('ERR_MERGE_GROUP');
  const tickets = await ticketsOf(companyId, otherId);
  const stored = tickets.length ? (await batchGet(tickets.map((t) => ticketKeys(companyId, t.id)))).map(toStored) : [];
  const active = stored.filter((t) => isActive(t.status));
  const keepGuards = active.length
    ? await batchGet(active.map((t) => openGuardKeys(companyId, keepId, t.whatsappId)))
    : [];
  let messages = 0;
  for (const w of await connectionsOf(companyId, otherId))
    messages += await countPartition(conversationPk(companyId, otherId, w), 'M#');
  const notes = await countPartition(notesPk(companyId, otherId), 'N#');
  const schedules = await countSchedules(companyId, otherId);
  const lists =
    other.number && keep.number && other.number !== keep.number ? await countLists(companyId, other.number) : 0;
  return {
    tickets: tickets.length,
    messages,
    notes,
    schedules,
    listMemberships: lists,
    extraInfo: other.extraInfo.length,
    closedTickets: keepGuards.length,
  };
}

async function countPartition(pk: string, prefix: string) {
  let n = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await query({ pk, sk: { beginsWith: prefix }, startKey, projection: ['sk'] });
    n += page.items.length;
    startKey = page.lastKey;
  } while (startKey);
  return n;
}

async function countSchedules(companyId: number, contactId: number) {
  let n = 0;
  for await (const items of contactSchedulePages(companyId, contactId, ['id'])) n += items.length;
  return n;
}

async function countLists(companyId: number, number: string) {
  const lists = await query({ pk: `C#${companyId}`, sk: { beginsWith: 'CONTACTLIST#' }, projection: ['id'] });
  if (!lists.items.length) return 0;
  const found = await batchGet(lists.items.map((l) => itemKeys(companyId, Number(l.id), number)));
  return found.length;
}

/**
 * POST /contacts/{keepId}/merge, and the automatic merge of a lid-only contact into its number's.
 * Running it again (after a crash, a redelivery, a double click) resumes or answers the outcome.
 */
export async function mergeContacts(
  companyId: number,
  keepId: number,
  otherId: number,
  opts: MergeOptions = {},
): Promise<ContactMergeResult> {
  const { keep, other, keepRecord, record } = await readPair(companyId, keepId, otherId);
  if (record?.status === 'done' && record.keepId === keepId && keep)
    return { contact: keep, mergedId: otherId, counts: countsOf(record) };
  if (!keep || !other) throw new AppError('ERR_NO_CONTACT_FOUND');
  if (keep.isGroup || other.isGroup) throw new AppError('ERR_MERGE_GROUP');
  if (keepRecord || (record && record.keepId !== keepId)) throw new AppError('ERR_MERGE_IN_PROGRESS');

  const recordKey = mergeRecordKeys(companyId, otherId);
  if (!record) {
    await transact(
      [
        putTx(
          {
            ...recordKey,
            keepId,
            otherId,
            status: 'running',
            startedAt: nowIso(),
            automatic: Boolean(opts.automatic),
            actorId: opts.actor?.userId ?? null,
          },
          true,
        ),
        // the kept contact is not being merged away at the same time
        conditionTx(mergeRecordKeys(companyId, keepId), 'attribute_not_exists(pk)'),
      ],
      () => new AppError('ERR_MERGE_IN_PROGRESS'),
    );
  }

  let moved = 0;
  const hooks = (counter: keyof MergeRecord): Hooks => ({
    extra: (n) => [updateTx(recordKey, { add: { [counter]: n } })],
    onMoved: (n) => {
      moved += n;
      if (opts.failAfter !== undefined && moved >= opts.failAfter) throw new Error('injected failure (test)');
    },
  });

  // where the conversations are: remembered in the record, since the tickets that tell it move
  const tickets = await ticketsOf(companyId, otherId);
  const connections = await connectionsOf(companyId, otherId, record?.whatsappIds);
  const seen = new Set(tickets.map((t) => String(t.whatsappId)));
  if (seen.size) await transact([updateTx(recordKey, { add: { whatsappIds: seen } })]);

  const moveAll = async () => {
    for (const w of connections) await moveConversation(companyId, otherId, keepId, w, hooks('cMessages'));
    for (const t of await ticketsOf(companyId, otherId)) await moveTicket(companyId, t.id, other, keep, hooks);
    await moveContactNotes(companyId, otherId, keepId, hooks('cNotes'));
  };
  await moveAll();
  await moveContactSchedules(companyId, otherId, keep, hooks('cSchedules'));
  const merged = mergedContact(keep, other);
  await moveListMemberships(companyId, other.number, merged.number, hooks('cLists'));

  const extraInfo = merged.extraInfo.length - keep.extraInfo.length;
  await finish(companyId, keep, other, merged, extraInfo);
  // anything a message stored under the merged contact while the last steps ran
  await moveAll();

  const final = (await getItem<MergeRecord>(recordKey, { consistent: true }))!;
  const counts = countsOf(final);
  if (merged.name !== keep.name || merged.number !== keep.number) await refreshTicketContact(companyId, merged);
  await publish(companyId, 'contact', { action: 'delete', contactId: otherId, mergedInto: keepId });
  await publish(companyId, 'contact', { action: 'update', contact: merged, merged: { otherId, counts } });
  const entry = {
    action: 'contact.merged' as const,
    target: { type: 'contact', id: keepId, name: merged.name },
    changes: { keptId: keepId, mergedId: otherId, mergedName: other.name, automatic: Boolean(opts.automatic), counts },
  };
  if (opts.actor) await auditBy(opts.actor, entry);
  else await recordAudit({ companyId, actorId: null, actorName: null, address: null, ...entry });
  log.info('contacts merged', { companyId, keepId, otherId, ...counts });
  return { contact: merged, mergedId: otherId, counts };
}

/** The kept contact's fields after the merge (see the decisions above). */
export function mergedContact(keep: Contact, other: Contact): Contact {
  const suffix = ` (#${other.id})`;
  const extraInfo = [...keep.extraInfo];
  const add = (name: string, value: string) => {
    const same = extraInfo.find((f) => f.name === name);
    if (same?.value === value) return;
    const target = same ? `${name}${suffix}` : name;
    if (!extraInfo.some((f) => f.name === target && f.value === value)) extraInfo.push({ name: target, value });
  };
  for (const f of other.extraInfo) add(f.name, f.value);
  const autoNamed = (c: Contact) => !c.name.trim() || c.name === c.number || c.name === c.lid;
  const name = autoNamed(keep) && !autoNamed(other) ? other.name : keep.name;
  if (name !== other.name && !autoNamed(other)) add(`name${suffix}`.slice(0, 100), other.name);
  if (keep.email && other.email && keep.email !== other.email) add('email', other.email);
  // custom fields (issue 40): the kept contact's values stay, the other's fill the gaps, a differing one becomes extra info
  const customFields = { ...(keep.customFields ?? {}) };
  for (const [key, value] of Object.entries(other.customFields ?? {})) {
    if (customFields[key] === undefined) customFields[key] = value;
    else if (customFields[key] !== value) add(key, String(value));
  }
  const { lidPn: _lidPn, ...rest } = keep;
  const number = keep.number || other.number;
  const lid = keep.lid || other.lid;
  // the other's ids keep leading here: a customer writing from them reaches the kept contact
  const aliases = (own: string | undefined, lists: (string[] | undefined)[], extra: (string | undefined)[]) => {
    const all = new Set([...lists.flatMap((l) => l ?? []), ...extra].filter((v): v is string => Boolean(v)));
    if (own) all.delete(own);
    return [...all];
  };
  const mergedNumbers = aliases(number, [keep.mergedNumbers, other.mergedNumbers], [other.number]);
  const mergedLids = aliases(lid, [keep.mergedLids, other.mergedLids], [other.lid]);
  return {
    ...rest,
    name,
    number,
    email: keep.email || other.email,
    lid,
    ...(mergedNumbers.length ? { mergedNumbers } : {}),
    ...(mergedLids.length ? { mergedLids } : {}),
    profilePicUrl: keep.profilePicUrl || other.profilePicUrl,
    extraInfo,
    ...(Object.keys(customFields).length ? { customFields } : {}),
    ...(!number && keep.lidPn ? { lidPn: keep.lidPn } : {}),
    updatedAt: nowIso(),
  };
}

/**
 * One ticket of `other` becomes `keep`'s, with its open guard. When `keep` holds that connection's
 * guard already, the ticket is closed instead (no messages sent) and noted.
 */
async function moveTicket(
  companyId: number,
  ticketId: number,
  other: Contact,
  keep: Contact,
  hooks: (counter: keyof MergeRecord) => Hooks,
) {
  const snap = {
    id: keep.id,
    name: keep.name,
    number: keep.number,
    profilePicUrl: keep.profilePicUrl,
    isGroup: keep.isGroup,
  };
  const counted = hooks('cTickets');
  const recordKey = mergeRecordKeys(companyId, other.id);
  const move = (close: boolean) =>
    mutateTicket(
      companyId,
      ticketId,
      (t) => {
        if (t.contactId !== other.id) return null;
        const now = nowIso();
        const base = { ...t, contactId: keep.id, contact: snap };
        return close && isActive(t.status)
          ? { ...base, status: 'closed' as const, finishedAt: now, unreadMessages: 0, updatedAt: now }
          : base;
      },
      {
        extra: (b) => [
          updateTx(recordKey, { add: close && isActive(b.status) ? { cTickets: 1, cClosed: 1 } : { cTickets: 1 } }),
          ...(isActive(b.status)
            ? [
                deleteTx(openGuardKeys(companyId, other.id, b.whatsappId)),
                ...(close ? [] : [putTx({ ...openGuardKeys(companyId, keep.id, b.whatsappId), ticketId: b.id }, true)]),
              ]
            : []),
        ],
        mapConflict: () => new AppError('ERR_OTHER_OPEN_TICKET'),
      },
    );
  let out: Awaited<ReturnType<typeof move>>;
  let wasClosed = false;
  try {
    out = await move(false);
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'ERR_OTHER_OPEN_TICKET')) throw err;
    out = await move(true);
    wasClosed = out.changed;
  }
  if (!out.changed) return;
  counted.onMoved!(1);
  if (wasClosed) {
    await bumpDay(companyId, out.before.createdDay, { [out.before.status]: -1, closed: 1 });
    await createSystemNote(
      companyId,
      out.after,
      `Ticket encerrado ao mesclar o contato #${other.id} no contato #${keep.id}, que já tinha um ticket aberto nesta conexão.`,
    ).catch((err) => log.warn('merge note failed', { companyId, ticketId, error: (err as Error).message }));
  }
  await publishTicketChange(companyId, out.before, toTicket(out.after));
}

/**
 * The last step, one transaction: the kept contact written with the merged fields (only if nobody
 * wrote it since it was read), `other` and its guards gone or handed to `keep`, the contact count,
 * and the record done.
 */
async function finish(companyId: number, keep: Contact, other: Contact, merged: Contact, extraInfo: number) {
  const items: TransactItem[] = [
    putIfTx(contactItem(merged), 'updatedAt', keep.updatedAt),
    deleteTx(contactKeys(companyId, other.id), 'attribute_exists(pk)'),
    counterTx(companyScope(companyId), CONTACTS_USAGE, -1),
    updateTx(mergeRecordKeys(companyId, other.id), {
      set: { status: 'done', finishedAt: nowIso(), cExtraInfo: Math.max(0, extraInfo) },
    }),
  ];
  // every id of the other contact (and of those merged into it before) now leads to the kept one
  for (const number of [other.number, ...(other.mergedNumbers ?? [])].filter(Boolean))
    items.push(putTx({ ...numberGuardKeys(companyId, number), contactId: keep.id }));
  for (const lid of [other.lid, ...(other.mergedLids ?? [])].filter((v): v is string => Boolean(v)))
    items.push(putTx({ ...lidGuardKeys(companyId, lid), contactId: keep.id }));
  try {
    await transact(items);
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'ERR_CONFLICT')) throw err;
    // the kept contact changed meanwhile (a message taught it something): merge into what it is now
    const now = await batchGet([contactKeys(companyId, keep.id), contactKeys(companyId, other.id)], {
      consistent: true,
    });
    const k = now.find((i) => i.sk === contactKeys(companyId, keep.id).sk);
    const o = now.find((i) => i.sk === contactKeys(companyId, other.id).sk);
    if (!k) throw new AppError('ERR_NO_CONTACT_FOUND');
    if (!o) return; // finished by a concurrent run
    const again = mergedContact(toContact(k), toContact(o));
    await finish(companyId, toContact(k), toContact(o), again, again.extraInfo.length - toContact(k).extraInfo.length);
  }
}
