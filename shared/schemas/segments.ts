import { z } from 'zod';
import { foldAccents } from '../fold';
import { MSG } from './common';
import {
  CUSTOM_FIELD_KEY,
  contactFieldValues,
  fieldValueOf,
  fieldsOf,
  type CustomField,
  type CustomFieldValue,
  type CustomFieldValues,
} from './custom-fields';

/**
 * Contact segments (issue 40, item 1): a named contact filter saved per company. Campaigns take one
 * as their audience (the contacts matching when the campaign is planned), the contacts page lists
 * one, and automation rules can ask whether a contact is in one. `contactMatchesSegment` is the one
 * reading of a segment, for the server and the web app alike.
 */
export const MAX_SEGMENTS = 100;
export const MAX_SEGMENT_CONDITIONS = 20;
/** The tags of one tag condition (the contacts of tickets with any of them are read, one tag at a time). */
export const MAX_SEGMENT_TAGS = 10;

export const SEGMENT_FIELD_OPS = ['eq', 'neq', 'contains', 'gt', 'lt', 'empty', 'not_empty'] as const;
export type SegmentFieldOp = (typeof SEGMENT_FIELD_OPS)[number];
/** What each field type can be asked (a `contains` on a checkbox means nothing). */
export const FIELD_OPS_BY_TYPE: Record<CustomField['type'], readonly SegmentFieldOp[]> = {
  text: ['eq', 'neq', 'contains', 'empty', 'not_empty'],
  link: ['eq', 'neq', 'contains', 'empty', 'not_empty'],
  list: ['eq', 'neq', 'empty', 'not_empty'],
  checkbox: ['eq', 'neq', 'empty', 'not_empty'],
  number: ['eq', 'neq', 'gt', 'lt', 'empty', 'not_empty'],
  date: ['eq', 'neq', 'gt', 'lt', 'empty', 'not_empty'],
};
const VALUELESS: readonly SegmentFieldOp[] = ['empty', 'not_empty'];

const text = z.string({ error: MSG.required }).trim().min(1, MSG.required).max(100, MSG.long);

export const SegmentCondition = z.discriminatedUnion('type', [
  /** the contact has a ticket with any of these tags (tags are put on tickets) */
  z
    .object({
      type: z.literal('tag'),
      ids: z.array(z.number().int().positive()).min(1, MSG.required).max(MAX_SEGMENT_TAGS, MSG.long),
    })
    .strict(),
  /** a contact custom field; the value is read as the field's type when the segment is saved */
  z
    .object({
      type: z.literal('field'),
      key: z.string().regex(CUSTOM_FIELD_KEY, MSG.invalid),
      op: z.enum(SEGMENT_FIELD_OPS),
      value: z.union([z.string().max(2000, MSG.long), z.number(), z.boolean()]).optional(),
    })
    .strict(),
  /** the name holds the text (accents and case ignored) */
  z.object({ type: z.literal('name'), op: z.literal('contains'), value: text }).strict(),
  /** the number's digits start with, or hold, the given digits */
  z
    .object({
      type: z.literal('number'),
      op: z.enum(['starts_with', 'contains']),
      value: z
        .string({ error: MSG.required })
        .transform((v) => v.replace(/\D/g, ''))
        .pipe(z.string().min(1, MSG.required).max(30, MSG.long)),
    })
    .strict(),
]);
export type SegmentCondition = z.infer<typeof SegmentCondition>;

export const Segment = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  /** all of them must hold */
  conditions: z.array(SegmentCondition),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Segment = z.infer<typeof Segment>;

const conditions = z
  .array(SegmentCondition)
  .min(1, MSG.required)
  .max(MAX_SEGMENT_CONDITIONS, MSG.long)
  .superRefine((list, ctx) => {
    // the tag condition chooses where the contacts are read from: one per segment
    if (list.filter((c) => c.type === 'tag').length > 1)
      ctx.addIssue({ code: 'custom', path: [], message: MSG.invalid });
    list.forEach((c, i) => {
      if (c.type !== 'field') return;
      const needs = !VALUELESS.includes(c.op);
      const has = c.value !== undefined && c.value !== '';
      if (needs !== has)
        ctx.addIssue({ code: 'custom', path: [i, 'value'], message: needs ? MSG.required : MSG.invalid });
    });
  });

