import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { Contact } from '#shared/schemas/contacts';
import { PAGE_SIZE } from '#shared/constants';
import { config } from '../config';
import { ddb, getItem, keyCondition, query, type QueryOptions, type Item } from '../db';
import { decodeCursor, encodeCursor, page } from '../cursor';
import { metrics } from '../metrics';
import { contactIndex, contactsUsageKeys, digitsOnly, normalizeText, toContact } from './repo';
import { auditBy, type AuditActor } from '../audit/actor';
import { loadFields } from '../custom-fields/repo';
import type { SegmentCondition } from '#shared/schemas/segments';
import { requireSegment } from '../segments/repo';
import { segmentContactsPage, type SegmentState } from '../segments/audience';
import { fieldCondition, fieldFilter } from '../custom-fields/filter';

export interface ContactsFilter {
  searchParam?: string;
  date?: string;
  dateStart?: string;
  dateEnd?: string;
  cursor?: string;
  limit?: number;
  /** the pages are read for a CSV export (its first page goes on the audit trail) */
  export?: boolean;
  /** a custom field's key, and the value it must hold (empty: any value) */
  field?: string;
  fieldValue?: string;
  /** the contacts of a segment */
  segmentId?: number;
}

/**
 * The custom-field condition of the list, a filter on its one Query (no Scan): the field must be a
 * contact field of the company (ERR_VALIDATION `field`) and the value fit its type (`fieldValue`). A
 * value still held only in a contact's extra info is matched once it moved into the field.
 */
async function withFieldFilter(companyId: number, opts: QueryOptions, f: ContactsFilter): Promise<QueryOptions> {
  const condition = await fieldCondition(companyId, 'contact', f.field, f.fieldValue);
  if (!condition) return opts;
  const { filter, names, values } = fieldFilter(condition);
  return {
    ...opts,
    filter: opts.filter ? `(${opts.filter}) AND ${filter}` : filter,
    filterNames: { ...opts.filterNames, ...names },
    filterValues: { ...opts.filterValues, ...values },
  };
}

const dayStart = (d: string) => (d.length === 10 ? `${d}T00:00:00.000Z` : new Date(d).toISOString());
const dayEnd = (d: string) => (d.length === 10 ? `${d}T23:59:59.999Z` : new Date(d).toISOString());

/**
 * The contacts page (one Query): name order on gsi1, a name-prefix search on gsi1, a number-prefix
 * search on gsi2, or the creation-date range on gsi3. `count` is the company's contact counter
 * (one GetItem) when unfiltered, or a COUNT query over the same key condition when filtered.
 */
function plan(companyId: number, f: ContactsFilter): QueryOptions {
  const term = f.searchParam?.trim() ?? '';
  const range = f.date
    ? [dayStart(f.date), dayEnd(f.date)]
    : f.dateStart || f.dateEnd
      ? [f.dateStart ? dayStart(f.dateStart) : '0', f.dateEnd ? dayEnd(f.dateEnd) : '9']
      : undefined;
  const rangeFilter = range
    ? {
        filter: '#created BETWEEN :from AND :to',
        filterNames: { '#created': 'createdAt' },
        filterValues: { ':from': range[0], ':to': range[1] },
      }
    : {};
  if (term && /^[\d\s()+-]+$/.test(term) && digitsOnly(term).length) {
    return {
      index: 'gsi2',
      pk: contactIndex.byNumber(companyId),
      sk: { beginsWith: digitsOnly(term) },
      ...rangeFilter,
    };
  }
  if (term)
    return {
      index: 'gsi1',
      pk: contactIndex.byName(companyId),
      sk: { beginsWith: normalizeText(term) },
      ...rangeFilter,
    };
  if (range)
    return {
      index: 'gsi3',
      pk: contactIndex.byDate(companyId),
      sk: { between: [range[0]!, `${range[1]}~`] },
      forward: false,
    };
  return { index: 'gsi1', pk: contactIndex.byName(companyId) };
}

