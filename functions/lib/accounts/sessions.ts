import {
  MAX_SOCKETS_PER_SESSION,
  PLATFORM_COMPANY_ID,
  REFRESH_RETRY_GRACE_MS,
  REFRESH_TOKEN_DAYS,
  WS_TICKET_SECONDS,
} from '#shared/constants';
import type { User } from '#shared/schemas/accounts';
import { batchGet, deleteItem, getItem, putItem, query, updateItem, type Item, type Key } from '../db';
import { AppError } from '../errors';
import { ttlIn } from '../keys';
import { randomToken, sha256, signAccessToken, type AuthContext, type TokenClaims } from '../auth';
import { config } from '../config';
import { closeConnections, closeConnectionsWhere, openConnections } from '../realtime';
import { recordAudit } from '../audit/record';
import { auditBy, auditOncePerWindow, type AuditActor } from '../audit/actor';
import { LIMITS } from './limits';
import { findEmailOwner, toUser, userKeys } from './users';
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
 *
 * Sockets: the session item's string set `sockets` lists the WebSocket connections opened with it.
 * `$connect` adds its connection only while the session is current (conditional ADD), and ending a
 * session first marks it `endedAt` (one conditional write that answers the set as it then stands),
 * so a socket is either refused at `$connect` or listed when its session ends, and then closed
 * before the ending call returns.
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
  /** the hash of the refresh token `rtHash` replaced (a retry presents that one: consumeRefreshToken) */
  prevHash?: string;
  ttl: number;
  sockets?: Set<string>;
  /** set by the call that ends the session, just before the item is deleted */
  endedAt?: number;
}

/** A session that has not been ended (the item exists and is not marked). */
const CURRENT = 'attribute_exists(pk) AND attribute_not_exists(endedAt)';

/**
 * Starts a session (no `sessionId`) or continues one after a refresh (`replaces`: the hash of the
 * refresh token consumed); refused when it was revoked meanwhile.
 */
