import { z } from 'zod';

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
export const optionalId = z.coerce.number().int().positive().nullable().optional();

/** Query booleans arrive as 'true'/'false'. */
export const queryBool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

/** `queueIds` and similar may arrive as a JSON array string, a comma list or repeated params. */
export const idList = z
  .union([z.array(z.coerce.number()), z.string()])
  .transform((v) => {
    if (Array.isArray(v)) return v;
    const text = v.trim();
    if (!text) return [];
    if (text.startsWith('[')) return (JSON.parse(text) as unknown[]).map(Number);
    return text.split(',').map(Number);
  })
  .pipe(z.array(z.number().int()));

export const cursorQuery = z.object({
  cursor: z.string().optional(),
  /** accepted for compatibility with clients that page by number; paging itself is by cursor */
  pageNumber: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});

export const isoDate = z.string().datetime({ offset: true });
