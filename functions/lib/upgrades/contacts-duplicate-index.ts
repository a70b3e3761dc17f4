import { query, updateItem, type Item } from '../db';
import { allContactsQuery, contactKeys, duplicateIndexFields, toContact } from '../contacts/repo';
import type { DataUpgrade } from './upgrade';

/** Contacts updated at once within a page. */
const WRITES_AT_ONCE = 8;

/**
 * Contacts stored before the duplicate suggestions (issue 27) lack their gsi4/gsi5 entries, so
 * `GET /contacts/duplicates` never meets them. This gives each such contact the entries `contactItem`
 * gives it today, and nothing else: not a rewrite, `updatedAt` untouched. A contact that already
 * carries them is left alone, so running it again writes nothing.
 */
export const contactsDuplicateIndex: DataUpgrade = {
  name: 'contacts-duplicate-index',
  async page(companyId, startKey, limit) {
    const { items, lastKey } = await query({ ...allContactsQuery(companyId), startKey, limit });
    let written = 0;
    for (let i = 0; i < items.length; i += WRITES_AT_ONCE)
      for (const wrote of await Promise.all(items.slice(i, i + WRITES_AT_ONCE).map(addDuplicateIndex)))
        if (wrote) written++;
    return { lastKey, read: items.length, written };
  },
};

async function addDuplicateIndex(item: Item): Promise<boolean> {
  const contact = toContact(item);
  const missing = Object.entries(duplicateIndexFields(contact)).filter(([field, value]) => item[field] !== value);
  if (!missing.length) return false;
  // Only while the contact is as it was read (its `updatedAt`, the version every contact write
  // changes): a contact rewritten since then carries today's entries already, a deleted one stays deleted.
  const updated = await updateItem(contactKeys(contact.companyId, contact.id), {
    set: Object.fromEntries(missing),
    condition: 'attribute_exists(pk) AND #updatedAt = :updatedAt',
    conditionNames: { '#updatedAt': 'updatedAt' },
    conditionValues: { ':updatedAt': contact.updatedAt },
  });
  return Boolean(updated);
}
