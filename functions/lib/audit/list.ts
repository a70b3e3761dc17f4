import { AUDIT_MAX_RANGE_DAYS, type AuditActionName, type AuditPage, type AuditRow } from '#shared/schemas/audit';
import type { AuditQuery } from '#shared/schemas/audit';
import { addDays, localDay, nextLocalDayStart } from '#shared/dates';
import { decodeCursor, encodeCursor } from '../cursor';
import { query, stripKeys, type Item, type QueryOptions } from '../db';
import { AppError } from '../errors';
import { auditDayPartition, auditPartition, type AuditAction } from './record';

/**
 * The read side of the audit trail (`GET /audit`), newest first, paged by signed cursor:
 * - one company's trail: one Query on `C#<cid>#AUDIT`, the day range as a sort-key condition;
 * - every company's (super user): the gsi1 day partitions `AUDIT#<UTC day>`, newest day first, at most
 *   AUDIT_MAX_RANGE_DAYS São Paulo days per request, the cursor holding the day and the key within it.
 * Action and actor are filters on the same Query; each request reads a bounded number of pages, so a
 * rare filter answers a short page with a cursor rather than reading the whole trail at once.
 */

/** The actions the API lists are the ones recorded: this fails to compile when the lists differ. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type AuditActionsInSync = Assert<Same<AuditAction, AuditActionName>>;

const DEFAULT_LIMIT = 50;
/** items DynamoDB evaluates per read (before the action/actor filter) */
const READ_SIZE = 100;
const COMPANY_READS = 10;
/** one read per day at least, plus some for filtered days */
const PLATFORM_READS = AUDIT_MAX_RANGE_DAYS + 10;
const DAY_MS = 24 * 3600 * 1000;

const shiftDay = (day: string, days: number) => addDays(`${day}T12:00:00.000Z`, days).slice(0, 10);
/** The instant a São Paulo day starts: the local midnight after noon UTC of the day before. */
const dayStart = (day: string) =>
  new Date(nextLocalDayStart(Date.parse(`${day}T12:00:00.000Z`) - DAY_MS)).toISOString();
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

interface Range {
  start?: string;
  /** exclusive */
  end?: string;
}

const rangeOf = (q: Pick<AuditQuery, 'from' | 'to'>): Range => ({
  start: q.from ? dayStart(q.from) : undefined,
  end: q.to ? dayStart(shiftDay(q.to, 1)) : undefined,
});

/**
 * The platform-wide range: the days asked for, at most AUDIT_MAX_RANGE_DAYS (a longer one is
 * ERR_VALIDATION); without `to` it ends today (or AUDIT_MAX_RANGE_DAYS after `from`), without `from`
 * it starts AUDIT_MAX_RANGE_DAYS - 1 days before `to`.
 */
function platformRange(q: Pick<AuditQuery, 'from' | 'to'>, now = Date.now()): Required<Range> {
  const today = localDay(now);
  const earliest = (a: string, b: string) => (a < b ? a : b);
  const to = q.to ?? (q.from ? earliest(shiftDay(q.from, AUDIT_MAX_RANGE_DAYS - 1), today) : today);
  const from = q.from ?? shiftDay(to, -(AUDIT_MAX_RANGE_DAYS - 1));
  if (daysBetween(from, to) >= AUDIT_MAX_RANGE_DAYS)
    throw new AppError('ERR_VALIDATION', 400, [{ path: ['from'], message: 'long' }]);
  const range = rangeOf({ from, to });
  return { start: range.start!, end: range.end! };
}

/**
 * `onlyAbout`: the viewer's own company; entries about another one (a company created, edited or
 * deleted from the platform's trail, with its document, address and e-mail) are left out.
 */
function filterOf(q: Pick<AuditQuery, 'action' | 'actorId'>, onlyAbout?: number): Partial<QueryOptions> {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (onlyAbout !== undefined) {
    parts.push('NOT (#target.#type = :company AND #target.#id <> :own)');
    Object.assign(names, { '#target': 'target', '#type': 'type', '#id': 'id' });
    Object.assign(values, { ':company': 'company', ':own': onlyAbout });
  }
  if (q.action) {
    parts.push('#action = :action');
    names['#action'] = 'action';
    values[':action'] = q.action;
  }
  if (q.actorId) {
    parts.push('#actor = :actor');
    names['#actor'] = 'actorId';
    values[':actor'] = q.actorId;
  }
  return parts.length ? { filter: parts.join(' AND '), filterNames: names, filterValues: values } : {};
}

const toRow = (item: Item) => stripKeys(item) as unknown as AuditRow;

