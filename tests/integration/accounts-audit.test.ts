import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ADMIN, api, login, newCompany, outbox } from './helpers';

/**
 * The account actions on the audit trail (functions/lib/accounts/sessions.ts, functions/lib/users/service.ts):
 * failed sign-ins, credential changes and user administration, each with who acted and from where.
 * Addresses come through x-forwarded-for, which only the test stack's gateway honours.
 */
let addressSeq = 0;
const newAddress = () => `203.0.${Math.floor(Math.random() * 250)}.${(addressSeq++ % 250) + 1}`;
const from = (address: string) => ({ 'x-forwarded-for': address });
const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@test.dev`;

async function trail(token: string, action: string, companyId?: number) {
  const query = new URLSearchParams({ action, limit: '100', ...(companyId ? { companyId: String(companyId) } : {}) });
  const res = await api('GET', `/audit?${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.entries as {
    action: string;
    actorId: number | null;
    actorName: string | null;
    address: string | null;
    target: { type: string; id: string | number; name?: string } | null;
    changes: Record<string, unknown> | null;
  }[];
}

describe('audit of account actions', () => {
  it('failed sign-ins go on the trail of the e-mail’s company with the address (an unknown e-mail on the platform’s); refusals by the limiter add none', async () => {
    const co = await newCompany('audit-signin');
    const address = newAddress();
    const answers: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await api('POST', '/auth/login', {
        body: { email: co.admin.email, password: 'wrong-password' },
        headers: from(address),
      });
      answers.push(res.status);
    }
    expect(answers.filter((s) => s === 429).length).toBeGreaterThan(0);
    const failed = await trail(co.adminToken, 'auth.signin_failed');
    expect(failed).toHaveLength(answers.filter((s) => s === 401).length);
    expect(failed[0]).toMatchObject({
      actorId: null,
      address,
      target: { type: 'user', id: co.admin.id, name: co.admin.email },
    });
    // a success is no failure
    await api('POST', '/auth/login', {
      body: { email: ADMIN.email, password: ADMIN.password },
      headers: from(newAddress()),
    });

    const ghost = uniqueEmail('ghost');
    const ghostAddress = newAddress();
    expect(
      (
        await api('POST', '/auth/login', {
          body: { email: ghost, password: 'wrong-password' },
          headers: from(ghostAddress),
        })
      ).status,
    ).toBe(401);
    const root = await login(ADMIN.email, ADMIN.password);
    const platform = await trail(root.token, 'auth.signin_failed', 1);
    expect(platform.filter((e) => e.address === ghostAddress)).toEqual([
      expect.objectContaining({ target: { type: 'email', id: ghost } }),
    ]);
    // the company's own trail holds only attempts on its users
    expect((await trail(co.adminToken, 'auth.signin_failed')).some((e) => e.address === ghostAddress)).toBe(false);
  });

  it('creating, promoting, re-crediting and deleting a user are recorded with the actor and the address', async () => {
    const co = await newCompany('audit-users');
    const address = newAddress();
    const email = uniqueEmail('agent');
    const created = await api('POST', '/users', {
      token: co.adminToken,
      body: { name: 'Agent Audit', email, password: 'secret123', profile: 'user' },
      headers: from(address),
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const actor = { actorId: co.admin.id, actorName: 'Owner', address };
    expect(await trail(co.adminToken, 'user.created')).toEqual([
      expect.objectContaining({ ...actor, target: { type: 'user', id, name: 'Agent Audit' } }),
    ]);

    const put = (body: Record<string, unknown>) =>
      api('PUT', `/users/${id}`, { token: co.adminToken, body, headers: from(address) });
    expect((await put({ profile: 'admin' })).status).toBe(200);
    expect(await trail(co.adminToken, 'user.role_changed')).toEqual([
      expect.objectContaining({ ...actor, changes: { profile: { from: 'user', to: 'admin' } } }),
    ]);
    // a save that sends the same profile back changes no role
    expect((await put({ name: 'Agent Audit', profile: 'admin' })).status).toBe(200);
    expect(await trail(co.adminToken, 'user.role_changed')).toHaveLength(1);

    expect((await put({ password: 'another123' })).status).toBe(200);
    const password = await trail(co.adminToken, 'auth.password_changed');
    expect(password).toEqual([expect.objectContaining({ ...actor, target: expect.objectContaining({ id }) })]);
    expect(JSON.stringify(password)).not.toContain('another123');

    const moved = uniqueEmail('moved');
    expect((await put({ email: moved })).status).toBe(200);
    expect(await trail(co.adminToken, 'auth.email_changed')).toEqual([
      expect.objectContaining({ ...actor, changes: { email: { from: email, to: moved } } }),
    ]);

    expect((await api('DELETE', `/users/${id}`, { token: co.adminToken, headers: from(address) })).status).toBe(200);
    expect(await trail(co.adminToken, 'user.deleted')).toEqual([
      expect.objectContaining({ ...actor, target: { type: 'user', id, name: 'Agent Audit' } }),
    ]);
  });

  it('a password reset by e-mailed code is recorded on the user’s company trail with the address', async () => {
    const co = await newCompany('audit-reset');
    const address = newAddress();
    await api('POST', `/forgetpassword/${co.admin.email}`, { headers: from(address) });
    const mail = (await outbox()).filter((m) => m.to === co.admin.email).pop()!;
    const code = /code is ([A-Z0-9]{8})/.exec(mail.text)![1]!;
    const reset = await api('POST', '/resetpasswords', {
      body: { email: co.admin.email, token: code, password: 'NewPass123' },
      headers: from(address),
    });
    expect(reset.status).toBe(200);
    const admin = await login(co.admin.email, 'NewPass123');
    expect(await trail(admin.token, 'auth.password_changed')).toEqual([
      expect.objectContaining({ actorId: null, address, target: expect.objectContaining({ id: co.admin.id }) }),
    ]);
  });
});
