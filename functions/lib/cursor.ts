import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from './errors';
import { signingKey } from './secrets';
import type { Item } from './db';

/**
 * Opaque, signed page cursors. A cursor carries the DynamoDB start key and the company it was made
 * for; one that was tampered with or belongs to another company is refused.
 */
async function mac(payload: string) {
  return createHmac('sha256', Buffer.from(await signingKey()))
    .update(payload)
    .digest('base64url');
}

export async function encodeCursor(companyId: number, lastKey: Item | undefined): Promise<string | undefined> {
  if (!lastKey) return undefined;
  const payload = Buffer.from(JSON.stringify({ c: companyId, k: lastKey })).toString('base64url');
  return `${payload}.${await mac(payload)}`;
}

export async function decodeCursor(companyId: number, cursor: string | undefined): Promise<Item | undefined> {
  if (!cursor) return undefined;
  const [payload, signature] = cursor.split('.');
  if (!payload || !signature) throw new AppError('ERR_INVALID_CURSOR');
  const expected = Buffer.from(await mac(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new AppError('ERR_INVALID_CURSOR');
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString());
  if (decoded.c !== companyId) throw new AppError('ERR_INVALID_CURSOR');
  return decoded.k;
}

/** Page response: items, hasMore and the cursor of the next page. */
export async function page<T>(companyId: number, items: T[], lastKey: Item | undefined) {
  return { items, hasMore: Boolean(lastKey), cursor: await encodeCursor(companyId, lastKey) };
}
