import type { ContactList, ContactListItem } from '#shared/schemas/contact-lists';
import { getItem, query, stripKeys, type Item } from '../db';
import { AppError } from '../errors';
import { pad } from '../keys';

/**
 * Contact lists and their items.
 * - list: pk `C#<cid>`, sk `CONTACTLIST#<pad(id)>` (`nameLower` for search; `contactsCount` moves
 *   with every item write);
 * - item: pk `C#<cid>#CLI#<listId>`, sk `N#<number>`: keyed by its number, so a list holds one item
 *   per number without a guard item (a campaign never plans one number twice, an import writes one
 *   item per row); `searchText` (name, number, e-mail lower case); gsi1 `C#<cid>#CLITEM#<id>` / `I`
 *   finds an item by id alone (the item routes name no list).
 */
export const listKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `CONTACTLIST#${pad(id)}` });
/** The key condition of a company's lists (a Query). */
export const companyLists = (companyId: number) => ({ pk: `C#${companyId}`, sk: { beginsWith: 'CONTACTLIST#' } });
export const itemsPk = (companyId: number, listId: number) => `C#${companyId}#CLI#${listId}`;
export const itemKeys = (companyId: number, listId: number, number: string) => ({
  pk: itemsPk(companyId, listId),
  sk: `N#${number}`,
});
export const ITEM_PREFIX = 'N#';
const itemIdIndexPk = (companyId: number, id: number) => `C#${companyId}#CLITEM#${id}`;

export const listItem = (l: ContactList): Item => ({
  ...listKeys(l.companyId, l.id),
  ...l,
  nameLower: l.name.toLowerCase(),
});
export const toContactList = (item: Item): ContactList => {
  const { nameLower: _n, ...rest } = stripKeys(item) as Item;
  return rest as ContactList;
};

export const searchTextOf = (i: Pick<ContactListItem, 'name' | 'number' | 'email'>) =>
  `${i.name} ${i.number} ${i.email}`.toLowerCase();

export const contactListItemItem = (i: ContactListItem): Item => ({
  ...itemKeys(i.companyId, i.contactListId, i.number),
  ...i,
  searchText: searchTextOf(i),
  gsi1pk: itemIdIndexPk(i.companyId, i.id),
  gsi1sk: 'I',
});
export const toContactListItem = (item: Item): ContactListItem => {
  const { searchText: _s, ...rest } = stripKeys(item) as Item;
  return rest as ContactListItem;
};

export async function getContactList(companyId: number, id: number): Promise<ContactList | undefined> {
  const item = await getItem(listKeys(companyId, id));
  return item ? toContactList(item) : undefined;
}

export async function requireContactList(companyId: number, id: number): Promise<ContactList> {
  const list = await getContactList(companyId, id);
  if (!list) throw new AppError('ERR_NOT_FOUND');
  return list;
}

export async function requireContactListItem(companyId: number, id: number): Promise<ContactListItem> {
  const { items } = await query({ index: 'gsi1', pk: itemIdIndexPk(companyId, id), limit: 1 });
  if (!items[0]) throw new AppError('ERR_NOT_FOUND');
  return toContactListItem(items[0]);
}
