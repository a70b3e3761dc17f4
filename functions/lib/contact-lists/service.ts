import * as XLSX from '@e965/xlsx';
import { PAGE_SIZE } from '#shared/constants';
import {
  CONTACT_LIST_IMPORT_MAX_ROWS,
  CONTACT_LIST_SAMPLE_COLUMNS,
  itemEmail,
  itemNumber,
  type ContactList,
  type ContactListDetail,
  type ContactListImportResult,
  type ContactListItem,
} from '#shared/schemas/contact-lists';
import { name2to50 } from '#shared/schemas/common';
import { AppError } from '../errors';
import {
  batchGet,
  batchWrite,
  deleteTx,
  putTx,
  query,
  queryAll,
  transact,
  updateItem,
  updateTx,
  type Key,
  type TransactItem,
} from '../db';
import { decodeCursor, page } from '../cursor';
import { companyScope, nextId } from '../ids';
import { nowIso } from '../keys';
import { chunked, eachLimit } from '../each-limit';
import { publish } from '../realtime';
import { presignGet, putObject, tenantPrefix } from '../storage';
import type { UploadedFile } from '../multipart';
import {
  contactListItemItem,
  itemKeys,
  ITEM_PREFIX,
  itemsPk,
  listItem,
  listKeys,
  requireContactList,
  requireContactListItem,
  searchTextOf,
  toContactList,
  toContactListItem,
} from './repo';
import { listNumberChecks, requestNumberChecks } from './checks';
import { auditBy, type AuditActor } from '../audit/actor';

export async function createContactList(companyId: number, body: { name: string }): Promise<ContactList> {
  const id = await nextId(companyScope(companyId), 'contactList');
  const now = nowIso();
  const list: ContactList = { id, companyId, name: body.name, contactsCount: 0, createdAt: now, updatedAt: now };
  await transact([putTx(listItem(list), true)]);
  await publish(companyId, 'contactList', { action: 'create', record: list });
  return list;
}

export async function updateContactList(companyId: number, id: number, body: { name: string }) {
  const updated = await updateItem(listKeys(companyId, id), {
    set: { name: body.name, nameLower: body.name.toLowerCase(), updatedAt: nowIso() },
    condition: 'attribute_exists(pk)',
  });
  if (!updated) throw new AppError('ERR_NOT_FOUND');
  const list = toContactList(updated);
  await publish(companyId, 'contactList', { action: 'update', record: list });
  return list;
}

/** Deletes the list with its items and number guards (campaigns that named it keep their plan). */
export async function deleteContactList(companyId: number, id: number) {
  await requireContactList(companyId, id);
  const keys = await queryAll<Key>({ pk: itemsPk(companyId, id), projection: ['pk', 'sk'] });
  await batchWrite([], keys);
  await transact([deleteTx(listKeys(companyId, id))]);
  await publish(companyId, 'contactList', { action: 'delete', id });
}

/** GET /contact-lists: search by name, cursor paging; one Query on the company's list range. */
export async function listContactLists(
  companyId: number,
  f: { searchParam?: string; cursor?: string; limit?: number },
) {
  const where = { pk: `C#${companyId}`, sk: { beginsWith: 'CONTACTLIST#' } };
  const out = await query({
    ...where,
    limit: f.limit ?? PAGE_SIZE,
    startKey: await decodeCursor(companyId, f.cursor, where),
    ...(f.searchParam
      ? { filter: 'contains(#n, :q)', filterNames: { '#n': 'nameLower' }, filterValues: { ':q': f.searchParam } }
      : {}),
  });
  const paged = await page(companyId, out.items.map(toContactList), out.lastKey, where);
  return { records: paged.items, hasMore: paged.hasMore, cursor: paged.cursor };
}

/** GET /contact-lists/{id}: the list, and how many numbers its checks may still ask today. */
export async function contactListDetail(companyId: number, id: number): Promise<ContactListDetail> {
  const [list, numberChecks] = await Promise.all([requireContactList(companyId, id), listNumberChecks(companyId)]);
  return { ...list, numberChecks };
}

export async function allContactLists(companyId: number): Promise<ContactList[]> {
  const items = await queryAll({ pk: `C#${companyId}`, sk: { beginsWith: 'CONTACTLIST#' } });
  return items.map(toContactList).sort((a, b) => a.name.localeCompare(b.name));
}

