import { REFRESH_TOKEN_DAYS } from '#shared/constants';
import type { User } from '#shared/schemas/accounts';
import { deleteItem, getItem, putItem, updateItem } from '../db';
import { ttlIn } from '../keys';
import { randomToken, sha256, signAccessToken } from '../auth';
import { config } from '../config';

/**
 * Refresh tokens: `RT#<sha256(token)>` / `RT`, with TTL; the raw token lives only in the browser's
 * httpOnly cookie. Refreshing deletes the old item (conditionally, so a stolen token replayed after
 * rotation fails) and issues a new one.
 */
const refreshKeys = (token: string) => ({ pk: `RT#${sha256(token)}`, sk: 'RT' });
const REFRESH_SECONDS = REFRESH_TOKEN_DAYS * 24 * 3600;
export const REFRESH_COOKIE = 'jrt';

interface RefreshItem {
  companyId: number;
  userId: number;
  sessionId: string;
}

export async function issueSession(user: User, sessionId = randomToken(12)) {
  const refreshToken = randomToken();
  await putItem({
    ...refreshKeys(refreshToken),
    companyId: user.companyId,
    userId: user.id,
    sessionId,
    ttl: ttlIn(REFRESH_SECONDS),
  });
  const token = await signAccessToken(
    { companyId: user.companyId, userId: user.id, profile: user.profile, super: user.super },
    sessionId,
  );
  return { token, refreshToken, sessionId };
}

/** Consumes a refresh token; undefined when it is unknown, expired or already used. */
export async function consumeRefreshToken(token: string): Promise<RefreshItem | undefined> {
  const item = await getItem<RefreshItem & { ttl: number }>(refreshKeys(token));
  if (!item || item.ttl < Date.now() / 1000) return undefined;
  const deleted = await updateItem(refreshKeys(token), {
    set: { usedAt: Date.now() },
    condition: 'attribute_not_exists(usedAt)',
  });
  if (!deleted) return undefined;
  await deleteItem(refreshKeys(token));
  return item;
}

export async function revokeRefreshToken(token: string) {
  await deleteItem(refreshKeys(token));
}

export function refreshCookie(token: string | null) {
  const secure = config().appOrigin?.startsWith('https://') ? '; Secure' : '';
  const maxAge = token ? REFRESH_SECONDS : 0;
  return `${REFRESH_COOKIE}=${token ?? ''}; HttpOnly; SameSite=Strict; Path=/api/auth; Max-Age=${maxAge}${secure}`;
}
