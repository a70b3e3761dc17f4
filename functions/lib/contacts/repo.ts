import type { Contact } from '#shared/schemas/contacts';
import { getItem, stripKeys, type Item } from '../db';
import { AppError } from '../errors';
import { pad } from '../keys';

/**
 * A contact: pk `C#<cid>`, sk `CONTACT#<pad(id)>`, with three index entries:
 * - gsi1 `C#<cid>#CNAME` / `<normalized name>#<pad(id)>`: the contacts page in name order and the
 *   name-prefix search ("maria" -> every contact whose name starts with maria, accents ignored);
 * - gsi2 `C#<cid>#CNUM` / `<number>#<pad(id)>`: number-prefix search;
 * - gsi3 `C#<cid>#CDATE` / `<createdAt>#<pad(id)>`: the date filters.
 * Guard items make a number and a `@lid` id unique per company and find the contact by either:
 * `C#<cid>#CNUM#<number>` / `GUARD` and `C#<cid>#CLID#<lid>` / `GUARD`, both holding `contactId`.
 * Two more index entries find likely duplicates (contacts/duplicates.ts), neighbours in key order:
 * - gsi4 `C#<cid>#CDUPP` / `<phone key>#<pad(id)>`: the number in one notation (phoneKey), or for a
 *   contact known only by its lid, the number WhatsApp mapped that lid to (`lidPn`);
 * - gsi5 `C#<cid>#CDUPN` / `<normalized name>|<last 4 digits of the phone key>#<pad(id)>`.
 */
export const contactKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `CONTACT#${pad(id)}` });
export const numberGuardKeys = (companyId: number, number: string) => ({
  pk: `C#${companyId}#CNUM#${number}`,
  sk: 'GUARD',
});
export const lidGuardKeys = (companyId: number, lid: string) => ({ pk: `C#${companyId}#CLID#${lid}`, sk: 'GUARD' });
/**
 * A contact merge (contacts/merge.ts), kept after it ends: pk `C#<cid>`, sk `CMERGE#<pad(mergedId)>`
 * {keepId, status running|done, counts}. It also tells where a merged contact went (message ids that
 * name its conversation).
 */
export const mergeRecordKeys = (companyId: number, mergedId: number) => ({
  pk: `C#${companyId}`,
  sk: `CMERGE#${pad(mergedId)}`,
});
export const CONTACTS_USAGE = 'usage#contacts';
/** The company's contact count (a counter item of ids.ts), for adds outside a transaction and reads. */
export const contactsUsageKeys = (companyId: number) => ({ pk: `C#${companyId}`, sk: `COUNTER#${CONTACTS_USAGE}` });
export const contactIndex = {
  byName: (companyId: number) => `C#${companyId}#CNAME`,
  byNumber: (companyId: number) => `C#${companyId}#CNUM`,
  byDate: (companyId: number) => `C#${companyId}#CDATE`,
  /** duplicate suggestions: same phone key (gsi4), same name and number suffix (gsi5) */
  dupPhone: (companyId: number) => `C#${companyId}#CDUPP`,
  dupName: (companyId: number) => `C#${companyId}#CDUPN`,
};

/**
 * One notation of a phone number, so `+55 (11) 98765-4321`, `5511987654321`, `11 98765-4321` and
 * the old 8-digit form `551187654321` meet: digits only, an international `00` or trunk `0` dropped,
 * a Brazilian national number (area code 11-99 + 8 digits, or + 9 + 8 digits) given the country
 * code, and a Brazilian mobile written with its ninth digit reduced to the 8-digit form (accounts
 * older than the ninth digit answer under it, see the runner's answersByNumber). Other numbers stay
 * as their digits. Undefined for fewer than 8 digits.
 */
export function phoneKey(number: string | undefined): string | undefined {
  let d = digitsOnly(number ?? '');
  if (d.startsWith('00')) d = d.slice(2);
  else if (d.startsWith('0') && (d.length === 11 || d.length === 12)) d = d.slice(1);
  if (d.length < 8) return undefined;
  const area = (s: string) => /^[1-9]{2}$/.test(s);
  if (area(d.slice(0, 2)) && (d.length === 10 || (d.length === 11 && d[2] === '9'))) d = `55${d}`;
  if (d.startsWith('55') && area(d.slice(2, 4))) {
    const local = d.slice(4);
    if (local.length === 9 && local[0] === '9') return `55${d.slice(2, 4)}${local.slice(1)}`;
  }
  return d;
}

