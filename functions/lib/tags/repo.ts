import type { Tag } from '#shared/schemas/tags';
import { batchGet, getItem, stripKeys, type Item } from '../db';
import { AppError } from '../errors';
import { pad } from '../keys';

/**
 * A tag: pk `C#<cid>`, sk `TAG#<pad(id)>` (`nameLower` for the search filter; the tag partition
 * range is small). `ticketsCount` is adjusted in the same transaction that tags or untags a
 * ticket. Ticket-tag links `C#<cid>#TAGT#<tagId>` / `T#<pad(ticketId)>` list a tag's tickets, so
 * renaming or deleting a tag refreshes the chips on its tickets without reading any other ticket.
 */
export const tagKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `TAG#${pad(id)}` });
export const tagLinkKeys = (companyId: number, tagId: number, ticketId: number) => ({
  pk: `C#${companyId}#TAGT#${tagId}`,
  sk: `T#${pad(ticketId)}`,
});
export const tagLinksPk = (companyId: number, tagId: number) => `C#${companyId}#TAGT#${tagId}`;

export const tagItem = (t: Tag): Item => ({ ...tagKeys(t.companyId, t.id), ...t, nameLower: t.name.toLowerCase() });
export const toTag = (item: Item): Tag => {
  const { nameLower: _n, ...rest } = stripKeys(item) as Item;
  return rest as Tag;
};

export async function getTag(companyId: number, id: number): Promise<Tag | undefined> {
  const item = await getItem(tagKeys(companyId, id));
  return item ? toTag(item) : undefined;
}

export async function requireTag(companyId: number, id: number): Promise<Tag> {
  const tag = await getTag(companyId, id);
  if (!tag) throw new AppError('ERR_NOT_FOUND');
  return tag;
}

/** The company's tags among `ids`; a foreign or unknown id is ERR_NOT_FOUND. */
export async function requireTags(companyId: number, ids: number[]): Promise<Tag[]> {
  if (!ids.length) return [];
  const found = (await batchGet(ids.map((id) => tagKeys(companyId, id)))).map(toTag);
  if (found.length !== new Set(ids).size) throw new AppError('ERR_NOT_FOUND');
  const byId = new Map(found.map((t) => [t.id, t]));
  return ids.map((id) => byId.get(id)!);
}
