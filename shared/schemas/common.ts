import { z } from 'zod';
import { MAX_QUERY_IDS } from '../constants';

/** Validation messages as translation keys; the web maps them to text in pt, en and es. */
export const MSG = {
  required: 'required',
  short: 'short',
  long: 'long',
  invalid: 'invalid',
  email: 'email',
} as const;

export const name2to50 = z.string({ error: MSG.required }).trim().min(2, MSG.short).max(50, MSG.long);
export const email = z.string({ error: MSG.required }).trim().toLowerCase().email(MSG.email).max(254, MSG.long);
export const password5to50 = z.string({ error: MSG.required }).min(5, MSG.short).max(50, MSG.long);
export const strongPassword = z
  .string({ error: MSG.required })
  .min(8, MSG.short)
  .max(100, MSG.long)
  .regex(/[a-z]/, MSG.invalid)
  .regex(/[A-Z]/, MSG.invalid)
  .regex(/\d/, MSG.invalid);

/** Path/query ids arrive as strings. */
export const idParam = z.coerce.number().int().positive();

/**
 * Numbers in JSON bodies: a number, or digits from a form field. Not z.coerce, which belongs to
 * query strings and path params: it turns null, '', false and [] into 0 and true into 1.
 */
export const bodyInt = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^-?\d+$/)
        .transform(Number),
    ],
    { error: MSG.required },
  )
  .pipe(z.number().int(MSG.invalid));
export const bodyId = bodyInt.pipe(z.number().positive(MSG.invalid));
/** An optional reference in a body: null or '' clears it. */
export const nullableBodyId = z.union([z.null(), z.literal('').transform(() => null), bodyId], { error: MSG.invalid });

/** Query booleans arrive as 'true'/'false'. */
export const queryBool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

/**
 * `queueIds` and similar may arrive as a JSON array string, a comma list or repeated params; at most
 * MAX_QUERY_IDS of them, so one filter cannot fan out into a flood of reads or an oversized expression.
 */
export const idList = z
  .union([z.array(z.string()), z.string()])
  .transform((v, ctx) => {
    if (Array.isArray(v)) return v;
    const text = v.trim();
    if (!text) return [];
    if (!text.startsWith('[')) return text.split(',');
    try {
      const parsed: unknown = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: MSG.invalid });
    return z.NEVER;
  })
  .pipe(z.array(z.coerce.number().int().positive()).max(MAX_QUERY_IDS, MSG.long));

/**
 * Lists page by cursor, so a page past the first is reached only through the cursor the previous
 * page returned: `pageNumber` above 1 without one is refused, never answered with the first page.
 */
export function pageNumberNeedsCursor<S extends z.ZodType<{ cursor?: string; pageNumber?: number }>>(schema: S): S {
  return schema.refine((q) => (q.pageNumber ?? 1) === 1 || Boolean(q.cursor), {
    path: ['pageNumber'],
    message: MSG.invalid,
  });
}

export const cursorFields = {
  cursor: z.string().optional(),
  /** accepted for clients that page by number: 1, or any number alongside the cursor that reaches it */
  pageNumber: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
};
export const cursorQuery = pageNumberNeedsCursor(z.object(cursorFields));

export const isoDate = z.string().datetime({ offset: true });
