import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { randomBytes, scrypt as scryptCb, timingSafeEqual, createHash } from 'node:crypto';
import { promisify } from 'node:util';
import type { HttpEvent } from './http';
import { ACCESS_TOKEN_SECONDS, WS_TICKET_SECONDS } from '#shared/constants';
import { signingKey } from './secrets';
import { AppError } from './errors';

const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: object,
) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export interface AuthContext {
  companyId: number;
  userId: number;
  profile: string;
  super: boolean;
  /** set on routes that need no session */
  public?: boolean;
}

/** `scrypt$N$r$p$salt$hash`, all base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32, SCRYPT);
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  if (!stored) return false;
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(N),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return timingSafeEqual(expected, actual);
}

export async function signAccessToken(auth: Omit<AuthContext, 'public'>, sessionId: string): Promise<string> {
  return new SignJWT({
    companyId: auth.companyId,
    profile: auth.profile,
    super: auth.super,
    sid: sessionId,
    typ: 'access',
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(auth.userId))
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
    .sign(await signingKey());
}

/** Short-lived ticket for the WebSocket `$connect` query string (never the access token itself). */
export async function signWsTicket(auth: AuthContext): Promise<string> {
  return new SignJWT({ companyId: auth.companyId, profile: auth.profile, super: auth.super, typ: 'ws' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(auth.userId))
    .setIssuedAt()
    .setExpirationTime(`${WS_TICKET_SECONDS}s`)
    .sign(await signingKey());
}

async function verify(token: string, typ: 'access' | 'ws'): Promise<AuthContext & { sid?: string }> {
  try {
    const { payload } = await jwtVerify(token, await signingKey(), { algorithms: ['HS256'] });
    if (payload.typ !== typ) throw new AppError('ERR_SESSION_EXPIRED', 401);
    return {
      companyId: Number(payload.companyId),
      userId: Number(payload.sub),
      profile: String(payload.profile),
      super: Boolean(payload.super),
      sid: payload.sid as string | undefined,
    };
  } catch (err) {
    // An expired token answers 403 so the client refreshes once (attendance.md 4.1); anything
    // else is not a session at all.
    if (err instanceof joseErrors.JWTExpired) throw new AppError('ERR_SESSION_EXPIRED', 403);
    throw new AppError('ERR_SESSION_EXPIRED', 401);
  }
}

export const verifyWsTicket = (ticket: string) => verify(ticket, 'ws');

/** Reads the bearer token; undefined when there is none. */
export async function authenticate(event: HttpEvent): Promise<AuthContext | undefined> {
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  const { sid: _sid, ...auth } = await verify(header.slice(7).trim(), 'access');
  return auth;
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');
