import { randomUUID } from 'node:crypto';
import type { Contact, ContactBody, ContactUpdateBody, ContactUploadResult } from '#shared/schemas/contacts';
import { contactName, contactNumber } from '#shared/schemas/contacts';
import { AppError } from '../errors';
import { batchGet, deleteTx, putIfTx, putTx, transact, updateItem, type TransactItem } from '../db';
import { companyScope, counterTx, nextId } from '../ids';
import { nowIso } from '../keys';
import { chunked, eachLimit } from '../each-limit';
import { publish } from '../realtime';
import { bumpDay, dayOf } from '../dashboard/aggregates';
import {
  CONTACTS_USAGE,
  contactItem,
  contactsUsageKeys,
  contactKeys,
  digitsOnly,
  findContactByLid,
  findContactByNumber,
  jidUser,
  lidGuardKeys,
  numberGuardKeys,
  requireContact,
} from './repo';
import { refreshTicketContact } from '../tickets/service';
import { auditBy, type AuditActor } from '../audit/actor';
import { mergeContacts } from './merge';
import { loadFields } from '../custom-fields/repo';
import { changedValues, contactFieldsAfter } from '../custom-fields/values';
import { rowFieldValues, type CustomField, type CustomFieldValues } from '#shared/schemas/custom-fields';

export type { Contact };

function newContact(
  companyId: number,
  id: number,
  fields: Partial<Contact> & { name: string; number: string },
): Contact {
  const now = nowIso();
  return {
    id,
    uuid: randomUUID(),
    companyId,
    name: fields.name,
    number: fields.number,
    ...(fields.lid ? { lid: fields.lid } : {}),
    email: fields.email ?? '',
    profilePicUrl: fields.profilePicUrl ?? '',
    isGroup: fields.isGroup ?? false,
    extraInfo: fields.extraInfo ?? [],
    ...(fields.customFields && Object.keys(fields.customFields).length ? { customFields: fields.customFields } : {}),
    whatsappId: fields.whatsappId ?? null,
    createdAt: now,
    updatedAt: now,
  };
}

/** A contact's writes: its guards (number, lid) and the contact, each only if new. */
const contactPuts = (contact: Contact): TransactItem[] => [
  ...(contact.number
    ? [putTx({ ...numberGuardKeys(contact.companyId, contact.number), contactId: contact.id }, true)]
    : []),
  ...(contact.lid ? [putTx({ ...lidGuardKeys(contact.companyId, contact.lid), contactId: contact.id }, true)] : []),
  putTx(contactItem(contact), true),
];

/**
 * Inserts a contact with its guards and the usage counter in one transaction. A guard that exists is
 * ERR_DUPLICATED_CONTACT (the caller may instead re-read the winner).
 */
async function insertContact(contact: Contact) {
  await transact(
    [...contactPuts(contact), counterTx(companyScope(contact.companyId), CONTACTS_USAGE, 1)],
    () => new AppError('ERR_DUPLICATED_CONTACT'),
  );
  await bumpDay(contact.companyId, dayOf(contact.createdAt), { newContacts: 1 });
  await publish(contact.companyId, 'contact', { action: 'create', contact });
}

/** POST /contacts: a second contact with the same number in a company is ERR_DUPLICATED_CONTACT. */
export async function createContact(companyId: number, body: ContactBody): Promise<Contact> {
  const customFields = body.customFields
    ? changedValues(await loadFields(companyId), 'contact', {}, body.customFields)
    : undefined;
  const id = await nextId(companyScope(companyId), 'contact');
  const contact = newContact(companyId, id, { ...body, email: body.email ?? '', customFields });
  await insertContact(contact);
  return contact;
}

type ContactChanges = Omit<ContactUpdateBody, 'customFields'> & {
  profilePicUrl?: string;
  lid?: string;
  lidPn?: string;
  /** the custom fields it sets (null clears one), checked by their definitions */
  customFields?: Record<string, unknown>;
};

/**
 * PUT /contacts/{id}: a number change moves the guard in the same transaction. The contact is
 * replaced only if nobody wrote it since it was read (its `updatedAt`), else read again: two
 * messages teaching different things at once (a lid, a name) both stay.
 */
export async function updateContact(companyId: number, id: number, changes: ContactChanges): Promise<Contact> {
  // the definitions are read once, whatever the retries
  const fields = changes.customFields ? await loadFields(companyId) : undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      return await updateContactOnce(companyId, id, changes, fields);
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'ERR_CONFLICT') || attempt >= 4) throw err;
    }
  }
}

