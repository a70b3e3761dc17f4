import { createHash, randomBytes, randomUUID, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createUser, randomNumber } from './fixtures';
import { ADMIN, api, baseUrl, login, newCompany, outbox, realtimeClient, table } from './helpers';
import { TEST_PASSWORD_HASH_COST } from './stack-options';
import { REFRESH_RETRY_GRACE_MS } from '../../shared/constants';

/** The refresh cookie (`jrt=<token>`) an answer set. */
const cookieOf = (res: { headers: Headers }) => res.headers.get('set-cookie')!.split(';')[0]!;
/** The key of a refresh token's item, as the server stores it (sha256, base64url). */
const tokenHash = (cookie: string) => createHash('sha256').update(cookie.split('=')[1]!).digest('base64url');

/**
 * Account security (issue 9: H2, M1, M2, M3, L1, L5, L6). The suite's own traffic comes from
 * loopback, which the test stack exempts from per-address limits; tests of those limits act from
 * an address of their own through x-forwarded-for (honoured only by the test stack's gateway).
 */
let addressSeq = 0;
const newAddress = () => `198.51.${Math.floor(Math.random() * 250)}.${(addressSeq++ % 250) + 1}`;
const from = (address: string) => ({ 'x-forwarded-for': address });
const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@test.dev`;
const codeIn = (text: string) => /code is ([A-Z0-9]{8})/.exec(text)?.[1];

async function lastCode(email: string) {
  const mail = (await outbox()).filter((m) => m.to === email).pop();
  return mail && codeIn(mail.text);
}

const resetWith = (email: string, token: string, password = 'NewPass123', headers?: Record<string, string>) =>
  api('POST', '/resetpasswords', { body: { email, token, password }, headers });

/** A hash in the stored format, made with a lower scrypt cost than the server uses. */
function legacyHash(password: string, N = 2 ** (TEST_PASSWORD_HASH_COST - 2)) {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, { N, r: 8, p: 1 });
  return ['scrypt', N, 8, 1, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

const userItem = (companyId: number, id: number) =>
  table().get(`C#${companyId}`, `USER#${String(id).padStart(10, '0')}`);

