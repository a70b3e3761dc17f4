import type { CustomField, CustomFieldEntity } from '#shared/schemas/custom-fields';
import { getItem, queryAll, stripKeys, type Item } from '../db';
import { AppError } from '../errors';
import { pad } from '../keys';

/**
 * A company's custom field definitions live in one small partition, read whole with one Query
 * whenever values are checked or shown:
 * - `C#<cid>#CFIELDS` / `FIELD#<pad(id)>`: a definition;
 * - `C#<cid>#CFIELDS` / `KEY#<entity>#<key>` {fieldId}: the guard that keeps a key unique per entity,
 *   written and deleted in the definition's transactions.
 * The count per entity is the counter item `C#<cid>` / `COUNTER#customFields#<entity>` (ids.ts).
 */
const partition = (companyId: number) => `C#${companyId}#CFIELDS`;
export const fieldKeys = (companyId: number, id: number) => ({ pk: partition(companyId), sk: `FIELD#${pad(id)}` });
export const keyGuardKeys = (companyId: number, entity: CustomFieldEntity, key: string) => ({
  pk: partition(companyId),
  sk: `KEY#${entity}#${key}`,
});
export const fieldsCounter = (entity: CustomFieldEntity) => `customFields#${entity}`;

export const fieldItem = (field: CustomField): Item => ({ ...fieldKeys(field.companyId, field.id), ...field });
const toField = (item: Item) => stripKeys(item) as CustomField;

/** Every definition of the company (both entities), in drawer order. */
export async function loadFields(companyId: number): Promise<CustomField[]> {
  const items = await queryAll({ pk: partition(companyId), sk: { beginsWith: 'FIELD#' } });
  return items.map(toField).sort((a, b) => a.order - b.order || a.id - b.id);
}

/** A missing or foreign definition is ERR_NOT_FOUND. */
export async function requireField(companyId: number, id: number): Promise<CustomField> {
  const item = await getItem(fieldKeys(companyId, id));
  if (!item) throw new AppError('ERR_NOT_FOUND');
  return toField(item);
}
