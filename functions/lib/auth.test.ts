import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { HttpEvent } from './http';
import { authenticate, hashPassword, needsRehash, verifyPassword } from './auth';
import { resetConfig } from './config';
import { resetSecrets } from './secrets';

const SECRET = 'unit-test-secret';
const event = (authorization: string) => ({ headers: { authorization } }) as unknown as HttpEvent;
const sign = (claims: Record<string, unknown>, exp = true) => {
  const jwt = new SignJWT({ companyId: 1, sid: 's1', typ: 'access', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('1')
    .setIssuedAt();
  return (exp ? jwt.setExpirationTime('5m') : jwt).sign(new TextEncoder().encode(SECRET));
};

beforeAll(() => {
  Object.assign(process.env, { TABLE_NAME: 't', MEDIA_BUCKET: 'b', JWT_SECRET: SECRET, PASSWORD_HASH_COST: '12' });
  resetConfig();
  resetSecrets();
});

describe('access tokens', () => {
  it('a correctly signed token without exp is refused', async () => {
    await expect(authenticate(event(`Bearer ${await sign({}, false)}`))).rejects.toMatchObject({ status: 401 });
  });

  it('a token with exp, subject and session is accepted, whatever the case of the Bearer scheme', async () => {
    const token = await sign({});
    expect(await authenticate(event(`Bearer ${token}`))).toMatchObject({ companyId: 1, userId: 1, sessionId: 's1' });
    expect(await authenticate(event(`bEaReR ${token}`))).toMatchObject({ userId: 1 });
  });

  it('a token accepted before is refused once it expires (403, the client refreshes), and a tampered copy never passes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-05-04T10:00:00Z'));
      const token = await sign({ sid: 'expiring' });
      expect(await authenticate(event(`Bearer ${token}`))).toMatchObject({ sessionId: 'expiring' });
      expect(await authenticate(event(`Bearer ${token}`))).toMatchObject({ sessionId: 'expiring' });
      const [head, body, signature] = token.split('.');
      const tampered = `${head}.${body}.${signature!.slice(0, -2)}${signature!.endsWith('AA') ? 'BB' : 'AA'}`;
      await expect(authenticate(event(`Bearer ${tampered}`))).rejects.toMatchObject({ status: 401 });
      vi.setSystemTime(new Date('2026-05-04T10:05:00Z'));
      await expect(authenticate(event(`Bearer ${token}`))).rejects.toMatchObject({ status: 403 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a token without a session id is refused', async () => {
    await expect(authenticate(event(`Bearer ${await sign({ sid: undefined })}`))).rejects.toMatchObject({
      status: 401,
    });
  });
});

describe('password hashes', () => {
  it('hashes at the configured cost, and older, cheaper hashes need a rehash', async () => {
    const hash = await hashPassword('secret123');
    expect(hash.split('$')[1]).toBe(String(2 ** 12));
    expect(needsRehash(hash)).toBe(false);
    expect(await verifyPassword('secret123', hash)).toBe(true);
    expect(await verifyPassword('wrong', hash)).toBe(false);
    expect(needsRehash(hash.replace(`$${2 ** 12}$`, '$1024$'))).toBe(true);
    expect(await verifyPassword('secret123', undefined)).toBe(false);
  });
});
