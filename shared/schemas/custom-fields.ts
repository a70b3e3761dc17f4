import { z } from 'zod';
import { foldAccents } from '../fold';
import { MSG } from './common';

/**
 * Custom fields (issue 40, item 1): typed fields an admin defines for contacts and for tickets. A
 * contact or ticket keeps its values as `customFields: { [key]: value }`; each value is validated by
 * its field's type here, once, for the server and the web app alike.
 */
export const CUSTOM_FIELD_ENTITIES = ['contact', 'ticket'] as const;
export type CustomFieldEntity = (typeof CUSTOM_FIELD_ENTITIES)[number];

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'date', 'list', 'checkbox', 'link'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** Fields a company may define for each entity (the drawer shows them all at once). */
export const MAX_CUSTOM_FIELDS_PER_ENTITY = 50;
export const MAX_CUSTOM_FIELD_OPTIONS = 50;
export const MAX_TEXT_VALUE = 1000;
export const MAX_LINK_VALUE = 2000;

/** A key names the value on every contact or ticket and in `{{contact.<key>}}`: it never changes. */
export const CUSTOM_FIELD_KEY = /^[a-z][a-z0-9_]{0,39}$/;

export const CustomField = z.object({
  id: z.number(),
  companyId: z.number(),
  entity: z.enum(CUSTOM_FIELD_ENTITIES),
  key: z.string(),
  name: z.string(),
  type: z.enum(CUSTOM_FIELD_TYPES),
  /** the choices of a `list` field (empty for other types) */
  options: z.array(z.string()),
  required: z.boolean(),
  /** position in the drawer, lowest first (ties by id) */
  order: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CustomField = z.infer<typeof CustomField>;

/** A stored value: what each type keeps (a date as `YYYY-MM-DD`, a list choice as its text). */
export type CustomFieldValue = string | number | boolean;
export type CustomFieldValues = Record<string, CustomFieldValue>;

/** `Plano do cliente` -> `plano_do_cliente`: the key a field gets from its name when none is given. */
export function fieldKeyOf(name: string): string {
  const slug = foldAccents(name)
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40)
    .replace(/_+$/, '');
  return /^[a-z]/.test(slug) ? slug : `f_${slug}`.slice(0, 40).replace(/_+$/, '');
}

const fieldName = z.string({ error: MSG.required }).trim().min(1, MSG.required).max(60, MSG.long);
const options = z
  .array(z.string().trim().min(1, MSG.required).max(60, MSG.long))
  .max(MAX_CUSTOM_FIELD_OPTIONS, MSG.long)
  .refine((list) => new Set(list).size === list.length, { message: 'duplicate' });
const order = z.number().int().min(0).max(10_000);

/** POST /custom-fields. `key` defaults to one made from the name; a `list` needs its options. */
export const CustomFieldBody = z
  .object({
    entity: z.enum(CUSTOM_FIELD_ENTITIES),
    name: fieldName,
    key: z.string().trim().regex(CUSTOM_FIELD_KEY, MSG.invalid).optional(),
    type: z.enum(CUSTOM_FIELD_TYPES),
    options: options.optional(),
    required: z.boolean().optional(),
    order: order.optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.type === 'list' && !v.options?.length)
      ctx.addIssue({ code: 'custom', path: ['options'], message: MSG.required });
    if (v.type !== 'list' && v.options?.length)
      ctx.addIssue({ code: 'custom', path: ['options'], message: MSG.invalid });
  });
export type CustomFieldBody = z.infer<typeof CustomFieldBody>;

/**
 * PUT /custom-fields/{id}: name, options, required and order. The entity, key and type stay: values
 * already stored are read by them (a field of another type is a new field).
 */
export const CustomFieldUpdateBody = z
  .object({ name: fieldName, options, required: z.boolean(), order })
  .partial()
  .strict();
export type CustomFieldUpdateBody = z.infer<typeof CustomFieldUpdateBody>;

export const CustomFieldsQuery = z.object({ entity: z.enum(CUSTOM_FIELD_ENTITIES).optional() });

/**
 * The values a request sets: a key to its new value, `null` (or '') to clear it. Checked against the
 * definitions by `checkFieldValues`.
 */
export const CustomFieldValuesBody = z
  .record(z.string().max(40), z.union([z.string().max(MAX_LINK_VALUE), z.number(), z.boolean(), z.null()]))
  .refine((v) => Object.keys(v).length <= MAX_CUSTOM_FIELDS_PER_ENTITY, { message: MSG.long });

/** PUT /tickets/{id}/custom-fields and PUT /contacts/{id}/custom-fields */
export const CustomFieldsPutBody = z.object({ customFields: CustomFieldValuesBody }).strict();