/** POST /segments (admins). The field conditions are checked against the definitions by `checkSegmentFields`. */
export const SegmentBody = z
  .object({ name: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(60, MSG.long), conditions })
  .strict();
export type SegmentBody = z.infer<typeof SegmentBody>;

/** PUT /segments/{id}: the name, the conditions, or both. */
export const SegmentUpdateBody = SegmentBody.partial().strict();
export type SegmentUpdateBody = z.infer<typeof SegmentUpdateBody>;

export interface FieldIssue {
  path: (string | number)[];
  message: string;
}

/**
 * The conditions with each field condition's value read as its field's type (`"12,5"` -> 12.5,
 * `"31/12/2025"` -> `2025-12-31`, a list option in its own case), or the issues: a key no contact
 * field has, an operator the type does not answer, a value the field refuses.
 */
export function checkSegmentFields(
  fields: CustomField[],
  list: SegmentCondition[],
): { conditions: SegmentCondition[]; issues: FieldIssue[] } {
  const byKey = new Map(fieldsOf(fields, 'contact').map((f) => [f.key, f]));
  const issues: FieldIssue[] = [];
  const out = list.map((c, i): SegmentCondition => {
    if (c.type !== 'field') return c;
    const field = byKey.get(c.key);
    if (!field) {
      issues.push({ path: ['conditions', i, 'key'], message: 'unknown' });
      return c;
    }
    if (!FIELD_OPS_BY_TYPE[field.type].includes(c.op)) {
      issues.push({ path: ['conditions', i, 'op'], message: MSG.invalid });
      return c;
    }
    if (c.value === undefined || c.op === 'contains') return c;
    const checked = fieldValueOf(field, typeof c.value === 'number' ? c.value : c.value, true);
    if ('error' in checked) {
      issues.push({ path: ['conditions', i, 'value'], message: checked.error });
      return c;
    }
    return { ...c, value: checked.value };
  });
  return { conditions: out, issues };
}

/** What a segment is asked about a contact; `tagIds`: the tags of the contact's tickets, when known. */
export interface SegmentContact {
  name: string;
  number: string;
  customFields?: CustomFieldValues;
  extraInfo?: { name: string; value: string }[];
  tagIds?: number[];
}

const same = (a: CustomFieldValue, b: CustomFieldValue) =>
  typeof a === 'string' && typeof b === 'string' ? foldAccents(a) === foldAccents(b) : a === b;

function fieldHolds(c: Extract<SegmentCondition, { type: 'field' }>, value: CustomFieldValue | undefined): boolean {
  if (c.op === 'empty') return value === undefined;
  if (c.op === 'not_empty') return value !== undefined;
  if (c.op === 'neq') return value === undefined || c.value === undefined || !same(value, c.value);
  if (value === undefined || c.value === undefined) return false;
  if (c.op === 'eq') return same(value, c.value);
  if (c.op === 'contains') return foldAccents(String(value)).includes(foldAccents(String(c.value)));
  // numbers compare as numbers, dates (YYYY-MM-DD) as text
  if (typeof value !== typeof c.value) return false;
  return c.op === 'gt' ? value > c.value : value < c.value;
}

/**
 * Whether a contact is in a segment: every condition holds. Field values are the contact's as the
 * drawer shows them (its own, then what its extra info gives: custom-fields.ts `contactFieldValues`);
 * a field no longer defined is empty. A tag condition needs `tagIds`: without them it does not hold.
 */
export function contactMatchesSegment(
  segment: Pick<Segment, 'conditions'>,
  contact: SegmentContact,
  fields: CustomField[],
): boolean {
  const hasField = segment.conditions.some((c) => c.type === 'field');
  const values = hasField ? contactFieldValues(fields, contact).values : {};
  return segment.conditions.every((c) => {
    switch (c.type) {
      case 'tag':
        return Boolean(contact.tagIds?.some((id) => c.ids.includes(id)));
      case 'name':
        return foldAccents(contact.name).includes(foldAccents(c.value));
      case 'number': {
        const digits = contact.number.replace(/\D/g, '');
        return c.op === 'starts_with' ? digits.startsWith(c.value) : digits.includes(c.value);
      }
      default:
        return fieldHolds(c, values[c.key]);
    }
  });
}