/**
 * Reads matching items from `startKey` until `want` are found, the partition ends or `reads` run
 * out. `next` is where the following page starts: the key of the last item taken when a read found
 * more than needed, else DynamoDB's last evaluated key (undefined once the partition is read).
 */
async function collect(opts: QueryOptions, startKey: Item | undefined, want: number, reads: number) {
  const items: Item[] = [];
  let next = startKey;
  let used = 0;
  while (items.length < want && used < reads) {
    const page = await query({ ...opts, startKey: next, limit: READ_SIZE });
    used++;
    const room = want - items.length;
    if (page.items.length > room) {
      items.push(...page.items.slice(0, room));
      const last = items[items.length - 1]!;
      next = opts.index
        ? { pk: last.pk, sk: last.sk, gsi1pk: last.gsi1pk, gsi1sk: last.gsi1sk }
        : { pk: last.pk, sk: last.sk };
      return { items, next, used };
    }
    items.push(...page.items);
    next = page.lastKey;
    if (!next) break;
  }
  return { items, next, used };
}

const filterScope = (q: AuditQuery) => [q.action ?? '', q.actorId ?? 0];

/**
 * One company's trail (`companyId`), read by `viewerCompanyId` (whose cursor it is). Only the super
 * user (`everything`) sees the entries about other companies that the platform's trail holds.
 */
export async function listCompanyAudit(
  viewerCompanyId: number,
  companyId: number,
  q: AuditQuery,
  opts: { everything: boolean },
): Promise<AuditPage> {
  const { start, end } = rangeOf(q);
  const onlyAbout = opts.everything ? undefined : companyId;
  const read: QueryOptions = {
    pk: auditPartition(companyId),
    sk: start || end ? { between: [`A#${start ?? ''}`, `A#${end ?? '~'}`] } : { beginsWith: 'A#' },
    forward: false,
    ...filterOf(q, onlyAbout),
  };
  const scope = JSON.stringify(['audit', read.pk, read.sk, onlyAbout ?? 'all', ...filterScope(q)]);
  const startKey = await decodeCursor(viewerCompanyId, q.cursor, scope);
  const { items, next } = await collect(read, startKey, q.limit ?? DEFAULT_LIMIT, COMPANY_READS);
  return {
    entries: items.map(toRow),
    hasMore: Boolean(next),
    cursor: await encodeCursor(viewerCompanyId, next, scope),
  };
}

/** The UTC days whose index partitions hold [start, end), newest first. */
function utcDaysOf(range: Required<Range>): string[] {
  const days: string[] = [];
  const first = range.start.slice(0, 10);
  for (let day = new Date(Date.parse(range.end) - 1).toISOString().slice(0, 10); day >= first; day = shiftDay(day, -1))
    days.push(day);
  return days;
}

interface PlatformCursor {
  /** the range the first page resolved (so "today" does not move under a user paging past midnight) */
  s: string;
  e: string;
  /** the UTC day partition to continue in, and the key within it (none: from its newest item) */
  d: string;
  k?: Item;
}

/** Every company's trail within a day range (super users). */
export async function listPlatformAudit(viewerCompanyId: number, q: AuditQuery): Promise<AuditPage> {
  const scope = JSON.stringify(['audit-all', q.from ?? '', q.to ?? '', ...filterScope(q)]);
  const resumed = (await decodeCursor(viewerCompanyId, q.cursor, scope)) as PlatformCursor | undefined;
  const range = resumed ? { start: resumed.s, end: resumed.e } : platformRange(q);
  const days = utcDaysOf(range);
  let index = resumed ? days.indexOf(resumed.d) : 0;
  if (index < 0) throw new AppError('ERR_INVALID_CURSOR');
  let startKey = resumed?.k;
  const want = q.limit ?? DEFAULT_LIMIT;
  const rows: Item[] = [];
  let reads = PLATFORM_READS;
  let next: PlatformCursor | undefined;
  while (index < days.length) {
    const day = days[index]!;
    const opts: QueryOptions = {
      index: 'gsi1',
      pk: auditDayPartition(day),
      sk: { between: [range.start, range.end] },
      forward: false,
      ...filterOf(q),
    };
    const found = await collect(opts, startKey, want - rows.length, reads);
    rows.push(...found.items);
    reads -= found.used;
    if (found.next) {
      next = { s: range.start, e: range.end, d: day, k: found.next };
      break;
    }
    index++;
    startKey = undefined;
    if (index < days.length && (rows.length >= want || reads <= 0)) {
      next = { s: range.start, e: range.end, d: days[index]! };
      break;
    }
  }
  return {
    entries: rows.map(toRow),
    hasMore: Boolean(next),
    cursor: await encodeCursor(viewerCompanyId, next as Item | undefined, scope),
  };
}
