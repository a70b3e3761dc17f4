import { REFRESH_TOKEN_DAYS, WS_TICKET_SECONDS } from '#shared/constants';
import type { User } from '#shared/schemas/accounts';
import { batchGet, deleteItem, getItem, putItem, query, updateItem, type Item, type Key } from '../db';
import { AppError } from '../errors';
import { ttlIn } from '../keys';
import { randomToken, sha256, signAccessToken, type AuthContext, type TokenClaims } from '../auth';
import { config } from '../config';
import { toUser, userKeys } from './users';
import { companyKeys, isCompanyExpired, type StoredCompany } from './companies';

/**
 * A login session: `SESSIONS#<companyId>#<userId>` / `S#<sessionId>`, with the hash of its current
 * refresh token and a TTL. Every access token names its session, and `currentSession` checks that the
 * session and the user still exist, so deleting the session item (logout, reuse of a rotated refresh
 * token, password change, user deletion) takes effect on the next request. The user's sessions share a
 * partition, so they are revoked with one Query, no Scan.
 *
 * Refresh tokens: `RT#<sha256(token)>` / `RT`; the raw token lives only in the browser's httpOnly
 * cookie. Refreshing marks the token used (conditionally: concurrent refreshes get one success) and
 * issues the next one of the same session; a used token presented again means it was stolen or
 * replayed, and the whole session is revoked.
 */
const sessionPk = (companyId: number, userId: number) => `SESSIONS#${companyId}#${userId}`;
const sessionKeys = (companyId: number, userId: number, sessionId: string) => ({
  pk: sessionPk(companyId, userId),
  sk: `S#${sessionId}`,
});
const refreshKeys = (token: string) => refreshKeysByHash(sha256(token));
const refreshKeysByHash = (hash: string) => ({ pk: `RT#${hash}`, sk: 'RT' });
const wsTicketKeys = (jti: string) => ({ pk: `WSTICKET#${jti}`, sk: 'WSTICKET' });
const REFRESH_SECONDS = REFRESH_TOKEN_DAYS * 24 * 3600;
export const REFRESH_COOKIE = 'jrt';

interface RefreshItem {
  companyId: number;
  userId: number;
  sessionId: string;
  ttl: number;
  usedAt?: number;
}

interface SessionItem {
  rtHash: string;
  ttl: number;
}

/** Starts a session (no `sessionId`) or continues one after a refresh; refused when it was revoked meanwhile. */
export async function issueSession(user: User, sessionId?: string) {
  const refreshToken = randomToken();
  const id = sessionId ?? randomToken(12);
  const session = { rtHash: sha256(refreshToken), ttl: ttlIn(REFRESH_SECONDS) };
  if (sessionId) {
    const kept = await updateItem(sessionKeys(user.companyId, user.id, id), {
      set: session,
      condition: 'attribute_exists(pk)',
    });
    if (!kept) throw new AppError('ERR_SESSION_EXPIRED', 401);
  } else {
    await putItem({ ...sessionKeys(user.companyId, user.id, id), ...session });
  }
  await putItem({
    ...refreshKeys(refreshToken),
    companyId: user.companyId,
    userId: user.id,
    sessionId: id,
    ttl: session.ttl,
  });
  const token = await signAccessToken({ companyId: user.companyId, userId: user.id }, id);
  return { token, refreshToken, sessionId: id };
}

/** Consumes a refresh token; undefined when it is unknown, expired, already used (which revokes its session) or revoked. */
export async function consumeRefreshToken(token: string): Promise<RefreshItem | undefined> {
  const item = await getItem<RefreshItem>(refreshKeys(token));
  if (!item || item.ttl < Date.now() / 1000) return undefined;
  const fresh = await updateItem(refreshKeys(token), {
    set: { usedAt: Date.now() },
    condition: 'attribute_not_exists(usedAt)',
  });
  if (!fresh) {
    await revokeSession(item.companyId, item.userId, item.sessionId);
    return undefined;
  }
  const session = await getItem<SessionItem>(sessionKeys(item.companyId, item.userId, item.sessionId));
  return session ? item : undefined;
}

async function deleteSession(key: Key, session: SessionItem | undefined) {
  await deleteItem(key);
  checked.delete(`${key.pk}|${key.sk}`);
  if (session?.rtHash) await deleteItem(refreshKeysByHash(session.rtHash));
}

export async function revokeSession(companyId: number, userId: number, sessionId: string) {
  const key = sessionKeys(companyId, userId, sessionId);
  await deleteSession(key, await getItem<SessionItem>(key));
}

