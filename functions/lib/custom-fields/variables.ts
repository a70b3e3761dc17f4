import { contactVariables, type CustomFieldValues } from '#shared/schemas/custom-fields';
import { loadFields } from './repo';

/**
 * The `{{contact.<key>}}` values for texts about to be filled (shared/message-variables.ts): the
 * definitions are read only when one of the texts names such a variable, so other sends pay nothing.
 */
export async function contactFieldsFor(
  companyId: number,
  contact: { customFields?: CustomFieldValues; extraInfo?: { name: string; value: string }[] },
  ...texts: (string | null | undefined)[]
): Promise<Record<string, string> | undefined> {
  if (!texts.some((t) => t && /\{\{\s*contact\./i.test(t))) return undefined;
  return contactVariables(await loadFields(companyId), contact);
}