/** GET /contact-list-items: a list's items, searched by name, number or e-mail, paged by cursor. */
export async function listContactListItems(
  companyId: number,
  f: { contactListId: number; searchParam?: string; cursor?: string; limit?: number },
) {
  await requireContactList(companyId, f.contactListId);
  const where = { pk: itemsPk(companyId, f.contactListId), sk: { beginsWith: ITEM_PREFIX } };
  const out = await query({
    ...where,
    limit: f.limit ?? PAGE_SIZE,
    startKey: await decodeCursor(companyId, f.cursor, where),
    ...(f.searchParam
      ? { filter: 'contains(#s, :q)', filterNames: { '#s': 'searchText' }, filterValues: { ':q': f.searchParam } }
      : {}),
  });
  const paged = await page(companyId, out.items.map(toContactListItem), out.lastKey, where);
  return { contacts: paged.items, hasMore: paged.hasMore, cursor: paged.cursor };
}

const duplicated = () => new AppError('ERR_DUPLICATED_CONTACT');
const countTx = (companyId: number, listId: number, delta: number) =>
  updateTx(listKeys(companyId, listId), {
    add: { contactsCount: delta },
    set: { updatedAt: nowIso() },
    condition: 'attribute_exists(pk)',
  });

async function announceCount(companyId: number, listId: number) {
  const list = await requireContactList(companyId, listId).catch(() => undefined);
  if (list) await publish(companyId, 'contactList', { action: 'update', record: list });
}

/** POST /contact-list-items: one item per number in a list (ERR_DUPLICATED_CONTACT). */
export async function createContactListItem(
  companyId: number,
  body: { name: string; number: string; email: string; contactListId: number },
): Promise<ContactListItem> {
  await requireContactList(companyId, body.contactListId);
  const id = await nextId(companyScope(companyId), 'contactListItem');
  const now = nowIso();
  const item: ContactListItem = {
    id,
    companyId,
    contactListId: body.contactListId,
    name: body.name,
    number: body.number,
    email: body.email,
    isWhatsappValid: null,
    createdAt: now,
    updatedAt: now,
  };
  await transact([putTx(contactListItemItem(item), true), countTx(companyId, item.contactListId, 1)], (i) =>
    i === 0 ? duplicated() : new AppError('ERR_NOT_FOUND'),
  );
  await publish(companyId, 'contactListItem', { action: 'create', record: item });
  await announceCount(companyId, item.contactListId);
  await requestNumberChecks(companyId, [item]);
  return item;
}

/** PUT /contact-list-items/{id}: a number change moves the guard and asks for a new check. */
export async function updateContactListItem(
  companyId: number,
  id: number,
  body: { name?: string; number?: string; email?: string },
): Promise<ContactListItem> {
  const before = await requireContactListItem(companyId, id);
  const numberChanged = body.number !== undefined && body.number !== before.number;
  const after: ContactListItem = {
    ...before,
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.number !== undefined ? { number: body.number } : {}),
    ...(body.email !== undefined ? { email: body.email } : {}),
    ...(numberChanged ? { isWhatsappValid: null } : {}),
    updatedAt: nowIso(),
  };
  const listId = before.contactListId;
  // a number change moves the item to its new key (taken: ERR_DUPLICATED_CONTACT)
  await transact(
    numberChanged
      ? [
          putTx(contactListItemItem(after), true),
          deleteTx(itemKeys(companyId, listId, before.number), 'attribute_exists(pk)'),
        ]
      : [
          updateTx(itemKeys(companyId, listId, before.number), {
            set: { name: after.name, email: after.email, searchText: searchTextOf(after), updatedAt: after.updatedAt },
            condition: 'attribute_exists(pk)',
          }),
        ],
    (i) => (numberChanged && i === 0 ? duplicated() : new AppError('ERR_NOT_FOUND')),
  );
  await publish(companyId, 'contactListItem', { action: 'update', record: after });
  if (numberChanged) await requestNumberChecks(companyId, [after]);
  return after;
}