async function updateContactOnce(
  companyId: number,
  id: number,
  { customFields, ...changes }: ContactChanges,
  fields: CustomField[] | undefined,
): Promise<Contact> {
  const before = await requireContact(companyId, id);
  const after: Contact = {
    ...before,
    ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
    updatedAt: nowIso(),
  } as Contact;
  // extra info a field claims moves into the fields with this change (custom-fields/values.ts)
  if (customFields && fields) Object.assign(after, contactFieldsAfter(fields, after, customFields));
  const items: TransactItem[] = [putIfTx(contactItem(after), 'updatedAt', before.updatedAt)];
  if (after.number !== before.number) {
    if (after.number) items.push(putTx({ ...numberGuardKeys(companyId, after.number), contactId: id }, true));
    if (before.number) items.push(deleteTx(numberGuardKeys(companyId, before.number)));
  }
  if (after.lid && after.lid !== before.lid) {
    items.push(putTx({ ...lidGuardKeys(companyId, after.lid), contactId: id }, true));
    if (before.lid) items.push(deleteTx(lidGuardKeys(companyId, before.lid)));
  }
  await transact(items, (index) => new AppError(index === 0 ? 'ERR_CONFLICT' : 'ERR_DUPLICATED_CONTACT'));
  if (after.name !== before.name || after.number !== before.number) await refreshTicketContact(companyId, after);
  else if (after.profilePicUrl !== before.profilePicUrl)
    await refreshTicketContact(companyId, after, { activeOnly: true });
  await publish(companyId, 'contact', { action: 'update', contact: after });
  return after;
}

export async function deleteContact(companyId: number, id: number) {
  const contact = await requireContact(companyId, id);
  const items: TransactItem[] = [
    deleteTx(contactKeys(companyId, id)),
    counterTx(companyScope(companyId), CONTACTS_USAGE, -1),
  ];
  // its own ids and those of contacts merged into it
  for (const number of [contact.number, ...(contact.mergedNumbers ?? [])].filter(Boolean))
    items.push(deleteTx(numberGuardKeys(companyId, number)));
  for (const lid of [contact.lid, ...(contact.mergedLids ?? [])].filter((v): v is string => Boolean(v)))
    items.push(deleteTx(lidGuardKeys(companyId, lid)));
  await transact(items);
  await publish(companyId, 'contact', { action: 'delete', contactId: id });
}

/**
 * The contact behind a WhatsApp chat. One customer is one contact whichever id a message carries:
 * it is found by its number guard or its `@lid` guard; a newly seen lid is linked to it. Two
 * messages of a new contact arriving at once race on the guards: the loser re-reads the winner.
 */
export async function upsertContactFromWhatsApp(
  companyId: number,
  input: { number: string; lid?: string; name?: string; profilePicUrl?: string; isGroup: boolean },
  /** the contact the caller already read through the guards (the inbound path batches those reads) */
  known?: Contact,
): Promise<Contact> {
  const { number, lid } = whatsappContactIds(input);
  for (let attempt = 0; attempt < 3; attempt++) {
    const found =
      (attempt === 0 ? known : undefined) ??
      (await findContactByNumber(companyId, number)) ??
      (lid ? await findContactByLid(companyId, lid) : undefined);
    if (found)
      return refreshFromWhatsApp(companyId, found, {
        number,
        lid,
        name: input.name,
        profilePicUrl: input.profilePicUrl,
      });
    const id = await nextId(companyScope(companyId), 'contact');
    const contact = newContact(companyId, id, {
      name: input.name?.trim() || number || lid || 'contact',
      number,
      lid,
      profilePicUrl: input.profilePicUrl,
      isGroup: input.isGroup,
    });
    try {
      await insertContact(contact);
      return contact;
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'ERR_DUPLICATED_CONTACT') throw err;
      // another message of the same contact created it first: read it on the next turn
    }
  }
  throw new AppError('ERR_CONFLICT');
}

/** The guard ids of a WhatsApp contact: the number's digits (a group keeps its jid user) and the lid user. */
export function whatsappContactIds(input: { number: string; lid?: string; isGroup: boolean }) {
  return {
    number: input.isGroup ? jidUser(input.number) : digitsOnly(jidUser(input.number ?? '')),
    lid: input.lid ? jidUser(input.lid) : undefined,
  };
}

