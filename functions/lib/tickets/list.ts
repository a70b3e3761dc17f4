import type { Ticket, TicketsQuery } from '#shared/schemas/tickets';
import type { User } from '#shared/schemas/accounts';
import { can } from '#shared/permissions';
import { canSeeTicket } from '#shared/visibility';
import { PAGE_SIZE } from '#shared/constants';
import { batchGet, itemsOf, query, type Item } from '../db';
import { ticketsByWords } from '../search/service';
import { decodeCursor, encodeCursor } from '../cursor';
import { AppError } from '../errors';
import { contactIndex, digitsOnly, normalizeText } from '../contacts/repo';
import { indexKeyOf, ticketIndex, ticketKeys, toTicket } from './repo';
import { countKeys, listCount } from './counts';
import { forgetViewer, keepViewer, type Viewer } from './viewer';
import { getUser, toUser, userKeys } from '../accounts/users';
import { fieldCondition, fieldFilter, fieldMatches, type FieldCondition } from '../custom-fields/filter';

/**
 * GET /tickets. Each list reads the narrowest partition that holds exactly the visible tickets:
 * - "Open/assigned" (status open, no showAll) and the users filter: the attendant's partition (gsi3);
 * - a non-admin, or a queue filter: one partition per queue (gsi2), merged newest first; open
 *   tickets with an attendant are not in the queue partitions (repo.ts), so an open list by queue
 *   (a queue filter with "show all", the kanban) is the company's open partition filtered by queue;
 * - an admin without queue filter: the company's status partition (gsi1).
 * So the common screens are one Query; a non-admin with k queues costs k small Queries (each
 * limited to a page), never a filter over the whole company. Past MAX_PARTITIONS_PER_STATUS
 * partitions for one status (many queues or users), the status partition is read once with a filter
 * on those partitions instead, so no request fans out to dozens of Queries. Search reads the contact-name
 * prefix index (gsi4) - one Query - or, for digits, the contact-number index and those contacts'
 * tickets; its first page adds the tickets whose messages hold the words (the search port,
 * functions/lib/search); its cost does not depend on the number of tickets or messages.
 */
interface Stream {
  /** key in the cursor */
  id: string;
  index: 'gsi1' | 'gsi2' | 'gsi3';
  pk: string;
  /**
   * only items whose key on that index is one of these partitions (a collapsed set of streams), or
   * whose queue is one of `queueIds` (null: no queue); `pks` names the partitions for the badge
   */
  within?:
    | { attr: 'gsi2pk' | 'gsi3pk'; pks: string[] }
    | { attr: 'queueId'; pks: string[]; queueIds: (number | null)[] };
}

const MAX_PARTITIONS_PER_STATUS = 4;
/** DynamoDB allows at most 100 operands in one IN. */
const IN_OPERANDS = 100;

/** The streams of one status, collapsed into one filtered read of the status partition when they are many. */
function bounded(companyId: number, status: string, index: 'gsi2' | 'gsi3', parts: { id: string; pk: string }[]) {
  if (parts.length <= MAX_PARTITIONS_PER_STATUS) return parts.map((p): Stream => ({ ...p, index }));
  const within = { attr: `${index}pk` as const, pks: parts.map((p) => p.pk) };
  return [
    { id: `f${index}${status}`, index: 'gsi1', pk: ticketIndex.status(companyId, status), within } satisfies Stream,
  ];
}

export interface ListOptions {
  /** the kanban board: open and pending, open ones by queue rather than "assigned to me" */
  kanban?: boolean;
}