describe('password reset (H2)', () => {
  it('POST /forgetpassword answers the same status and body for known and unknown e-mails', async () => {
    const co = await newCompany('reset-same');
    const known = await api('POST', `/forgetpassword/${co.admin.email}`);
    const unknown = await api('POST', `/forgetpassword/${uniqueEmail('nobody')}`);
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(codeIn((await outbox()).filter((m) => m.to === co.admin.email).pop()!.text)).toMatch(/^[A-Z0-9]{8}$/);
  });

  it('the e-mail has 5 guesses however many new codes are requested: after them even the right code is refused', async () => {
    const co = await newCompany('reset-budget');
    const email = co.admin.email;
    expect((await api('POST', `/forgetpassword/${email}`)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await resetWith(email, 'WRONG000')).body.error).toBe('ERR_INVALID_RESET_CODE');
    expect((await api('POST', `/forgetpassword/${email}`)).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await resetWith(email, 'WRONG000')).body.error).toBe('ERR_INVALID_RESET_CODE');
    const code = (await lastCode(email))!;
    const refused = await resetWith(email, code);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('ERR_TOO_MANY_ATTEMPTS');
    expect((await api('POST', '/auth/login', { body: { email, password: 'NewPass123' } })).status).toBe(401);
  });

  it('a burst of 40 concurrent wrong guesses gets at most 5 evaluated', async () => {
    const co = await newCompany('reset-burst');
    await api('POST', `/forgetpassword/${co.admin.email}`);
    const answers = await Promise.all(Array.from({ length: 40 }, () => resetWith(co.admin.email, 'WRONG000')));
    const evaluated = answers.filter((a) => a.body.error === 'ERR_INVALID_RESET_CODE').length;
    expect(evaluated).toBeLessThanOrEqual(5);
    expect(answers.filter((a) => a.status === 429).length).toBe(40 - evaluated);
  });

  it('a code works once, also when two requests race with it', async () => {
    const co = await newCompany('reset-race');
    await api('POST', `/forgetpassword/${co.admin.email}`);
    const code = (await lastCode(co.admin.email))!;
    const [a, b] = await Promise.all([
      resetWith(co.admin.email, code, 'FirstPass1'),
      resetWith(co.admin.email, code, 'SecondPass1'),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 400]);
  });

  it('code requests are limited per e-mail (3 an hour) and per client address (10 an hour)', async () => {
    const co = await newCompany('reset-requests');
    for (let i = 0; i < 3; i++) expect((await api('POST', `/forgetpassword/${co.admin.email}`)).status).toBe(200);
    const fourth = await api('POST', `/forgetpassword/${co.admin.email}`);
    expect(fourth.status).toBe(429);
    expect(fourth.body.error).toBe('ERR_TOO_MANY_ATTEMPTS');

    const address = newAddress();
    for (let i = 0; i < 10; i++) {
      const res = await api('POST', `/forgetpassword/${uniqueEmail('spray')}`, { headers: from(address) });
      expect(res.status).toBe(200);
    }
    const spray = await api('POST', `/forgetpassword/${uniqueEmail('spray')}`, { headers: from(address) });
    expect(spray.status).toBe(429);
    expect((await api('POST', `/forgetpassword/${uniqueEmail('spray')}`, { headers: from(newAddress()) })).status).toBe(
      200,
    );
  });

  it('guesses are limited per client address (20 an hour) across e-mails', async () => {
    const address = newAddress();
    for (let i = 0; i < 20; i++) {
      const res = await resetWith(uniqueEmail('guess'), 'WRONG000', undefined, from(address));
      expect(res.body.error).toBe('ERR_INVALID_RESET_CODE');
    }
    const next = await resetWith(uniqueEmail('guess'), 'WRONG000', undefined, from(address));
    expect(next.status).toBe(429);
  });

  it("a reset ends the user's sessions: access and refresh tokens stop working", async () => {
    const co = await newCompany('reset-revokes');
    const session = await login(co.admin.email, co.admin.password);
    await api('POST', `/forgetpassword/${co.admin.email}`);
    expect((await resetWith(co.admin.email, (await lastCode(co.admin.email))!)).status).toBe(200);
    expect((await api('GET', '/auth/me', { token: session.token })).status).toBe(401);
    expect((await api('POST', '/auth/refresh_token', { cookie: session.cookie })).status).toBe(401);
    expect((await login(co.admin.email, 'NewPass123')).token).toMatch(/^ey/);
  });
});