export async function deleteContactListItem(companyId: number, id: number) {
  const item = await requireContactListItem(companyId, id);
  await transact([
    deleteTx(itemKeys(companyId, item.contactListId, item.number), 'attribute_exists(pk)'),
    countTx(companyId, item.contactListId, -1),
  ]);
  await publish(companyId, 'contactListItem', { action: 'delete', id, contactListId: item.contactListId });
  await announceCount(companyId, item.contactListId);
}

/** Writes run this many batches at a time: 10,000 rows import well inside the API's time limit. */
const IMPORT_CONCURRENCY = 8;
const IMPORT_BATCH = 100;

/** The first sheet's rows as header -> value maps, with their spreadsheet line (the header is line 1). */
function readSheet(file: UploadedFile): { line: number; row: Record<string, unknown> }[] {
  const extension = file.fileName.split('.').pop()?.toLowerCase();
  if (extension !== 'xls' && extension !== 'xlsx')
    throw new AppError('ERR_UPLOAD_TYPE_NOT_ALLOWED', 415, [{ path: ['file'], allowed: ['xls', 'xlsx'] }]);
  let book: XLSX.WorkBook;
  try {
    book = XLSX.read(file.data, { type: 'buffer', dense: true });
  } catch {
    throw new AppError('ERR_VALIDATION', 400, [{ path: ['file'], message: 'invalid' }]);
  }
  const sheet = book.Sheets[book.SheetNames[0] ?? ''];
  if (!sheet) return [];
  const rows = XLSX.utils.sheet_to_json<Record<string, unknown>>(sheet, { defval: '', raw: false, blankrows: true });
  return rows.map((row, i) => ({ line: i + 2, row }));
}

const cell = (row: Record<string, unknown>, ...names: string[]) => {
  const key = Object.keys(row).find((k) => names.includes(k.trim().toLowerCase()));
  return key === undefined ? '' : String(row[key] ?? '').trim();
};

/**
 * POST /contact-lists/{id}/upload: each row of the first sheet (.xls or .xlsx) becomes an item, or
 * an error with its line (bad name, number or e-mail; a number repeated in the file or already in
 * the list). Ids come from one counter update; items and their number guards go in batch writes,
 * several at a time. Blank rows are skipped.
 */
export async function importContactList(
  companyId: number,
  listId: number,
  file: UploadedFile,
  by?: AuditActor,
): Promise<ContactListImportResult> {
  const list = await requireContactList(companyId, listId);
  const result = await importListRows(companyId, listId, file);
  await auditBy(by, {
    action: 'data.imported',
    target: { type: 'contactList', id: listId, name: list.name },
    changes: {
      source: 'spreadsheet',
      file: file.fileName.slice(0, 100),
      rows: result.total,
      created: result.created,
      refused: result.errors.length,
    },
  });
  return result;
}

async function importListRows(companyId: number, listId: number, file: UploadedFile): Promise<ContactListImportResult> {
  const rows = readSheet(file).filter(({ row }) => Object.values(row).some((v) => String(v ?? '').trim()));
  if (rows.length > CONTACT_LIST_IMPORT_MAX_ROWS)
    throw new AppError('ERR_VALIDATION', 400, [{ path: ['file'], message: 'long', max: CONTACT_LIST_IMPORT_MAX_ROWS }]);
  const result: ContactListImportResult = { total: rows.length, created: 0, errors: [] };
  const candidates: { line: number; name: string; number: string; email: string }[] = [];
  const inFile = new Set<string>();
  for (const { line, row } of rows) {
    const rawName = cell(row, 'name', 'nome');
    const rawNumber = cell(row, 'number', 'numero', 'número', 'phone', 'telefone', 'whatsapp');
    const refuse = (error: string) => result.errors.push({ line, name: rawName, number: rawNumber, error });
    const name = name2to50.safeParse(rawName);
    const number = itemNumber.safeParse(rawNumber);
    const email = itemEmail.safeParse(cell(row, 'email', 'e-mail'));
    if (!name.success) refuse(`name: ${name.error.issues[0]?.message}`);
    else if (!number.success) refuse(`number: ${number.error.issues[0]?.message}`);
    else if (!email.success) refuse(`email: ${email.error.issues[0]?.message}`);
    else if (inFile.has(number.data)) refuse('ERR_DUPLICATED_CONTACT');
    else {
      inFile.add(number.data);
      candidates.push({ line, name: name.data, number: number.data, email: email.data });
    }
  }
  const taken = new Set<string>();
  await eachLimit(chunked(candidates, 100), IMPORT_CONCURRENCY, async (chunk) => {
    const guards = await batchGet<{ sk: string }>(chunk.map((c) => itemKeys(companyId, listId, c.number)));
    for (const g of guards) taken.add(g.sk.slice(2));
  });
  const fresh = candidates.filter((c) => {
    if (!taken.has(c.number)) return true;
    result.errors.push({ line: c.line, name: c.name, number: c.number, error: 'ERR_DUPLICATED_CONTACT' });
    return false;
  });
  result.errors.sort((a, b) => a.line - b.line);
  if (!fresh.length) return result;
  const firstId = await nextId(companyScope(companyId), 'contactListItem', fresh.length);
  const now = nowIso();
  const items: ContactListItem[] = fresh.map((c, i) => ({
    id: firstId + i,
    companyId,
    contactListId: listId,
    name: c.name,
    number: c.number,
    email: c.email,
    isWhatsappValid: null,
    createdAt: now,
    updatedAt: now,
  }));
  await eachLimit(chunked(items, IMPORT_BATCH), IMPORT_CONCURRENCY, async (chunk) => {
    await batchWrite(chunk.map(contactListItemItem));
  });
  result.created = items.length;
  await transact([countTx(companyId, listId, items.length)]);
  await publish(companyId, 'contactListItem', { action: 'reload', contactListId: listId });
  await announceCount(companyId, listId);
  await requestNumberChecks(companyId, items);
  return result;
}