export async function issueSession(user: User, sessionId?: string, replaces?: string) {
  const refreshToken = randomToken();
  const id = sessionId ?? randomToken(12);
  const session = {
    rtHash: sha256(refreshToken),
    ttl: ttlIn(REFRESH_SECONDS),
    ...(replaces ? { prevHash: replaces } : {}),
  };
  if (sessionId) {
    const kept = await updateItem(sessionKeys(user.companyId, user.id, id), { set: session, condition: CURRENT });
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

/**
 * Consumes a refresh token; undefined when it is unknown, expired or revoked, or used before and
 * not a retry (which revokes its session: a stolen or replayed token). A retry is a used token
 * presented again within REFRESH_RETRY_GRACE_MS while the token issued in its place has never been
 * used (that one is then dropped, so the session keeps one chain): the browser that lost the
 * answer. The app refreshes on every page load, so a reload while a refresh ran left the browser
 * with the token it sent, and its next load signed the user out. Once the successor was used, the
 * old token can only be a replay.
 */
export async function consumeRefreshToken(token: string): Promise<(RefreshItem & { replaces: string }) | undefined> {
  const item = await getItem<RefreshItem>(refreshKeys(token), { consistent: true });
  if (!item || item.ttl < Date.now() / 1000) return undefined;
  // a token already used is not marked again; one whose mark fails was used a moment ago
  const fresh =
    item.usedAt === undefined &&
    (await updateItem(refreshKeys(token), { set: { usedAt: Date.now() }, condition: 'attribute_not_exists(usedAt)' }));
  const usedAt = item.usedAt ?? Date.now();
  const session = await getItem<SessionItem>(sessionKeys(item.companyId, item.userId, item.sessionId), {
    consistent: true,
  });
  if (!session || session.endedAt) return undefined;
  if (fresh || (await isRetry(token, usedAt, session))) return { ...item, replaces: sha256(token) };
  await revokeSession(item.companyId, item.userId, item.sessionId);
  return undefined;
}

/** A used token presented again by the browser that lost the answer (consumeRefreshToken). */
async function isRetry(token: string, usedAt: number, session: SessionItem) {
  if (Date.now() - usedAt > REFRESH_RETRY_GRACE_MS) return false;
  const hash = sha256(token);
  // two refreshes at once with the same token: the first has not written its successor yet
  if (session.rtHash === hash) return true;
  // only the token the current one replaced: an older one's successor was used
  if (session.prevHash !== hash) return false;
  const successor = await getItem<RefreshItem>(refreshKeysByHash(session.rtHash), { consistent: true });
  if (!successor || successor.usedAt) return false;
  await deleteItem(refreshKeysByHash(session.rtHash));
  return true;
}

/**
 * Ends a session: marked, so no socket joins it any more and the mark answers the sockets it has;
 * then the session and its refresh token are deleted and those sockets closed.
 */
export async function revokeSession(companyId: number, userId: number, sessionId: string) {
  const key = sessionKeys(companyId, userId, sessionId);
  const ended = await updateItem<SessionItem>(key, { set: { endedAt: Date.now() }, condition: 'attribute_exists(pk)' });
  await deleteItem(key);
  checked.delete(`${key.pk}|${key.sk}`);
  if (ended?.rtHash) await deleteItem(refreshKeysByHash(ended.rtHash));
  await closeConnections(companyId, [...(ended?.sockets ?? [])]);
}

/**
 * Logout: ends the session of the refresh cookie (the browser), and the one the access token names
 * (an API client has no cookie). Either proves that its holder held the session. Returns whose
 * sessions ended (none when neither named a live session).
 */
export async function logout(
  refreshToken: string | undefined,
  claims: TokenClaims | undefined,
): Promise<{ companyId: number; userId: number }[]> {
  const item = refreshToken ? await getItem<RefreshItem>(refreshKeys(refreshToken)) : undefined;
  const sessions = [item, claims].filter((s): s is RefreshItem | TokenClaims => s !== undefined);
  const unique = new Map(sessions.map((s) => [`${s.companyId}#${s.userId}#${s.sessionId}`, s]));
  await Promise.all([...unique.values()].map((s) => revokeSession(s.companyId, s.userId, s.sessionId)));
  const users = new Map(
    sessions.map((s) => [`${s.companyId}#${s.userId}`, { companyId: s.companyId, userId: s.userId }]),
  );
  return [...users.values()];
}

/** Ends every session of a user (password change or reset, deletion), except `keep` (the caller's own); how many ended. */
export async function revokeUserSessions(companyId: number, userId: number, keep?: string) {
  let startKey: Item | undefined;
  let ended = 0;
  do {
    const page = await query<SessionItem & Key>({ pk: sessionPk(companyId, userId), startKey });
    const doomed = page.items.filter((s) => s.sk !== `S#${keep}`);
    await Promise.all(doomed.map((s) => revokeSession(companyId, userId, s.sk.slice('S#'.length))));
    ended += doomed.length;
    startKey = page.lastKey;
  } while (startKey);
  return ended;
}

/** `DELETE /auth/sessions` ("sign out everywhere"): every session of the caller ends, this one included. */
export async function logoutEverywhere(auth: Pick<AuthContext, 'companyId' | 'userId'>, by: AuditActor) {
  const sessions = await revokeUserSessions(auth.companyId, auth.userId);
  await auditBy(by, { action: 'auth.logout_all', target: { type: 'user', id: auth.userId }, changes: { sessions } });
}

/**
 * Who may hold a session in the company now: nobody once it is disabled or being deleted; after its
 * due date only its admins (and super users), in a session restricted to paying (`restricted`), so
 * they can renew at once; attendants are refused until it is paid.
 */
export function mayHoldSession(company: StoredCompany, user: { profile: string; super: boolean }) {
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
 * per instance (config), so a revocation or a demotion holds from the next request after that;
 * `fresh` (the WebSocket routes) reads past the cache, strongly consistent.
 */
export async function currentSession(
  claims: Pick<TokenClaims, 'companyId' | 'userId' | 'sessionId'>,
  opts: { fresh?: boolean } = {},
): Promise<AuthContext> {
  const sessionKey = sessionKeys(claims.companyId, claims.userId, claims.sessionId);
  const cacheKey = `${sessionKey.pk}|${sessionKey.sk}`;
  const cached = checked.get(cacheKey);
  if (cached && cached.until > Date.now() && !opts.fresh) return cached.auth;
  const userKey = userKeys(claims.companyId, claims.userId);
  const companyKey = companyKeys(claims.companyId);
  const found = await batchGet<Key & Record<string, unknown>>([userKey, sessionKey, companyKey], {
    consistent: opts.fresh,
  });
  const userItem = found.find((i) => i.sk === userKey.sk && i.pk === userKey.pk);
  const session = found.find((i) => i.pk.startsWith('SESSIONS#')) as (Key & SessionItem) | undefined;
  const company = found.find((i) => i.sk === companyKey.sk && i.pk === companyKey.pk) as StoredCompany | undefined;
  const user = userItem && toUser(userItem);
  if (
    !user ||
    !session ||
    session.endedAt ||
    session.ttl < Date.now() / 1000 ||
    !company ||
    !mayHoldSession(company, user)
  ) {
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

/**
 * `$connect`: lists the connection on its session, only while the session is current and holds
 * fewer than MAX_SOCKETS_PER_SESSION sockets (the tabs of one sign-in; every event of the company is
 * posted to each socket, so an unbounded number is a way to flood the stack). `ended`: the session
 * ended meanwhile; `full`: it has that many sockets open, after the ones that ended without their
 * `$disconnect` left the list. Either way the caller removes the connection it saved and refuses it.
 */
export async function attachSocket(
  session: Pick<TokenClaims, 'companyId' | 'userId' | 'sessionId'>,
  connectionId: string,
): Promise<'attached' | 'ended' | 'full'> {
  const key = sessionKeys(session.companyId, session.userId, session.sessionId);
  const attach = () =>
    updateItem(key, {
      add: { sockets: new Set([connectionId]) },
      condition: `${CURRENT} AND (attribute_not_exists(#sockets) OR size(#sockets) < :max)`,
      conditionNames: { '#sockets': 'sockets' },
      conditionValues: { ':max': MAX_SOCKETS_PER_SESSION },
    });
  if (await attach()) return 'attached';
  const item = await getItem<SessionItem>(key, { consistent: true });
  if (!item || item.endedAt) return 'ended';
  const listed = [...(item.sockets ?? [])];
  const open = await openConnections(listed);
  const gone = listed.filter((id) => !open.has(id));
  if (!gone.length) return 'full';
  await updateItem(key, { deleteFromSet: { sockets: new Set(gone) }, condition: CURRENT });
  return (await attach()) ? 'attached' : 'full';
}

/**
 * `$disconnect`: the connection leaves its session's list. A socket that ended without one (a post
 * found it gone) stays listed until the session ends, when closing it costs nothing.
 */
export async function detachSocket(
  session: Pick<TokenClaims, 'companyId' | 'userId' | 'sessionId'>,
  connectionId: string,
) {
  await updateItem(sessionKeys(session.companyId, session.userId, session.sessionId), {
    deleteFromSet: { sockets: new Set([connectionId]) },
    condition: CURRENT,
  });
}

/**
 * The company's sockets whose users may no longer hold a session there (`mayHoldSession`: after its
 * due date all but its admins and super users; disabled or being deleted, everyone) close at once.
 */
export async function closeBarredSockets(company: StoredCompany) {
  await closeConnectionsWhere(company.id, (conn) => !mayHoldSession(company, conn));
}

/**
 * A sign-in refused for its credentials goes on the trail of the company whose user the e-mail names
 * (else the platform's), with the client's address; the rate limiter bounds how many there are.
 * Refusals by the limiter itself (ERR_TOO_MANY_ATTEMPTS) are as many as an attacker sends: they make
 * one `auth.signin_blocked` entry per address and limiter window, on the platform's trail, naming
 * the address only (not the e-mail, nor whose it is). Rethrows the error.
 */
export async function auditSignInFailure(err: unknown, email: string, address: string): Promise<never> {
  if (err instanceof AppError && err.code === 'ERR_INVALID_CREDENTIALS') {
    const owner = await findEmailOwner(email);
    await recordAudit({
      companyId: owner?.companyId ?? PLATFORM_COMPANY_ID,
      action: 'auth.signin_failed',
      address,
      target: owner
        ? { type: 'user', id: owner.userId, name: email.toLowerCase() }
        : { type: 'email', id: email.toLowerCase() },
    });
  }
  if (err instanceof AppError && err.code === 'ERR_TOO_MANY_ATTEMPTS') {
    await auditOncePerWindow(`signin_blocked#${address}`, LIMITS.loginPerAddress.windowSeconds, {
      companyId: PLATFORM_COMPANY_ID,
      action: 'auth.signin_blocked',
      address,
      target: { type: 'address', id: address },
    });
  }
  throw err;
}

/** A password reset by e-mailed code, on the user's company trail (no actor: the caller had no session). */
export async function auditPasswordReset(email: string, address: string) {
  const owner = await findEmailOwner(email);
  if (!owner) return;
  await recordAudit({
    companyId: owner.companyId,
    action: 'auth.password_changed',
    address,
    target: { type: 'user', id: owner.userId, name: email.toLowerCase() },
    changes: { via: 'reset' },
  });
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