/** Logout: ends the session of the refresh cookie. */
export async function revokeSessionOfRefreshToken(token: string) {
  const item = await getItem<RefreshItem>(refreshKeys(token));
  if (item) await revokeSession(item.companyId, item.userId, item.sessionId);
}

/** Ends every session of a user (password change or reset, deletion), except `keep` (the caller's own). */
export async function revokeUserSessions(companyId: number, userId: number, keep?: string) {
  let startKey: Item | undefined;
  do {
    const page = await query<SessionItem & Key>({ pk: sessionPk(companyId, userId), startKey });
    const doomed = page.items.filter((s) => s.sk !== `S#${keep}`);
    await Promise.all(doomed.map((s) => deleteSession({ pk: s.pk, sk: s.sk }, s)));
    startKey = page.lastKey;
  } while (startKey);
}

/**
 * Who may hold a session in the company now: nobody once it is disabled or being deleted; after its
 * due date only its admins (and super users), in a session restricted to paying (`restricted`), so
 * they can renew at once; attendants are refused until it is paid.
 */
export function mayHoldSession(company: StoredCompany, user: Pick<User, 'profile' | 'super'>) {
  if (company.status === false || company.deletingAt) return false;
  return !isCompanyExpired(company) || user.profile === 'admin' || user.super;
}

/** Sessions this instance checked lately, by the session item's key. */
const checked = new Map<string, { until: number; auth: AuthContext }>();

/** A change of the user (profile, super, queues) holds from this instance's next request. */
export function forgetCheckedSessions(companyId: number, userId: number) {
  const prefix = `${sessionPk(companyId, userId)}|`;
  for (const key of checked.keys()) if (key.startsWith(prefix)) checked.delete(key);
}

/**
 * The caller of a verified token as the store knows it now: the session must still exist and the
 * user's profile and `super` come from the user item, not from the token. Cached for a few seconds
 * per instance (config), so a revocation or a demotion holds from the next request after that.
 */
export async function currentSession(claims: TokenClaims): Promise<AuthContext> {
  const sessionKey = sessionKeys(claims.companyId, claims.userId, claims.sessionId);
  const cacheKey = `${sessionKey.pk}|${sessionKey.sk}`;
  const cached = checked.get(cacheKey);
  if (cached && cached.until > Date.now()) return cached.auth;
  const userKey = userKeys(claims.companyId, claims.userId);
  const companyKey = companyKeys(claims.companyId);
  const found = await batchGet<Key & Record<string, unknown>>([userKey, sessionKey, companyKey]);
  const userItem = found.find((i) => i.sk === userKey.sk && i.pk === userKey.pk);
  const session = found.find((i) => i.pk.startsWith('SESSIONS#')) as (Key & SessionItem) | undefined;
  const company = found.find((i) => i.sk === companyKey.sk && i.pk === companyKey.pk) as StoredCompany | undefined;
  const user = userItem && toUser(userItem);
  if (!user || !session || session.ttl < Date.now() / 1000 || !company || !mayHoldSession(company, user)) {
    checked.delete(cacheKey);
    throw new AppError('ERR_SESSION_EXPIRED', 401);
  }
  const auth: AuthContext = {
    companyId: user.companyId,
    userId: user.id,
    profile: user.profile,
    super: user.super,
    sessionId: claims.sessionId,
    ...(isCompanyExpired(company) ? { restricted: true } : {}),
  };
  const seconds = config().sessionCacheSeconds;
  if (seconds > 0) checked.set(cacheKey, { until: Date.now() + seconds * 1000, auth });
  return auth;
}

/** A WebSocket ticket opens one socket: its `jti` is recorded at the first `$connect`. */
export async function consumeWsTicket(jti: string | undefined) {
  if (!jti) throw new AppError('ERR_SESSION_EXPIRED', 401);
  try {
    await putItem({ ...wsTicketKeys(jti), ttl: ttlIn(WS_TICKET_SECONDS + 60) }, { ifNotExists: true });
  } catch (err) {
    if (err instanceof AppError) throw new AppError('ERR_SESSION_EXPIRED', 401);
    throw err;
  }
}

export function refreshCookie(token: string | null) {
  const secure = config().appOrigin?.startsWith('https://') ? '; Secure' : '';
  const maxAge = token ? REFRESH_SECONDS : 0;
  return `${REFRESH_COOKIE}=${token ?? ''}; HttpOnly; SameSite=Strict; Path=/api/auth; Max-Age=${maxAge}${secure}`;
}