/** Fills what a message taught us (a lid, a number for a lid-only contact, a picture, a real name). */
async function refreshFromWhatsApp(
  companyId: number,
  contact: Contact,
  seen: { number: string; lid?: string; name?: string; profilePicUrl?: string },
): Promise<Contact> {
  const changes: Partial<Contact> = {};
  if (seen.lid && !contact.lid) changes.lid = seen.lid;
  if (seen.number && !contact.number) changes.number = seen.number;
  if (seen.profilePicUrl && seen.profilePicUrl !== contact.profilePicUrl) changes.profilePicUrl = seen.profilePicUrl;
  // a contact first named after its number takes the push name once we learn it
  const name = seen.name?.trim();
  if (
    name &&
    name.length >= 1 &&
    (contact.name === contact.number || contact.name === contact.lid) &&
    name !== contact.name
  )
    changes.name = name;
  if (!Object.keys(changes).length) return contact;
  try {
    return await updateContact(companyId, contact.id, changes);
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'ERR_DUPLICATED_CONTACT')) throw err;
    // a message naming both ids whose lid another (lid-only) contact holds: the two are one person
    if (changes.lid && seen.number && contact.number === seen.number) {
      const merged = await linkContactLid(companyId, seen.number, changes.lid);
      if (merged?.id === contact.id) return merged;
    }
    // the lid or number already belongs to another contact: keep this one as it is
    return contact;
  }
}

/**
 * Records that `lid` and `number` are the same customer (a `lidMapping` event, or a message naming
 * both). The number's contact keeps the lid; a lid-only contact made earlier is given the number when
 * it is free. When both exist, the lid-only contact is merged into the number's (contacts/merge.ts):
 * it is marked with the number first (`lidPn`), so a merge that cannot finish leaves a suggestion.
 * A contact holding the lid with another number of its own is left alone (the lid guard moves).
 * Redelivery finds the lid on the number's contact and does nothing.
 */
export async function linkContactLid(companyId: number, number: string, lid: string): Promise<Contact | undefined> {
  const digits = digitsOnly(jidUser(number));
  const lidId = jidUser(lid);
  const byNumber = await findContactByNumber(companyId, digits);
  const byLid = await findContactByLid(companyId, lidId);
  if (byNumber && byLid && byNumber.id === byLid.id) return byNumber;
  if (byNumber && !byLid) return refreshFromWhatsApp(companyId, byNumber, { number: digits, lid: lidId });
  if (!byNumber && byLid) return refreshFromWhatsApp(companyId, byLid, { number: digits, lid: lidId });
  if (byNumber && byLid && !byLid.number && !byNumber.isGroup && !byLid.isGroup) {
    if (byLid.lidPn !== digits) await updateContact(companyId, byLid.id, { lidPn: digits });
    return (await mergeContacts(companyId, byNumber.id, byLid.id, { automatic: true })).contact;
  }
  if (byNumber && byLid) {
    await transact([
      putTx({ ...lidGuardKeys(companyId, lidId), contactId: byNumber.id }),
      putTx(contactItem({ ...byNumber, lid: lidId, updatedAt: nowIso() })),
    ]);
    await updateItem(contactKeys(companyId, byLid.id), { remove: ['lid'] });
    return { ...byNumber, lid: lidId };
  }
  return undefined;
}

/** Imported contacts per transaction: a number guard and the contact each (DynamoDB takes 100 items). */
const IMPORT_CHUNK = 50;
/** Transactions in flight at once. */
const IMPORT_CONCURRENCY = 6;

/**
 * Writes imported contacts in one transaction, then adds them to the usage counter. The counter stays
 * out of the transaction: every chunk would touch that one item, and transactions on the same item
 * conflict, which serialised the import (44 s for 5,000 rows). A crash in between leaves the count
 * (shown on the contacts page, never a limit) short by one chunk.
 */
async function insertImported(companyId: number, contacts: Contact[]) {
  await transact(contacts.flatMap(contactPuts), () => new AppError('ERR_DUPLICATED_CONTACT'));
  await updateItem(contactsUsageKeys(companyId), { add: { value: contacts.length } });
}

interface ImportCandidate {
  line: number;
  name: string;
  number: string;
  email: string;
  customFields: CustomFieldValues;
}

/** The web app sends a row's other columns under `fields`; API clients may send them beside name and number. */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The row's line in the spreadsheet when the client sends it, else its place in the list after a header line. */
const lineOf = (row: Record<string, unknown>, index: number) =>
  Number.isInteger(row.line) && (row.line as number) > 0 ? (row.line as number) : index + 2;

/**
 * POST /contacts/upload: each spreadsheet row becomes a contact or an entry in the error list with its
 * line. Rows are validated first; a number seen earlier in the file or already taken in the company is
 * ERR_DUPLICATED_CONTACT. The rest get their ids in one counter update and are written in transactions
 * of IMPORT_CHUNK contacts with their guards, a few at a time; a transaction that meets a guard written meanwhile is redone contact by contact. One dashboard update
 * and one `reload` event close the import.
 */