describe('login throttling and passwords (M3, L5, L6)', () => {
  it('a burst of 100 concurrent wrong passwords for one e-mail gets 5 evaluated, then one per growing delay', async () => {
    const co = await newCompany('login-burst');
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        api('POST', '/auth/login', { body: { email: co.admin.email, password: 'wrong-password' } }),
      ),
    );
    const evaluated = answers.filter((a) => a.status === 401).length;
    // Past the 5 free failures the delays are 1 s, 2 s, 4 s ...: a slow burst earns at most one more per second.
    const seconds = (Date.now() - started) / 1000;
    expect(evaluated).toBeGreaterThanOrEqual(5);
    expect(evaluated).toBeLessThanOrEqual(5 + Math.ceil(Math.log2(seconds + 1)));
    expect(answers.filter((a) => a.status === 429).length).toBe(100 - evaluated);
  });

  it('failures from one client address slow that address down across e-mails; successes do not count', async () => {
    const address = newAddress();
    const co = await newCompany('login-ip');
    for (let i = 0; i < 25; i++) {
      const ok = await api('POST', '/auth/login', { body: co.admin, headers: from(address) });
      expect(ok.status).toBe(200);
    }
    for (let i = 0; i < 20; i++) {
      const res = await api('POST', '/auth/login', {
        body: { email: uniqueEmail('spray'), password: 'wrong-password' },
        headers: from(address),
      });
      expect(res.status).toBe(401);
    }
    const held = await api('POST', '/auth/login', { body: co.admin, headers: from(address) });
    expect(held.status).toBe(429);
    expect((await api('POST', '/auth/login', { body: co.admin, headers: from(newAddress()) })).status).toBe(200);
  });

  it("an attacker failing the owner's password is held at their address only: the owner signs in from another", async () => {
    const co = await newCompany('login-lockout');
    const attacker = newAddress();
    const guess = () =>
      api('POST', '/auth/login', {
        body: { email: co.admin.email, password: 'wrong-password' },
        headers: from(attacker),
      });
    const answers: number[] = [];
    for (let i = 0; i < 8; i++) answers.push((await guess()).status);
    expect(answers.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(answers.slice(5)).toContain(429);

    const owner = await api('POST', '/auth/login', { body: co.admin, headers: from(newAddress()) });
    expect(owner.status).toBe(200);
    expect((await guess()).status).toBe(429);
    expect((await api('POST', '/auth/login', { body: co.admin, headers: from(attacker) })).status).toBe(429);
  });

  it('signups are limited per client address (10 an hour)', async () => {
    const address = newAddress();
    const signup = () =>
      api('POST', '/companies/cadastro', {
        body: { companyName: 'Spam Co', name: 'Spammer', email: uniqueEmail('spam'), password: 'secret123', planId: 1 },
        headers: from(address),
      });
    for (let i = 0; i < 10; i++) expect((await signup()).status).toBe(201);
    const eleventh = await signup();
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.error).toBe('ERR_TOO_MANY_ATTEMPTS');
  });

  it('new passwords need 8 characters (signup, user create and edit); an older 5-character password still logs in', async () => {
    const co = await newCompany('pw8');
    const signup = await api('POST', '/companies/cadastro', {
      body: { companyName: 'Short Co', name: 'Owner', email: uniqueEmail('short'), password: 'seven77', planId: 1 },
    });
    expect(signup.status).toBe(400);
    expect(signup.body.details.map((d: { path: string[] }) => d.path[0])).toEqual(['password']);
    const create = await api('POST', '/users', {
      token: co.adminToken,
      body: { name: 'Agent', email: uniqueEmail('agent'), password: 'seven77' },
    });
    expect(create.status).toBe(400);
    const edit = await api('PUT', `/users/${co.admin.id}`, { token: co.adminToken, body: { password: 'seven77' } });
    expect(edit.status).toBe(400);
    await table().set(`C#${co.companyId}`, `USER#${String(co.admin.id).padStart(10, '0')}`, {
      passwordHash: legacyHash('abcde'),
    });
    expect((await api('POST', '/auth/login', { body: { email: co.admin.email, password: 'abcde' } })).status).toBe(200);
  });

  it('a hash of a lower scrypt cost is replaced by one of the current cost at the next login', async () => {
    const co = await newCompany('rehash');
    await table().set(`C#${co.companyId}`, `USER#${String(co.admin.id).padStart(10, '0')}`, {
      passwordHash: legacyHash(co.admin.password),
    });
    await login(co.admin.email, co.admin.password);
    const stored = (await userItem(co.companyId, co.admin.id))!.passwordHash as string;
    expect(Number(stored.split('$')[1])).toBe(2 ** TEST_PASSWORD_HASH_COST);
    await login(co.admin.email, co.admin.password);
  });

  it('the Bearer scheme is case-insensitive', async () => {
    const co = await newCompany('bearer');
    const me = await api('GET', '/auth/me', { headers: { authorization: `bearer ${co.adminToken}` } });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(co.admin.id);
  });
});

