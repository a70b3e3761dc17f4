import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { randomBytes, scrypt as scryptCb, timingSafeEqual, createHash } from 'node:crypto';
import { promisify } from 'node:util';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ACCESS_TOKEN_SECONDS, WS_TICKET_SECONDS } from '#shared/constants';
import { jwtHmacKey } from './secrets';
import { config } from './config';
import { AppError } from './errors';
import { remember } from './lru';

const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: object,
) => Promise<Buffer>;
const SCRYPT_R = 8;
const SCRYPT_P = 1;
/** scrypt needs 128·N·r bytes; the limit leaves room for N = 2^17 (128 MiB) and refuses anything larger. */
const SCRYPT_MAXMEM = 160 * 1024 * 1024;
const scryptN = () => 2 ** config().passwordHashCost;

export interface AuthContext {
  companyId: number;
  userId: number;
  profile: string;
  super: boolean;
  /** the login session the access token belongs to */
  sessionId?: string;
  /** set on routes that need no session */
  public?: boolean;
  /** the company's due date has passed: only routes marked `whileExpired` answer (its admins pay there) */
  restricted?: boolean;
}

/** What a verified token claims; `guard` checks it against the stored user and session. */
export interface TokenClaims {
  companyId: number;
  userId: number;
  sessionId: string;
  jti?: string;
  exp: number;
}

/** `scrypt$N$r$p$salt$hash`, all base64url. */
export async function hashPassword(password: string): Promise<string> {
  const N = scryptN();
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32, { N, r: SCRYPT_R, p: SCRYPT_P, maxmem: SCRYPT_MAXMEM });
  return ['scrypt', N, SCRYPT_R, SCRYPT_P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. Without a hash (unknown e-mail) it still runs one scrypt of
 * the current cost, so the answer takes as long as for a known user.
 */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword(randomToken());
    await verifyPassword(password, await dummyHash);
    return false;
  }
  const [scheme, N, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(N),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT_MAXMEM,
  });
  return timingSafeEqual(expected, actual);
}

/** A hash made with a lower cost than the current one is replaced at the next successful login. */
export function needsRehash(stored: string): boolean {
  const [, N, r, p] = stored.split('$');
  return Number(N) < scryptN() || Number(r) !== SCRYPT_R || Number(p) !== SCRYPT_P;
}

export async function signAccessToken(auth: { companyId: number; userId: number }, sessionId: string): Promise<string> {
  return new SignJWT({ companyId: auth.companyId, sid: sessionId, typ: 'access' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(auth.userId))
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
    .sign(await jwtHmacKey());
}

/**
 * Short-lived ticket for the WebSocket `$connect` query string (never the access token itself);
 * its `jti` is consumed at `$connect`, so a ticket opens one socket.
 */
export async function signWsTicket(auth: AuthContext): Promise<string> {
  return new SignJWT({ companyId: auth.companyId, sid: auth.sessionId, typ: 'ws' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(auth.userId))
    .setJti(randomToken(16))
    .setIssuedAt()
    .setExpirationTime(`${WS_TICKET_SECONDS}s`)
    .sign(await jwtHmacKey());
}

/**
 * Access tokens this instance verified, with their claims (least recently used out past
 * VERIFIED_MAX): the same string carries the same signature, so a token seen again is only checked
 * for expiry; the session behind it is still checked on every request (`guard`).
 */
const VERIFIED_MAX = 2_000;
const verifiedAccess = new Map<string, TokenClaims>();

async function verify(token: string, typ: 'access' | 'ws'): Promise<TokenClaims> {
  const seen = typ === 'access' ? verifiedAccess.get(token) : undefined;
  if (seen && seen.exp > Math.floor(Date.now() / 1000)) return seen;
  const claims = await verifyOnce(token, typ);
  if (typ === 'access') remember(verifiedAccess, token, claims, VERIFIED_MAX);
  return claims;
}

async function verifyOnce(token: string, typ: 'access' | 'ws'): Promise<TokenClaims> {
  try {
    const { payload } = await jwtVerify(token, await jwtHmacKey(), {
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'sub', 'sid'],
    });
    if (payload.typ !== typ) throw new AppError('ERR_SESSION_EXPIRED', 401);
    return {
      companyId: Number(payload.companyId),
      userId: Number(payload.sub),
      sessionId: String(payload.sid),
      jti: payload.jti,
      exp: Number(payload.exp),
    };
  } catch (err) {
    // An expired token answers 403 so the client refreshes once (attendance.md 4.1); anything
    // else is not a session at all.
    if (err instanceof joseErrors.JWTExpired) throw new AppError('ERR_SESSION_EXPIRED', 403);
    throw new AppError('ERR_SESSION_EXPIRED', 401);
  }
}

export const verifyWsTicket = (ticket: string) => verify(ticket, 'ws');

/** Reads the bearer token (the scheme is case-insensitive, RFC 7235); undefined when there is none. */
export async function authenticate(event: Pick<APIGatewayProxyEventV2, 'headers'>): Promise<TokenClaims | undefined> {
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  const token = /^bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  return token ? verify(token, 'access') : undefined;
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');
