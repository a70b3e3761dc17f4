import { fieldValueOf, type CustomFieldEntity, type CustomFieldValue } from '#shared/schemas/custom-fields';
import { AppError } from '../errors';
import { loadFields } from './repo';

/** A list's custom-field condition: the field's key, and the value it must hold (none: any value). */
export interface FieldCondition {
  key: string;
  value?: CustomFieldValue;
}

/**
 * `?field=<key>&fieldValue=<v>` of the contacts and tickets lists, checked against the definitions (one
 * Query of the small definitions partition): the field must be one of the entity's (ERR_VALIDATION
 * `field`) and the value fit its type, read loosely (`fieldValue`).
 */
export async function fieldCondition(
  companyId: number,
  entity: CustomFieldEntity,
  key: string | undefined,
  fieldValue: string | undefined,
): Promise<FieldCondition | undefined> {
  if (!key) return undefined;
  const field = (await loadFields(companyId)).find((d) => d.entity === entity && d.key === key);
  if (!field) throw new AppError('ERR_VALIDATION', 400, [{ path: ['field'], message: 'invalid' }]);
  const given = fieldValue?.trim() ?? '';
  if (!given) return { key };
  const checked = fieldValueOf(field, given, true);
  if ('error' in checked) throw new AppError('ERR_VALIDATION', 400, [{ path: ['fieldValue'], message: checked.error }]);
  return { key, value: checked.value };
}

/** The condition as a DynamoDB filter expression on `customFields` (names `#cf`, `#ck`; value `:cv`). */
export function fieldFilter(c: FieldCondition) {
  return {
    filter: c.value !== undefined ? '#cf.#ck = :cv' : 'attribute_exists(#cf.#ck)',
    names: { '#cf': 'customFields', '#ck': c.key },
    values: c.value !== undefined ? { ':cv': c.value } : {},
  };
}

/** The same condition on a value in memory (search results, segments). */
export const fieldMatches = (c: FieldCondition, values: Record<string, CustomFieldValue> | undefined) =>
  c.value !== undefined ? values?.[c.key] === c.value : values?.[c.key] !== undefined;
