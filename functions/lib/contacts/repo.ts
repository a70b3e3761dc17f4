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
 */
export const contactKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `CONTACT#${pad(id)}` });
export const numberGuardKeys = (companyId: number, number: string) => ({
  pk: `C#${companyId}#CNUM#${number}`,
  sk: 'GUARD',
});
export const lidGuardKeys = (companyId: number, lid: string) => ({ pk: `C#${companyId}#CLID#${lid}`, sk: 'GUARD' });
export const CONTACTS_USAGE = 'usage#contacts';
/** The company's contact count (a counter item of ids.ts), for adds outside a transaction and reads. */
export const contactsUsageKeys = (companyId: number) => ({ pk: `C#${companyId}`, sk: `COUNTER#${CONTACTS_USAGE}` });
export const contactIndex = {
  byName: (companyId: number) => `C#${companyId}#CNAME`,
  byNumber: (companyId: number) => `C#${companyId}#CNUM`,
  byDate: (companyId: number) => `C#${companyId}#CDATE`,
};

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

export function contactItem(contact: Contact): Item {
  return {
    ...contactKeys(contact.companyId, contact.id),
    ...contact,
    gsi1pk: contactIndex.byName(contact.companyId),
    gsi1sk: `${normalizeText(contact.name)}#${pad(contact.id)}`,
    gsi2pk: contactIndex.byNumber(contact.companyId),
    gsi2sk: `${contact.number}#${pad(contact.id)}`,
    gsi3pk: contactIndex.byDate(contact.companyId),
    gsi3sk: `${contact.createdAt}#${pad(contact.id)}`,
  };
}

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