/** The duplicate-suggestion keys of a contact (none for groups, nor without any number). */
export function duplicateKeys(c: Pick<Contact, 'name' | 'number' | 'isGroup'> & { lidPn?: string }): {
  phone?: string;
  name?: string;
} {
  if (c.isGroup) return {};
  const phone = phoneKey(c.number) ?? phoneKey(c.lidPn);
  if (!phone) return {};
  const name = normalizeText(c.name);
  const named = name.length >= 2 && digitsOnly(name) !== name.replace(/\s/g, '');
  return { phone, ...(named ? { name: `${name}|${phone.slice(-4)}` } : {}) };
}

/** The group key of an index sort key `<key>#<pad(id)>`. */
export const duplicateGroupOf = (indexSk: string) => indexSk.slice(0, indexSk.lastIndexOf('#'));

/** Lower case, accents removed, spaces collapsed: the form names are indexed and searched in. */
export function normalizeText(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** `5511999@s.whatsapp.net` / `123@lid` / `5511999:12@s.whatsapp.net` -> the user part. */
export const jidUser = (jid: string) => jid.split('@')[0]!.split(':')[0]!;
export const digitsOnly = (value: string) => value.replace(/\D/g, '');

/** The id a send command addresses: the number jid, the group jid, or the `@lid` id when no number is known. */
export function contactJid(contact: Pick<Contact, 'number' | 'lid' | 'isGroup'>): string {
  if (contact.isGroup) return `${contact.number}@g.us`;
  if (contact.number) return `${contact.number}@s.whatsapp.net`;
  return `${contact.lid}@lid`;
}

/** The duplicate-suggestion index attributes (gsi4, gsi5) of a contact, those it has. */
export function duplicateIndexFields(contact: Contact & { lidPn?: string }): Item {
  const dup = duplicateKeys(contact);
  return {
    ...(dup.phone
      ? { gsi4pk: contactIndex.dupPhone(contact.companyId), gsi4sk: `${dup.phone}#${pad(contact.id)}` }
      : {}),
    ...(dup.name ? { gsi5pk: contactIndex.dupName(contact.companyId), gsi5sk: `${dup.name}#${pad(contact.id)}` } : {}),
  };
}

export function contactItem(contact: Contact & { lidPn?: string }): Item {
  return {
    ...contactKeys(contact.companyId, contact.id),
    ...contact,
    gsi1pk: contactIndex.byName(contact.companyId),
    gsi1sk: `${normalizeText(contact.name)}#${pad(contact.id)}`,
    gsi2pk: contactIndex.byNumber(contact.companyId),
    gsi2sk: `${contact.number}#${pad(contact.id)}`,
    gsi3pk: contactIndex.byDate(contact.companyId),
    gsi3sk: `${contact.createdAt}#${pad(contact.id)}`,
    ...duplicateIndexFields(contact),
  };
}

/** Every contact of a company, in id order (the company partition's `CONTACT#` items). */
export const allContactsQuery = (companyId: number) => ({ pk: `C#${companyId}`, sk: { beginsWith: 'CONTACT#' } });

export const toContact = (item: Item) => stripKeys(item) as Contact;

export async function getContact(companyId: number, id: number): Promise<Contact | undefined> {
  const item = await getItem(contactKeys(companyId, id));
  return item ? toContact(item) : undefined;
}

/** A missing or foreign contact is ERR_NO_CONTACT_FOUND (404). */
export async function requireContact(companyId: number, id: number): Promise<Contact> {
  const found = await getContact(companyId, id);
  if (!found) throw new AppError('ERR_NO_CONTACT_FOUND');
  return found;
}

export async function findContactByNumber(companyId: number, number: string): Promise<Contact | undefined> {
  if (!number) return undefined;
  const guard = await getItem<{ contactId: number }>(numberGuardKeys(companyId, number));
  return guard ? getContact(companyId, guard.contactId) : undefined;
}

export async function findContactByLid(companyId: number, lid: string): Promise<Contact | undefined> {
  if (!lid) return undefined;
  const guard = await getItem<{ contactId: number }>(lidGuardKeys(companyId, lid));
  return guard ? getContact(companyId, guard.contactId) : undefined;
}