describe('revocable sessions (M2)', () => {
  it('a demoted admin is refused the admin routes on the next request', async () => {
    const co = await newCompany('demote');
    const admin = await createUser(co, { profile: 'admin' });
    expect((await api('GET', '/users', { token: admin.token })).status).toBe(200);
    const demoted = await api('PUT', `/users/${admin.id}`, { token: co.adminToken, body: { profile: 'user' } });
    expect(demoted.status).toBe(200);
    const res = await api('GET', '/users', { token: admin.token });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
  });

  it('a deleted user can neither write nor mint a WebSocket ticket', async () => {
    const co = await newCompany('deleted');
    const agent = await createUser(co);
    expect((await api('DELETE', `/users/${agent.id}`, { token: co.adminToken })).status).toBe(200);
    const contact = await api('POST', '/contacts', {
      token: agent.token,
      body: { name: 'Ghost', number: randomNumber() },
    });
    expect(contact.status).toBe(401);
    expect(contact.body.error).toBe('ERR_SESSION_EXPIRED');
    expect((await api('POST', '/auth/ws-ticket', { token: agent.token })).status).toBe(401);
  });

  it("a password change ends the user's other sessions (refresh included) and keeps the changer's own", async () => {
    const co = await newCompany('pwchange');
    const elsewhere = await login(co.admin.email, co.admin.password);
    const here = await login(co.admin.email, co.admin.password);
    const changed = await api('PUT', `/users/${co.admin.id}`, { token: here.token, body: { password: 'changed123' } });
    expect(changed.status).toBe(200);
    expect((await api('POST', '/auth/refresh_token', { cookie: elsewhere.cookie })).status).toBe(401);
    expect((await api('GET', '/auth/me', { token: elsewhere.token })).status).toBe(401);
    expect((await api('GET', '/auth/me', { token: here.token })).status).toBe(200);
    expect((await api('POST', '/auth/refresh_token', { cookie: here.cookie })).status).toBe(200);
  });

  it('an admin changing an agent password ends all of the agent sessions', async () => {
    const co = await newCompany('pwadmin');
    const agent = await createUser(co);
    await api('PUT', `/users/${agent.id}`, { token: co.adminToken, body: { password: 'another123' } });
    expect((await api('GET', '/auth/me', { token: agent.token })).status).toBe(401);
  });

  it('reusing a rotated refresh token once its successor was used ends the whole session: the newer token no longer refreshes', async () => {
    const co = await newCompany('reuse');
    const session = await login(co.admin.email, co.admin.password);
    const first = await api('POST', '/auth/refresh_token', { cookie: session.cookie });
    expect(first.status).toBe(200);
    const rt2 = cookieOf(first);
    const second = await api('POST', '/auth/refresh_token', { cookie: rt2 });
    expect(second.status).toBe(200);
    expect((await api('POST', '/auth/refresh_token', { cookie: session.cookie })).status).toBe(401);
    expect((await api('POST', '/auth/refresh_token', { cookie: cookieOf(second) })).status).toBe(401);
    expect((await api('GET', '/auth/me', { token: second.body.token })).status).toBe(401);
  });

  it('a refresh whose answer never arrived (a reload meanwhile) is retried with the same token: the session goes on and the lost token is dropped; past the grace it is a replay', async () => {
    const co = await newCompany('lost-refresh');
    const session = await login(co.admin.email, co.admin.password);
    const lost = await api('POST', '/auth/refresh_token', { cookie: session.cookie });
    expect(lost.status).toBe(200);
    // the browser never saw `lost`: it sends the same cookie again
    const retry = await api('POST', '/auth/refresh_token', { cookie: session.cookie });
    expect(retry.status).toBe(200);
    expect((await api('GET', '/auth/me', { token: retry.body.token })).status).toBe(200);
    // the answer that never arrived no longer refreshes, and presenting it ends nothing
    expect((await api('POST', '/auth/refresh_token', { cookie: cookieOf(lost) })).status).toBe(401);
    const next = await api('POST', '/auth/refresh_token', { cookie: cookieOf(retry) });
    expect(next.status).toBe(200);

    // a token presented again later than REFRESH_RETRY_GRACE_MS (its use moved back past it) is a
    // replay, even with its successor unused: the session ends
    const late = await api('POST', '/auth/refresh_token', { cookie: cookieOf(next) });
    expect(late.status).toBe(200);
    await table().set(`RT#${tokenHash(cookieOf(next))}`, 'RT', { usedAt: Date.now() - REFRESH_RETRY_GRACE_MS - 1000 });
    expect((await api('POST', '/auth/refresh_token', { cookie: cookieOf(next) })).status).toBe(401);
    expect((await api('GET', '/auth/me', { token: late.body.token })).status).toBe(401);
  });
});