export function streamsFor(viewer: Viewer, q: TicketsQuery, companyId: number, opts: ListOptions): Stream[] {
  const admin = can(viewer.profile, 'tickets-manager:showall');
  const showAll = Boolean(q.showAll) && admin;
  // the notification bell (unread, no status) lists open and pending tickets only
  const statuses: readonly string[] = q.snoozed
    ? ['snoozed']
    : opts.kanban || (!q.status && q.withUnreadMessages)
      ? (['open', 'pending'] as const)
      : q.status
        ? [q.status]
        : (['open', 'pending', 'closed'] as const);
  const out: Stream[] = [];
  const users = q.users?.length ? (admin ? q.users : q.users.filter((u) => u === viewer.user.id)) : undefined;
  if (users) {
    for (const s of statuses)
      out.push(
        ...bounded(
          companyId,
          s,
          'gsi3',
          users.map((u) => ({ id: `u${u}${s}`, pk: ticketIndex.user(companyId, u, s) })),
        ),
      );
    return out;
  }
  for (const s of statuses) {
    const open = s === 'open' || s === 'snoozed';
    if (open && !showAll && !opts.kanban) {
      // "Assigned": the tickets the viewer is attending
      out.push({ id: `u${viewer.user.id}${s}`, index: 'gsi3', pk: ticketIndex.user(companyId, viewer.user.id, s) });
      continue;
    }
    if (admin && !q.queueIds?.length) {
      out.push({ id: `s${s}`, index: 'gsi1', pk: ticketIndex.status(companyId, s) });
      continue;
    }
    const own = admin
      ? (q.queueIds ?? [])
      : viewer.user.queueIds.filter((id) => !q.queueIds?.length || q.queueIds.includes(id));
    const queues: (number | null)[] = [...new Set(own)];
    const noQueue = admin || viewer.user.allTicket === 'enabled' || Boolean(viewer.user.showNoQueue);
    if (noQueue) queues.push(null);
    if (open) {
      if (!queues.length) continue;
      const pks = queues.map((queueId) => ticketIndex.queue(companyId, queueId, s));
      out.push({
        id: `fq${s}`,
        index: 'gsi1',
        pk: ticketIndex.status(companyId, s),
        within: { attr: 'queueId', pks, queueIds: queues },
      });
      continue;
    }
    out.push(
      ...bounded(
        companyId,
        s,
        'gsi2',
        queues.map((queueId) => ({ id: `q${queueId ?? 0}${s}`, pk: ticketIndex.queue(companyId, queueId, s) })),
      ),
    );
  }
  return out;
}

