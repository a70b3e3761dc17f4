import type { z } from 'zod';

/** First message per field of a failed zod parse: `{ email: 'email', name: 'short' }` (translation keys). */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '_');
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}