/** A spreadsheet with the columns the import reads and two example rows. */
export function sampleSpreadsheet(): Buffer {
  const sheet = XLSX.utils.aoa_to_sheet([
    [...CONTACT_LIST_SAMPLE_COLUMNS],
    ['Maria da Silva', '5511999998888', 'maria@example.com'],
    ['João Souza', '5521988887777', ''],
  ]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'contacts');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

/** GET /contact-lists/sample: the sample spreadsheet, stored under the company's prefix, as a short-lived download URL. */
export async function sampleDownload(companyId: number) {
  const fileName = 'contact-list-sample.xlsx';
  const key = `${tenantPrefix(companyId)}samples/${fileName}`;
  await putObject(key, sampleSpreadsheet(), 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  return { url: await presignGet(companyId, key), fileName };
}

/**
 * A contact merge: every list holding the merged contact's number holds the kept contact's number
 * instead (the item keeps its id, name and e-mail; a list that already has the kept number just
 * loses the other item). Lists are few per company: one Query for them, one BatchGet for the items.
 * Each move is one transaction with `extra()` (the merge record's count); a retry finds what is left.
 * Returns how many memberships moved.
 */
export async function moveListMemberships(
  companyId: number,
  fromNumber: string,
  toNumber: string,
  hooks: { extra?: (n: number) => TransactItem[]; onMoved?: (n: number) => void } = {},
): Promise<number> {
  if (!fromNumber || !toNumber || fromNumber === toNumber) return 0;
  const lists = await queryAll({ pk: `C#${companyId}`, sk: { beginsWith: 'CONTACTLIST#' }, projection: ['id'] });
  const keys = lists.map((l) => itemKeys(companyId, Number(l.id), fromNumber));
  const found = keys.length ? await batchGet(keys) : [];
  let moved = 0;
  for (const raw of found) {
    const before = toContactListItem(raw);
    const after: ContactListItem = { ...before, number: toNumber, isWhatsappValid: null, updatedAt: nowIso() };
    const remove = deleteTx(itemKeys(companyId, before.contactListId, fromNumber), 'attribute_exists(pk)');
    try {
      await transact([putTx(contactListItemItem(after), true), remove, ...(hooks.extra?.(1) ?? [])]);
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'ERR_CONFLICT')) throw err;
      // the list has the kept number already: the other item goes
      try {
        await transact([remove, countTx(companyId, before.contactListId, -1), ...(hooks.extra?.(1) ?? [])]);
      } catch (again) {
        if (again instanceof AppError && again.code === 'ERR_CONFLICT') continue;
        throw again;
      }
    }
    moved += 1;
    hooks.onMoved?.(1);
    await publish(companyId, 'contactListItem', { action: 'reload', contactListId: before.contactListId });
  }
  return moved;
}
