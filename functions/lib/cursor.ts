import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from './errors';
import { cursorKey } from './secrets';
import type { Item, QueryOptions } from './db';

/**
 * Opaque, signed page cursors. A cursor carries the DynamoDB start key, the company it was made for
 * and, under the MAC, the scope it was made in: the key condition of the Query it continues (index,
 * partition, sort-key condition), or a name for a list that is not one Query. A cursor that was
 * tampered with, belongs to another company or comes from another list or partition is refused
 * with ERR_INVALID_CURSOR before it can reach DynamoDB as a foreign start key.
 */
export type CursorScope = string | Pick<QueryOptions, 'index' | 'pk' | 'sk'>;

const scopeText = (scope: CursorScope) =>
  typeof scope === 'string' ? scope : JSON.stringify([scope.index ?? '', scope.pk, scope.sk ?? null]);

async function mac(companyId: number, scope: CursorScope, payload: string) {
  return createHmac('sha256', await cursorKey())
    .update(JSON.stringify([companyId, scopeText(scope), payload]))
    .digest('base64url');
}

export async function encodeCursor(
  companyId: number,
  lastKey: Item | undefined,
  scope: CursorScope,
): Promise<string | undefined> {
  if (!lastKey) return undefined;
  const payload = Buffer.from(JSON.stringify({ c: companyId, k: lastKey })).toString('base64url');
  return `${payload}.${await mac(companyId, scope, payload)}`;
}

export async function decodeCursor(
  companyId: number,
  cursor: string | undefined,
  scope: CursorScope,
): Promise<Item | undefined> {
  if (!cursor) return undefined;
  const [payload, signature, ...rest] = cursor.split('.');
  if (!payload || !signature || rest.length) throw new AppError('ERR_INVALID_CURSOR');
  const expected = Buffer.from(await mac(companyId, scope, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new AppError('ERR_INVALID_CURSOR');
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { c: number; k: Item };
  if (decoded.c !== companyId) throw new AppError('ERR_INVALID_CURSOR');
  return decoded.k;
}

/** Page response: items, hasMore and the cursor of the next page (in the same scope). */
export async function page<T>(companyId: number, items: T[], lastKey: Item | undefined, scope: CursorScope) {
  return { items, hasMore: Boolean(lastKey), cursor: await encodeCursor(companyId, lastKey, scope) };
}