export async function importContacts(
  companyId: number,
  rows: Record<string, unknown>[],
  by?: AuditActor,
): Promise<ContactUploadResult> {
  const result = await importRows(companyId, rows);
  // an import a user started is on the audit trail (the phone's address book parts are noted when asked for)
  await auditBy(by, {
    action: 'data.imported',
    target: { type: 'contacts', id: 'all' },
    changes: {
      source: 'spreadsheet',
      rows: rows.length,
      created: result.newContacts.length,
      refused: rows.length - result.newContacts.length,
    },
  });
  return result;
}

async function importRows(companyId: number, rows: Record<string, unknown>[]): Promise<ContactUploadResult> {
  const result: ContactUploadResult = { newContacts: [], errorBag: [] };
  const refuse = (line: number, contactName: string, message: string) =>
    result.errorBag.push({ line, contactName, error: { message } });

  const candidates: ImportCandidate[] = [];
  const inFile = new Set<string>();
  // one Query for the contact fields: a column per field carries its values (custom-fields.ts `rowFieldValues`)
  const fields = (await loadFields(companyId)).filter((f) => f.entity === 'contact');
  for (const [index, row] of rows.entries()) {
    const line = lineOf(row, index);
    const get = (...names: string[]) => {
      const key = Object.keys(row).find((k) => names.includes(k.trim().toLowerCase()));
      return key !== undefined && row[key] !== null && row[key] !== undefined ? String(row[key]) : '';
    };
    const rawName = get('name', 'nome');
    const name = contactName.safeParse(rawName);
    const number = contactNumber.safeParse(get('number', 'numero', 'número', 'phone', 'telefone'));
    if (!name.success || !number.success) {
      refuse(
        line,
        rawName,
        !name.success ? `name: ${name.error.issues[0]?.message}` : `number: ${number.error!.issues[0]?.message}`,
      );
      continue;
    }
    if (inFile.has(number.data)) {
      refuse(line, name.data, 'ERR_DUPLICATED_CONTACT');
      continue;
    }
    inFile.add(number.data);
    const email = get('email', 'e-mail');
    // a value that does not fit its field is reported on the row's line; the contact and its other values still import
    const columns = isRecord(row.fields) ? row.fields : row;
    const { values, issues } = fields.length ? rowFieldValues(fields, columns) : { values: {}, issues: [] };
    for (const issue of issues) refuse(line, name.data, `${issue.key}: ${issue.message}`);
    candidates.push({
      line,
      name: name.data,
      number: number.data,
      email: /.+@.+\..+/.test(email) ? email.toLowerCase() : '',
      customFields: values,
    });
  }

  const taken = new Set<string>();
  await eachLimit(chunked(candidates, 100), IMPORT_CONCURRENCY, async (chunk) => {
    const guards = await batchGet<{ pk: string }>(chunk.map((c) => numberGuardKeys(companyId, c.number)));
    for (const guard of guards) taken.add(guard.pk);
  });
  const fresh = candidates.filter((c) => {
    if (!taken.has(numberGuardKeys(companyId, c.number).pk)) return true;
    refuse(c.line, c.name, 'ERR_DUPLICATED_CONTACT');
    return false;
  });
  if (!fresh.length) return result;

  const firstId = await nextId(companyScope(companyId), 'contact', fresh.length);
  const contacts = fresh.map((c, i) => ({ line: c.line, contact: newContact(companyId, firstId + i, c) }));
  const created: { line: number; contact: Contact }[] = [];
  await eachLimit(chunked(contacts, IMPORT_CHUNK), IMPORT_CONCURRENCY, async (chunk) => {
    try {
      await insertImported(
        companyId,
        chunk.map((c) => c.contact),
      );
      created.push(...chunk);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'ERR_DUPLICATED_CONTACT') throw err;
      for (const one of chunk) {
        try {
          await insertImported(companyId, [one.contact]);
          created.push(one);
        } catch (e) {
          if (!(e instanceof AppError)) throw e;
          refuse(one.line, one.contact.name, e.code);
        }
      }
    }
  });
  created.sort((a, b) => a.contact.id - b.contact.id);
  result.newContacts = created.map(({ contact }) => ({ contactId: contact.id, contactName: contact.name }));
  result.errorBag.sort((a, b) => a.line - b.line);
  if (created.length) {
    await bumpDay(companyId, dayOf(created[0]!.contact.createdAt), { newContacts: created.length });
    await publish(companyId, 'contact', { action: 'reload', count: created.length });
  }
  return result;
}