const isDay = (v: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

const isLink = (v: string) => {
  if (!/^https?:\/\//i.test(v)) return false;
  try {
    return Boolean(new URL(v).hostname);
  } catch {
    return false;
  }
};

/**
 * The value a field keeps for what was given, or the message key of why it is refused. `loose`: text
 * from a spreadsheet or a form (`"12,5"`, `"sim"`, `"31/12/2025"`) is read as the type's value.
 */
export function fieldValueOf(
  field: Pick<CustomField, 'type' | 'options'>,
  given: unknown,
  loose = false,
): { value: CustomFieldValue } | { error: string } {
  const text = typeof given === 'string' ? given.trim() : given;
  switch (field.type) {
    case 'text':
      if (typeof text !== 'string') return { error: MSG.invalid };
      return text.length > MAX_TEXT_VALUE ? { error: MSG.long } : { value: text };
    case 'number': {
      const n =
        typeof text === 'number'
          ? text
          : typeof text === 'string' && /^-?\d+([.,]\d+)?$/.test(text)
            ? Number(text.replace(',', '.'))
            : Number.NaN;
      return Number.isFinite(n) && Math.abs(n) < 1e15 ? { value: n } : { error: MSG.invalid };
    }
    case 'date': {
      if (typeof text !== 'string') return { error: MSG.invalid };
      const br = loose ? text.match(/^(\d{2})\/(\d{2})\/(\d{4})$/) : null;
      const day = br ? `${br[3]}-${br[2]}-${br[1]}` : text;
      return isDay(day) ? { value: day } : { error: MSG.invalid };
    }
    case 'list': {
      if (typeof text !== 'string') return { error: MSG.invalid };
      const found = loose ? field.options.find((o) => o.toLowerCase() === text.toLowerCase()) : text;
      return found !== undefined && field.options.includes(found) ? { value: found } : { error: MSG.invalid };
    }
    case 'checkbox': {
      if (typeof text === 'boolean') return { value: text };
      if (loose && typeof text === 'string') {
        const t = text.toLowerCase();
        if (['true', '1', 'sim', 'yes', 'si', 'sí', 'x'].includes(t)) return { value: true };
        if (['false', '0', 'não', 'nao', 'no'].includes(t)) return { value: false };
      }
      return { error: MSG.invalid };
    }
    case 'link':
      if (typeof text !== 'string') return { error: MSG.invalid };
      if (text.length > MAX_LINK_VALUE) return { error: MSG.long };
      return isLink(text) ? { value: text } : { error: MSG.invalid };
  }
}

const isEmpty = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

export interface FieldIssue {
  path: (string | number)[];
  message: string;
}

/** The fields of one entity in drawer order. */
export const fieldsOf = (fields: CustomField[], entity: CustomFieldEntity) =>
  fields.filter((f) => f.entity === entity).sort((a, b) => a.order - b.order || a.id - b.id);

/**
 * The values after a change: `current` with `changes` applied, each changed value checked by its
 * field (`path` ['customFields', key]). A key no field of the entity has is refused; a required field
 * cannot be left empty by a change (values set before the field became required are kept as they are).
 * Values kept under keys no field has any more stay stored, unread.
 */
export function checkFieldValues(
  fields: CustomField[],
  entity: CustomFieldEntity,
  current: CustomFieldValues,
  changes: Record<string, unknown>,
  opts: { loose?: boolean; pathPrefix?: (string | number)[] } = {},
): { values: CustomFieldValues; issues: FieldIssue[] } {
  const prefix = opts.pathPrefix ?? ['customFields'];
  const byKey = new Map(fieldsOf(fields, entity).map((f) => [f.key, f]));
  const values: CustomFieldValues = { ...current };
  const issues: FieldIssue[] = [];
  for (const [key, given] of Object.entries(changes)) {
    const field = byKey.get(key);
    if (!field) {
      issues.push({ path: [...prefix, key], message: 'unknown' });
      continue;
    }
    if (isEmpty(given)) {
      if (field.required) issues.push({ path: [...prefix, key], message: MSG.required });
      else delete values[key];
      continue;
    }
    const checked = fieldValueOf(field, given, opts.loose);
    if ('error' in checked) issues.push({ path: [...prefix, key], message: checked.error });
    else values[key] = checked.value;
  }
  return { values, issues };
}

/**
 * What a reader shows: the values of the entity's fields that still fit their field (a value whose
 * field was deleted, or whose option was removed, is left unread, never an error).
 */
export function readFieldValues(
  fields: CustomField[],
  entity: CustomFieldEntity,
  stored: CustomFieldValues | undefined,
): CustomFieldValues {
  const out: CustomFieldValues = {};
  for (const field of fieldsOf(fields, entity)) {
    const v = stored?.[field.key];
    if (v === undefined) continue;
    const checked = fieldValueOf(field, v);
    if ('value' in checked) out[field.key] = checked.value;
  }
  return out;
}

/** Names are matched with accents, case and spacing ignored. */
const sameName = (a: string, b: string) => {
  const n = (s: string) =>
    foldAccents(s)
      .replace(/[\s_-]+/g, ' ')
      .trim();
  return n(a) === n(b);
};

/**
 * Today's contact "extra info" (`extraInfo: [{name, value}]`) read as custom fields: an entry whose
 * name is a contact field's name or key, and whose value fits that field, is that field's value while
 * the contact has none of its own. Entries no field claims stay extra info, shown beside the fields.
 */
export function extraInfoAsFields(
  fields: CustomField[],
  extraInfo: { name: string; value: string }[] | undefined,
): { values: CustomFieldValues; claimed: { index: number; key: string }[] } {
  const values: CustomFieldValues = {};
  const claimed: { index: number; key: string }[] = [];
  for (const field of fieldsOf(fields, 'contact')) {
    const index = (extraInfo ?? []).findIndex(
      (e, i) => !claimed.some((c) => c.index === i) && (sameName(e.name, field.name) || sameName(e.name, field.key)),
    );
    if (index < 0) continue;
    const checked = fieldValueOf(field, extraInfo![index]!.value, true);
    if (!('value' in checked)) continue;
    values[field.key] = checked.value;
    claimed.push({ index, key: field.key });
  }
  return { values, claimed };
}

/** A contact's field values as the drawer shows them: its own, then what its extra info gives. */
export function contactFieldValues(
  fields: CustomField[],
  contact: { customFields?: CustomFieldValues; extraInfo?: { name: string; value: string }[] },
): { values: CustomFieldValues; otherInfo: { name: string; value: string }[] } {
  const own = readFieldValues(fields, 'contact', contact.customFields);
  const fromExtra = extraInfoAsFields(fields, contact.extraInfo);
  // an entry stands for its field only while the contact has no value of its own there
  const standing = fromExtra.claimed.filter((c) => contact.customFields?.[c.key] === undefined);
  const values: CustomFieldValues = {
    ...Object.fromEntries(standing.map((c) => [c.key, fromExtra.values[c.key]!])),
    ...own,
  };
  const otherInfo = (contact.extraInfo ?? []).filter((_, i) => !standing.some((c) => c.index === i));
  return { values, otherInfo };
}

/** A value as message text: a date as DD/MM/YYYY, a checkbox as Sim/Não (as the product's greetings speak), a number as written. */
export function fieldText(field: Pick<CustomField, 'type'>, value: CustomFieldValue | undefined): string {
  if (value === undefined) return '';
  if (field.type === 'date' && typeof value === 'string') return value.split('-').reverse().join('/');
  if (field.type === 'checkbox') return value === true ? 'Sim' : 'Não';
  return String(value);
}

/** `{{contact.<key>}}` values of a contact, for `fillVariables`. */
export function contactVariables(
  fields: CustomField[],
  contact: { customFields?: CustomFieldValues; extraInfo?: { name: string; value: string }[] },
): Record<string, string> {
  const { values } = contactFieldValues(fields, contact);
  return Object.fromEntries(fieldsOf(fields, 'contact').map((f) => [f.key, fieldText(f, values[f.key])]));
}

/**
 * A spreadsheet row's contact field values (import): the column whose header is a field's name or key
 * (accents, case and spacing ignored) holds its value, read loosely (`"12,5"`, `"sim"`, `"31/12/2025"`).
 * An empty cell sets nothing; a value that does not fit is an issue naming the field, and the row's other
 * values still count.
 */
export function rowFieldValues(
  fields: CustomField[],
  row: Record<string, unknown>,
): { values: CustomFieldValues; issues: { key: string; message: string }[] } {
  const values: CustomFieldValues = {};
  const issues: { key: string; message: string }[] = [];
  const headers = Object.keys(row);
  for (const field of fieldsOf(fields, 'contact')) {
    const header = headers.find((h) => sameName(h, field.key)) ?? headers.find((h) => sameName(h, field.name));
    if (header === undefined) continue;
    const given = row[header];
    if (isEmpty(given)) continue;
    const checked = fieldValueOf(field, typeof given === 'number' ? given : String(given), true);
    if ('error' in checked) issues.push({ key: field.key, message: checked.error });
    else values[field.key] = checked.value;
  }
  return { values, issues };
}

/** The export's cells after name, number and email: one per contact field (in drawer order), as message text. */
export function contactFieldCells(
  fields: CustomField[],
  contact: { customFields?: CustomFieldValues; extraInfo?: { name: string; value: string }[] },
): (string | number)[] {
  const { values } = contactFieldValues(fields, contact);
  return fieldsOf(fields, 'contact').map((f) => {
    const v = values[f.key];
    return typeof v === 'number' ? v : fieldText(f, v);
  });
}