async function countMatching(opts: QueryOptions): Promise<number> {
  let total = 0;
  let startKey: Item | undefined;
  const key = keyCondition(opts);
  const condition = key.condition;
  const names: Record<string, string> = { ...key.names, ...(opts.filterNames ?? {}) };
  const values: Record<string, unknown> = { ...key.values, ...(opts.filterValues ?? {}) };
  do {
    const out: QueryCommandOutput = await ddb().send(
      new QueryCommand({
        TableName: config().tableName,
        IndexName: opts.index,
        KeyConditionExpression: condition,
        FilterExpression: opts.filter,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        Select: 'COUNT',
        ExclusiveStartKey: startKey,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    metrics.record('QueryCommand', out.ConsumedCapacity);
    total += out.Count ?? 0;
    startKey = out.LastEvaluatedKey;
  } while (startKey);
  return total;
}

export async function listContacts(companyId: number, f: ContactsFilter, by?: AuditActor) {
  if (f.segmentId) return listSegmentContacts(companyId, f.segmentId, f, by);
  const opts = await withFieldFilter(companyId, plan(companyId, f), f);
  const filtered = Boolean(f.searchParam?.trim() || f.date || f.dateStart || f.dateEnd || f.field);
  const [out, count] = await Promise.all([
    query<Contact>({ ...opts, limit: f.limit ?? PAGE_SIZE, startKey: await decodeCursor(companyId, f.cursor, opts) }),
    filtered
      ? countMatching(opts)
      : getItem<{ value: number }>(contactsUsageKeys(companyId)).then((c) => c?.value ?? 0),
  ]);
  const paged = await page(companyId, out.items.map(toContact), out.lastKey, opts);
  // one entry per export: the export reads page after page, only the first has no cursor
  if (f.export && !f.cursor) {
    await auditBy(by, {
      action: 'data.exported',
      target: { type: 'contacts', id: 'all' },
      changes: {
        format: 'csv',
        contacts: count,
        ...(filtered
          ? { filter: { search: f.searchParam, date: f.date, from: f.dateStart, to: f.dateEnd, field: f.field } }
          : {}),
      },
    });
  }
  return { contacts: paged.items, hasMore: paged.hasMore, cursor: paged.cursor, count };
}

/** Contacts of a segment read by one request at most (segments/audience.ts): its cost, whatever the company's size. */
export const SEGMENT_LIST_BUDGET = 1000;

/**
 * GET /contacts?segmentId=: the segment's contacts (a foreign segment is ERR_NOT_FOUND), in name
 * order (or by tag, for a segment with a tag condition), with the list's other filters as more
 * conditions: the search (a name that holds the words, or a number that starts with the digits), a
 * field's value, the creation dates. A page may be short, even empty, while `hasMore`: the reading
 * stops after SEGMENT_LIST_BUDGET contacts. No `count` (it would read the whole segment).
 */
async function listSegmentContacts(companyId: number, segmentId: number, f: ContactsFilter, by?: AuditActor) {
  const segment = await requireSegment(companyId, segmentId);
  const scope = `contacts:segment:${segmentId}`;
  const state = (await decodeCursor(companyId, f.cursor, scope)) as SegmentState | undefined;
  const fields = await loadFields(companyId);
  const extra: SegmentCondition[] = [];
  const term = f.searchParam?.trim() ?? '';
  if (term && /^[\d\s()+-]+$/.test(term) && digitsOnly(term).length)
    extra.push({ type: 'number', op: 'starts_with', value: digitsOnly(term) });
  else if (term) extra.push({ type: 'name', op: 'contains', value: term });
  // the list's field filter, checked as the list checks it (custom-fields/filter.ts)
  const asked = await fieldCondition(companyId, 'contact', f.field, f.fieldValue);
  if (asked)
    extra.push(
      asked.value !== undefined
        ? { type: 'field', key: asked.key, op: 'eq', value: asked.value }
        : { type: 'field', key: asked.key, op: 'not_empty' },
    );
  const range = f.date
    ? [dayStart(f.date), dayEnd(f.date)]
    : f.dateStart || f.dateEnd
      ? [f.dateStart ? dayStart(f.dateStart) : '0', f.dateEnd ? dayEnd(f.dateEnd) : '9']
      : undefined;
  const { contacts, next } = await segmentContactsPage(
    companyId,
    { ...segment, conditions: [...segment.conditions, ...extra] },
    fields,
    state,
    {
      limit: f.limit ?? PAGE_SIZE,
      budget: SEGMENT_LIST_BUDGET,
      also: range ? (c) => c.createdAt >= range[0]! && c.createdAt <= range[1]! : undefined,
    },
  );
  const cursor = next ? await encodeCursor(companyId, next as Item, scope) : undefined;
  if (f.export && !f.cursor)
    await auditBy(by, {
      action: 'data.exported',
      target: { type: 'contacts', id: 'all' },
      changes: { format: 'csv', filter: { segment: segment.name, search: f.searchParam, field: f.field } },
    });
  return { contacts, hasMore: Boolean(next), cursor };
}

/** GET /contacts/list: id, name and number for pickers, name order (optionally by name prefix), one Query. */
export async function contactOptions(companyId: number, searchParam?: string) {
  const term = searchParam ? normalizeText(searchParam) : '';
  const out = await query({
    index: 'gsi1',
    pk: contactIndex.byName(companyId),
    ...(term ? { sk: { beginsWith: term } } : {}),
    limit: 1000,
    projection: ['id', 'name', 'number', 'email', 'profilePicUrl', 'isGroup'],
  });
  return out.items;
}