describe('privilege edges (M1)', () => {
  it("an admin who is not super cannot change the super user's password or e-mail, nor delete them", async () => {
    const root = await login(ADMIN.email, ADMIN.password);
    const email = uniqueEmail('platform-admin');
    const created = await api('POST', '/users', {
      token: root.token,
      body: { name: 'Platform Admin', email, password: 'secret123', profile: 'admin' },
    });
    expect(created.status).toBe(201);
    try {
      const admin = await login(email, 'secret123');
      const password = await api('PUT', '/users/1', { token: admin.token, body: { password: 'takeover123' } });
      expect(password.status).toBe(403);
      expect(password.body.error).toBe('ERR_NO_PERMISSION');
      const mail = await api('PUT', '/users/1', { token: admin.token, body: { email: uniqueEmail('takeover') } });
      expect(mail.status).toBe(403);
      expect((await api('DELETE', '/users/1', { token: admin.token })).status).toBe(403);
      const stored = await userItem(1, 1);
      expect(stored).toMatchObject({ email: ADMIN.email, super: true });
      expect((await api('POST', '/auth/login', { body: ADMIN })).status).toBe(200);
    } finally {
      await api('DELETE', `/users/${created.body.id}`, { token: root.token });
    }
  });

  it("a plain user cannot change another user's password or e-mail", async () => {
    const co = await newCompany('plain');
    const agent = await createUser(co);
    const other = await createUser(co);
    const password = await api('PUT', `/users/${other.id}`, { token: agent.token, body: { password: 'takeover123' } });
    expect(password.status).toBe(403);
    expect(password.body.error).toBe('ERR_NO_PERMISSION');
    const mail = await api('PUT', `/users/${other.id}`, { token: agent.token, body: { email: uniqueEmail('t') } });
    expect(mail.status).toBe(403);
    expect((await login(other.email, 'secret123')).token).toMatch(/^ey/);
  });

  it('an admin cannot grant super, on create or edit', async () => {
    const co = await newCompany('nosuper');
    const agent = await createUser(co, { super: true });
    const edit = await api('PUT', `/users/${agent.id}`, {
      token: co.adminToken,
      body: { name: 'Agent X', super: true },
    });
    expect(edit.status).toBe(200);
    expect((await userItem(co.companyId, agent.id))!.super).toBe(false);
    expect((await api('GET', '/auth/me', { token: agent.token })).body.super).toBe(false);
  });
});

describe('WebSocket tickets (L1)', () => {
  it('a ticket opens one socket: a second $connect with it is refused', async () => {
    const co = await newCompany('ticket');
    const ticket = (await api('POST', '/auth/ws-ticket', { token: co.adminToken })).body.ticket as string;
    const connect = () =>
      new Promise<number>((done) => {
        const ws = new WebSocket(`${baseUrl().replace('http', 'ws')}/ws?ticket=${encodeURIComponent(ticket)}`);
        ws.once('open', () => {
          ws.close();
          done(101);
        });
        ws.once('unexpected-response', (_req, res) => done(res.statusCode ?? 0));
        ws.once('error', () => done(0));
      });
    expect(await connect()).toBe(101);
    expect(await connect()).toBe(401);
    // A fresh ticket still connects.
    const client = await realtimeClient(co.adminToken);
    client.close();
  });
});
