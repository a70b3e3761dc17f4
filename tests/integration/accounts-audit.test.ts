import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ADMIN, api, login, newCompany, outbox } from './helpers';
import { createQueue, createUser } from './fixtures';

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
  it('failed sign-ins go on the trail of the e-mail’s company with the address (an unknown e-mail on the platform’s); refusals by the limiter add no failure', async () => {
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

  it('refusals by the limiter make one entry per address and window on the platform trail, naming neither the e-mail nor its company', async () => {
    const co = await newCompany('audit-blocked');
    const root = await login(ADMIN.email, ADMIN.password);
    const attempt = (email: string, address: string) =>
      api('POST', '/auth/login', { body: { email, password: 'wrong-password' }, headers: from(address) });
    const address = newAddress();
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) answers.push((await attempt(co.admin.email, address)).status);
    expect(answers.filter((s) => s === 429).length).toBeGreaterThan(3);
    // an unknown e-mail from the same address within the window adds nothing either
    const ghost = uniqueEmail('ghost');
    for (let i = 0; i < 25; i++) await attempt(ghost, address);

    const blocked = (await trail(root.token, 'auth.signin_blocked', 1)).filter((e) => e.address === address);
    expect(blocked).toEqual([expect.objectContaining({ actorId: null, target: { type: 'address', id: address } })]);
    expect(JSON.stringify(blocked)).not.toContain(co.admin.email);
    expect(JSON.stringify(blocked)).not.toContain(ghost);
    expect(await trail(co.adminToken, 'auth.signin_blocked')).toEqual([]);

    // another address refused on the same e-mail (failures count per address and account) has its own entry
    const other = newAddress();
    const more: number[] = [];
    for (let i = 0; i < 12; i++) more.push((await attempt(co.admin.email, other)).status);
    expect(more.filter((s) => s === 429).length).toBeGreaterThan(3);
    const both = (await trail(root.token, 'auth.signin_blocked', 1)).filter((e) =>
      [address, other].includes(e.address!),
    );
    expect(both.map((e) => e.address).sort()).toEqual([address, other].sort());
  });

  it('a change of queues, name or visibility flags is recorded as user.updated with before and after, never the password', async () => {
    const co = await newCompany('audit-user-upd');
    const address = newAddress();
    const queue = await createQueue(co.adminToken);
    const agent = await createUser(co, { name: 'Before Name' });
    const put = (body: Record<string, unknown>) =>
      api('PUT', `/users/${agent.id}`, { token: co.adminToken, body, headers: from(address) });
    const changed = await put({
      name: 'After Name',
      queueIds: [queue.id],
      allTicket: 'enabled',
      showNoQueue: true,
      maxOpenTickets: 3,
      password: 'brand-new-secret',
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const updates = await trail(co.adminToken, 'user.updated');
    expect(updates).toEqual([
      expect.objectContaining({
        actorId: co.admin.id,
        address,
        target: { type: 'user', id: agent.id, name: 'After Name' },
        changes: {
          name: { from: 'Before Name', to: 'After Name' },
          queueIds: { from: [], to: [queue.id] },
          allTicket: { from: 'desabled', to: 'enabled' },
          showNoQueue: { from: false, to: true },
          maxOpenTickets: { from: null, to: 3 },
        },
      }),
    ]);
    expect(JSON.stringify(await trail(co.adminToken, 'user.updated'))).not.toMatch(/brand-new-secret|password/i);
    // the same values sent back (as the form does) change nothing and record nothing
    expect((await put({ name: 'After Name', queueIds: [queue.id], allTicket: 'enabled' })).status).toBe(200);
    expect(await trail(co.adminToken, 'user.updated')).toHaveLength(1);
    expect((await put({ queueIds: [] })).status).toBe(200);
    expect((await trail(co.adminToken, 'user.updated'))[0]!.changes).toEqual({
      queueIds: { from: [queue.id], to: [] },
    });
  });

  it('signing out of every session ends them all and is recorded with the user and the address', async () => {
    const co = await newCompany('audit-logout-all');
    const agent = await createUser(co);
    const second = await login(agent.email, 'secret123');
    const address = newAddress();
    const res = await api('DELETE', '/auth/sessions', { token: agent.token, headers: from(address) });
    expect(res.status).toBe(204);
    expect((await api('GET', '/auth/me', { token: agent.token })).status).toBe(401);
    expect((await api('GET', '/auth/me', { token: second.token })).status).toBe(401);
    expect(await trail(co.adminToken, 'auth.logout_all')).toEqual([
      expect.objectContaining({
        actorId: agent.id,
        address,
        target: { type: 'user', id: agent.id },
        changes: { sessions: 2 },
      }),
    ]);
    // a plain logout is not "every session"
    const third = await login(agent.email, 'secret123');
    expect((await api('DELETE', '/auth/logout', { token: third.token, body: {} })).status).toBe(204);
    expect(await trail(co.adminToken, 'auth.logout_all')).toHaveLength(1);
  });
});
