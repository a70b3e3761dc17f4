import {
  checkFieldValues,
  extraInfoAsFields,
  type CustomField,
  type CustomFieldEntity,
  type CustomFieldValues,
} from '#shared/schemas/custom-fields';
import { AppError } from '../errors';

type ExtraInfo = { name: string; value: string }[];

/** The values after `changes`, or ERR_VALIDATION naming each refused value (`['customFields', key]`). */
export function changedValues(
  fields: CustomField[],
  entity: CustomFieldEntity,
  current: CustomFieldValues | undefined,
  changes: Record<string, unknown>,
): CustomFieldValues {
  const { values, issues } = checkFieldValues(fields, entity, current ?? {}, changes);
  if (issues.length) throw new AppError('ERR_VALIDATION', 400, issues);
  return values;
}

/**
 * A contact's fields after a change. Its extra info entries that a field claims (same name, a value
 * that fits: custom-fields.ts `extraInfoAsFields`) become that field's values in the same write and
 * leave the extra info, unless the contact already had a value of its own (then the entry stays as
 * it was); the other entries stay.
 * So nothing the extra info held is lost, and no value is kept in two places once edited.
 */
export function contactFieldsAfter(
  fields: CustomField[],
  contact: { customFields?: CustomFieldValues; extraInfo?: ExtraInfo },
  changes: Record<string, unknown>,
): { customFields: CustomFieldValues; extraInfo: ExtraInfo } {
  const own = contact.customFields ?? {};
  const fromExtra = extraInfoAsFields(fields, contact.extraInfo);
  // an entry whose field has a value of its own is not moved: it stays extra info as it was
  const moved = fromExtra.claimed.filter((c) => own[c.key] === undefined);
  const current = { ...Object.fromEntries(moved.map((c) => [c.key, fromExtra.values[c.key]!])), ...own };
  return {
    customFields: changedValues(fields, 'contact', current, changes),
    extraInfo: (contact.extraInfo ?? []).filter((_, i) => !moved.some((c) => c.index === i)),
  };
}
