import { describe, it, expect } from 'vitest';
import { api, login, newCompany, realtimeClient, table, outbox, ADMIN, sleep } from './helpers';

describe('session and accounts', () => {
  it('GET /version answers 6.0.0 without a session', async () => {
    const res = await api('GET', '/version');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ version: '6.0.0' });
  });

  it('the seeded super admin logs in and gets token, user and company, with an httpOnly refresh cookie', async () => {
    const res = await api('POST', '/auth/login', { body: ADMIN });
    expect(res.status).toBe(200);
    expect(res.body.token).toMatch(/^ey/);
    expect(res.body.user).toMatchObject({ id: 1, companyId: 1, profile: 'admin', super: true });
    expect(res.body.user.passwordHash).toBeUndefined();
    expect(res.body.company).toMatchObject({ id: 1, dueDate: expect.any(String) });
    expect(res.body.company.settings).toEqual(
      expect.arrayContaining([{ key: 'sendGreetingAccepted', value: 'disabled' }]),
    );
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^jrt=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
  });

  it('a bad body is refused with 400 and a catalogued code naming the fields', async () => {
    const res = await api('POST', '/auth/login', { body: { email: 'not-an-email' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.details.map((d: any) => d.path[0]).sort()).toEqual(['email', 'password']);
  });

  it('a wrong password is ERR_INVALID_CREDENTIALS; past 5 failures the e-mail waits a short back-off, then the right password works', async () => {
    const co = await newCompany('lock');
    for (let i = 0; i < 5; i++) {
      const res = await api('POST', '/auth/login', { body: { email: co.admin.email, password: 'wrong-password' } });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('ERR_INVALID_CREDENTIALS');
    }
    const held = await api('POST', '/auth/login', { body: co.admin });
    expect(held.status).toBe(429);
    expect(held.body.error).toBe('ERR_TOO_MANY_ATTEMPTS');
    await sleep(1100);
    expect((await api('POST', '/auth/login', { body: co.admin })).status).toBe(200);
  });

  it('refresh rotates the refresh token: the new one works, the used one is refused and ends the session', async () => {
    const co = await newCompany('rotate');
    const session = await login(co.admin.email, co.admin.password);
    const first = await api('POST', '/auth/refresh_token', { cookie: session.cookie });
    expect(first.status).toBe(200);
    expect(first.body.token).toMatch(/^ey/);
    expect(first.body.user.id).toBe(co.admin.id);
    const rotated = first.headers.get('set-cookie')!.split(';')[0]!;
    expect(rotated).not.toBe(session.cookie);
    const again = await api('POST', '/auth/refresh_token', { cookie: rotated });
    expect(again.status).toBe(200);
    const latest = again.headers.get('set-cookie')!.split(';')[0]!;
    const replay = await api('POST', '/auth/refresh_token', { cookie: session.cookie });
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('ERR_SESSION_EXPIRED');
    expect((await api('POST', '/auth/refresh_token', { cookie: latest })).status).toBe(401);
    expect((await api('GET', '/auth/me', { token: again.body.token })).status).toBe(401);
  });

  it('logout ends the session: the refresh token and the access token stop working, the cookie is cleared', async () => {
    const session = await login(ADMIN.email, ADMIN.password);
    const other = await login(ADMIN.email, ADMIN.password);
    expect((await api('GET', '/auth/me', { token: session.token })).status).toBe(200);
    const out = await api('DELETE', '/auth/logout', { cookie: session.cookie });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    const refresh = await api('POST', '/auth/refresh_token', { cookie: session.cookie });
    expect(refresh.status).toBe(401);
    const me = await api('GET', '/auth/me', { token: session.token });
    expect(me.status).toBe(401);
    expect(me.body.error).toBe('ERR_SESSION_EXPIRED');
    // Only that session ends: the same user's other session carries on.
    expect((await api('GET', '/auth/me', { token: other.token })).status).toBe(200);
  });

  it('GET /auth/me needs a valid session', async () => {
    expect((await api('GET', '/auth/me')).status).toBe(401);
    expect((await api('GET', '/auth/me', { token: 'garbage' })).status).toBe(401);
    const session = await login(ADMIN.email, ADMIN.password);
    const me = await api('GET', '/auth/me', { token: session.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: 1, email: ADMIN.email, company: { id: 1 } });
  });

  it('public signup creates a company on a 3-day trial, recurrence MENSAL, with its admin', async () => {
    const plans = await api('GET', '/plans/list');
    expect(plans.status).toBe(200);
    expect(plans.body[0]).toMatchObject({ id: 1, useKanban: true });
    const co = await newCompany('signup');
    const me = await api('GET', '/auth/me', { token: co.adminToken });
    expect(me.body).toMatchObject({ profile: 'admin', super: false, companyId: co.companyId });
    const stored = await table().get(`C#${co.companyId}`, 'COMPANY');
    expect(stored).toMatchObject({ recurrence: 'MENSAL', status: true, campaignsEnabled: true, planId: 1 });
    const days = (new Date(stored!.dueDate).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2.99);
    expect(days).toBeLessThanOrEqual(3);
  });

  it('signup refuses a used e-mail, a bad phone and a password under 8 characters', async () => {
    const co = await newCompany('dup');
    const dup = await api('POST', '/companies/cadastro', {
      body: { companyName: 'X Co', name: 'Someone', email: co.admin.email, password: 'secret123', planId: 1 },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS');
    const bad = await api('POST', '/companies/cadastro', {
      body: {
        companyName: 'X Co',
        name: 'S',
        email: 'x@y.dev',
        password: 'seven77',
        phone: '(11) 99999-99999',
        planId: 1,
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: any) => d.path[0]).sort()).toEqual(['name', 'password', 'phone']);
  });

  it("an attendant's login is refused with the expiry code and date once the company is past its due date (admins get a restricted session: billing.test.ts)", async () => {
    const co = await newCompany('expired');
    const email = `agent-${Date.now()}@test.dev`;
    await api('POST', '/users', {
      token: co.adminToken,
      body: { name: 'Agent', email, password: 'secret123', profile: 'user' },
    });
    const dueDate = new Date(Date.now() - 86_400_000).toISOString();
    await table().set(`C#${co.companyId}`, 'COMPANY', { dueDate });
    const res = await api('POST', '/auth/login', { body: { email, password: 'secret123' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'ERR_COMPANY_EXPIRED', details: { dueDate } });
  });

  it("a second company cannot read the first one's user or plan", async () => {
    const a = await newCompany('iso-a');
    const b = await newCompany('iso-b');
    const plan = await api('GET', `/companies/listPlan/${a.companyId}`, { token: b.adminToken });
    expect(plan.status).toBe(404);
    const own = await api('GET', `/companies/listPlan/${b.companyId}`, { token: b.adminToken });
    expect(own.status).toBe(200);
    expect(own.body.plan).toMatchObject({ id: 1 });
    const me = await api('GET', '/auth/me', { token: b.adminToken });
    expect(me.body.id).toBe(b.admin.id);
    expect(me.body.companyId).toBe(b.companyId);
  });

  it('password reset: the code is single use, and the password goes in the body', async () => {
    const co = await newCompany('reset');
    expect((await api('POST', `/forgetpassword/${co.admin.email}`)).status).toBe(200);
    const mail = (await outbox()).filter((m) => m.to === co.admin.email).pop()!;
    const code = /code is ([A-Z0-9]{8})/.exec(mail.text)![1]!;
    const weak = await api('POST', '/resetpasswords', {
      body: { email: co.admin.email, token: code, password: 'weakpass' },
    });
    expect(weak.status).toBe(400);
    const wrong = await api('POST', '/resetpasswords', {
      body: { email: co.admin.email, token: code === 'AAAAAAAA' ? 'BBBBBBBB' : 'AAAAAAAA', password: 'NewPass123' },
    });
    expect(wrong.body.error).toBe('ERR_INVALID_RESET_CODE');
    const ok = await api('POST', '/resetpasswords', {
      body: { email: co.admin.email, token: code, password: 'NewPass123' },
    });
    expect(ok.status).toBe(200);
    const reused = await api('POST', '/resetpasswords', {
      body: { email: co.admin.email, token: code, password: 'Other123A' },
    });
    expect(reused.body.error).toBe('ERR_INVALID_RESET_CODE');
    expect((await api('POST', '/auth/login', { body: { email: co.admin.email, password: 'NewPass123' } })).status).toBe(
      200,
    );
  });
});

describe('realtime', () => {
  it('the WebSocket refuses a connection without a valid ticket', async () => {
    await expect(realtimeClient('not-a-token')).rejects.toThrow();
  });

  it("a new login emits the auth event to that user's other sessions, and never to another company", async () => {
    const a = await newCompany('rt-a');
    const b = await newCompany('rt-b');
    const clientA = await realtimeClient(a.adminToken);
    const clientB = await realtimeClient(b.adminToken);
    await clientA.join('joinNotification');
    await clientB.join('joinNotification');
    await login(a.admin.email, a.admin.password);
    const got = await clientA.waitFor((e) => e.event === `company-${a.companyId}-auth`);
    expect(got.data).toMatchObject({ action: 'update', user: { id: a.admin.id } });
    await sleep(200);
    expect(clientB.events.filter((e) => e.event.endsWith('-auth'))).toEqual([]);
    clientA.close();
    clientB.close();
  });
});