function filterFor(q: TicketsQuery, stream: Stream, field?: FieldCondition) {
  const parts: string[] = [];
  const values: Record<string, unknown> = {};
  const names: Record<string, string> = {};
  if (field) {
    const f = fieldFilter(field);
    parts.push(f.filter);
    Object.assign(names, f.names);
    Object.assign(values, f.values);
  }
  if (stream.within?.attr === 'queueId') {
    names['#queue'] = 'queueId';
    const ids = stream.within.queueIds.filter((id): id is number => id !== null);
    const any = ids.map((id, i) => {
      values[`:qid${i}`] = id;
      return `#queue = :qid${i}`;
    });
    if (stream.within.queueIds.includes(null)) {
      values[':nullType'] = 'NULL';
      any.push('attribute_type(#queue, :nullType)', 'attribute_not_exists(#queue)');
    }
    parts.push(`(${any.join(' OR ')})`);
  } else if (stream.within) {
    names['#within'] = stream.within.attr;
    const lists: string[] = [];
    stream.within.pks.forEach((pk, i) => {
      values[`:w${i}`] = pk;
      if (i % IN_OPERANDS === 0) lists.push('');
      lists[lists.length - 1] += `${i % IN_OPERANDS ? ', ' : ''}:w${i}`;
    });
    parts.push(`(${lists.map((l) => `#within IN (${l})`).join(' OR ')})`);
  }
  if (q.tags?.length) {
    names['#tagIds'] = 'tagIds';
    const anyTag = q.tags.map((t, i) => {
      values[`:t${i}`] = t;
      return `contains(#tagIds, :t${i})`;
    });
    parts.push(`(${anyTag.join(' OR ')})`);
  }
  if (q.withUnreadMessages) {
    names['#unread'] = 'unreadMessages';
    values[':zero'] = 0;
    parts.push('#unread > :zero');
  }
  if (q.date) {
    names['#createdAt'] = 'createdAt';
    values[':day'] = q.date.slice(0, 10);
    parts.push('begins_with(#createdAt, :day)');
  }
  return parts.length ? { filter: parts.join(' AND '), filterValues: values, filterNames: names } : {};
}

/** Reads one stream until it has `need` matching items (a filter may drop some), at most 4 rounds. */
async function readStream(
  stream: Stream,
  startKey: Item | undefined,
  need: number,
  q: TicketsQuery,
  field?: FieldCondition,
) {
  const filter = filterFor(q, stream, field);
  const items: Item[] = [];
  let key = startKey;
  for (let round = 0; round < 4; round++) {
    const out = await query({
      index: stream.index,
      pk: stream.pk,
      ...(q.updatedAt ? { sk: { beginsWith: q.updatedAt.slice(0, 10) } } : {}),
      forward: false,
      limit: filter.filter ? Math.max(need * 3, 50) : need,
      startKey: key,
      ...filter,
    });
    items.push(...out.items);
    key = out.lastKey;
    if (!key || items.length >= need) break;
  }
  return { items, lastKey: key };
}

/** The viewer with their user as read now, when it was a kept copy (search scopes by it before reading). */
async function asReadNow(companyId: number, viewer: Viewer): Promise<Viewer> {
  if (!viewer.recheck) return viewer;
  const user = await getUser(companyId, viewer.user.id);
  if (!user) {
    forgetViewer(companyId, viewer.user.id);
    throw new AppError('ERR_NO_USER_FOUND');
  }
  keepViewer(companyId, user);
  return { user, profile: viewer.profile };
}

/** What of a user decides which tickets they list and see (streamsFor, canSeeTicket). */
const scopeOf = (user: User) =>
  JSON.stringify([[...user.queueIds].sort((a, b) => a - b), user.allTicket, Boolean(user.showNoQueue)]);

/** The list cursor holds a start key per stream (by stream id), so it is scoped to the list, not a partition. */
type CursorState = Record<string, Item | 'done'>;
const LIST_SCOPE = 'tickets:streams';

/**
 * `field`/`fieldValue` (a ticket custom field, issue 40) is one more filter on each stream's Query, like
 * tags: it costs one Query of the definitions partition, and a stream reads up to 4 rounds of
 * max(3 x page, 50) items to fill a page, so a rare value may give a short page with `hasMore`.
 */
export async function listTickets(companyId: number, viewer: Viewer, q: TicketsQuery, opts: ListOptions = {}) {
  const field = await fieldCondition(companyId, 'ticket', q.field, q.fieldValue);
  if (q.searchParam?.trim().length && !opts.kanban)
    return searchTickets(companyId, await asReadNow(companyId, viewer), q, field);
  const limit = q.limit ?? PAGE_SIZE;
  const streams = streamsFor(viewer, q, companyId, opts);
  const state: CursorState = ((await decodeCursor(companyId, q.cursor, LIST_SCOPE)) as CursorState | undefined) ?? {};
  const live = streams.filter((s) => state[s.id] !== 'done');
  // the badge: first page only, and only when the partitions hold exactly the list (no filters)
  const unfiltered = !q.cursor && !q.tags?.length && !q.withUnreadMessages && !q.date && !q.updatedAt && !field;
  const partitions = streams.flatMap((s) => s.within?.pks ?? [s.pk]).map((pk) => pk.slice(`C#${companyId}#`.length));
  const counted = unfiltered && partitions.length > 0;
  // beside the partitions: one BatchGet of the count item and, for a viewer planned on a kept copy, the user
  const recheck = viewer.recheck ? userKeys(companyId, viewer.user.id) : undefined;
  const sideKeys = [...(counted ? [countKeys(companyId)] : []), ...(recheck ? [recheck] : [])];
  const [reads, side] = await Promise.all([
    Promise.all(live.map((s) => readStream(s, state[s.id] as Item | undefined, limit + 1, q, field))),
    sideKeys.length ? batchGet(sideKeys) : Promise.resolve([]),
  ]);
  const found = (key: { pk: string; sk: string }) => side.find((i) => i.pk === key.pk && i.sk === key.sk);
  if (recheck) {
    const item = found(recheck);
    if (!item) {
      forgetViewer(companyId, viewer.user.id);
      throw new AppError('ERR_NO_USER_FOUND');
    }
    const user = toUser(item);
    keepViewer(companyId, user);
    // planned on a copy whose queues or rights have changed since: planned again on the user as read now
    if (scopeOf(user) !== scopeOf(viewer.user))
      return listTickets(companyId, { user, profile: viewer.profile }, q, opts);
    viewer = { user, profile: viewer.profile };
  }
  const tagged = reads.flatMap((r, i) => r.items.map((item) => ({ item, stream: live[i]! })));
  // newest first across streams: the index sort keys are `<updatedAt>#<pad(id)>` on every stream
  tagged.sort((a, b) => (a.item[`${a.stream.index}sk`] < b.item[`${b.stream.index}sk`] ? 1 : -1));
  const pageItems = tagged.slice(0, limit);
  const next: CursorState = { ...state };
  live.forEach((s, i) => {
    const read = reads[i]!;
    const consumed = pageItems.filter((p) => p.stream === s);
    if (consumed.length === read.items.length) next[s.id] = read.lastKey ?? 'done';
    else if (consumed.length) next[s.id] = indexKeyOf(consumed[consumed.length - 1]!.item, s.index);
  });
  const hasMore = streams.some((s) => next[s.id] !== 'done');
  const tickets = pageItems
    .map((p) => toTicket(p.item))
    .filter((t) => canSeeTicket({ ...viewer.user, userId: viewer.user.id, profile: viewer.profile }, t));
  const count = unfiltered ? listCount(counted ? found(countKeys(companyId)) : undefined, partitions) : undefined;
  return {
    tickets,
    hasMore,
    cursor: hasMore ? await encodeCursor(companyId, next, LIST_SCOPE) : undefined,
    ...(count !== undefined ? { count } : {}),
  };
}

const MAX_NUMBER_CONTACTS = 10;

/**
 * Search (attendance.md 2.4): by contact-name prefix (accents and case ignored), or by number
 * prefix when the term is digits. Status, queue, tag, user and custom-field filters apply to the results.
 */
async function searchTickets(companyId: number, viewer: Viewer, q: TicketsQuery, field?: FieldCondition) {
  const limit = q.limit ?? PAGE_SIZE;
  const term = q.searchParam!.trim();
  const digits = digitsOnly(term);
  const visible = (t: Ticket) =>
    canSeeTicket({ ...viewer.user, userId: viewer.user.id, profile: viewer.profile }, t) &&
    (!q.status || t.status === q.status) &&
    (!q.queueIds?.length || t.queueId === null || q.queueIds.includes(t.queueId)) &&
    (!q.users?.length || (t.userId !== null && q.users.includes(t.userId))) &&
    (!q.tags?.length || t.tags.some((tag) => q.tags!.includes(tag.id))) &&
    (!q.withUnreadMessages || t.unreadMessages > 0) &&
    (!field || fieldMatches(field, t.customFields)) &&
    (q.snoozed === undefined || Boolean(t.snooze) === q.snoozed);

  // the first page also holds the tickets whose messages or notes have the words (the search index)
  const withWordMatches = async (found: Ticket[]) => {
    const ids = (await ticketsByWords(companyId, viewer, term, limit)).filter((id) => !found.some((t) => t.id === id));
    const more = ids.length
      ? (await batchGet(ids.map((id) => ticketKeys(companyId, id)))).map(toTicket).filter(visible)
      : [];
    more.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
    return [...found, ...more];
  };

  if (digits.length >= 3 && digits.length === term.replace(/[\s()+-]/g, '').length) {
    const contacts = await query({
      index: 'gsi2',
      pk: contactIndex.byNumber(companyId),
      sk: { beginsWith: digits },
      limit: MAX_NUMBER_CONTACTS,
      projection: ['id'],
    });
    const lists = await Promise.all(
      contacts.items.map((c) =>
        query({ index: 'gsi5', pk: ticketIndex.contact(companyId, c.id), forward: false, limit }),
      ),
    );
    const tickets = (await itemsOf(lists.flatMap((l) => l.items)))
      .map(toTicket)
      .filter(visible)
      .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : -1))
      .slice(0, limit);
    return { tickets: await withWordMatches(tickets), hasMore: false, cursor: undefined };
  }

  const prefix = normalizeText(term);
  if (!prefix) throw new AppError('ERR_VALIDATION', 400, [{ path: ['searchParam'], message: 'short' }]);
  const where = { index: 'gsi4', pk: ticketIndex.name(companyId), sk: { beginsWith: prefix } };
  const out = await query({ ...where, limit, startKey: await decodeCursor(companyId, q.cursor, where) });
  const tickets = (await itemsOf(out.items)).map(toTicket).filter(visible);
  return {
    tickets: q.cursor ? tickets : await withWordMatches(tickets),
    hasMore: Boolean(out.lastKey),
    cursor: await encodeCursor(companyId, out.lastKey, where),
  };
}
