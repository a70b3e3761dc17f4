import { describe, it, expect } from 'vitest';
import { inject } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { api, login, newCompany, realtimeClient, table, sleep, ADMIN, type TestCompany } from './helpers';

const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@test.dev`;

/** Creates a user through the API as the company's admin and logs them in. */
async function addUser(co: TestCompany, fields: Record<string, unknown> = {}) {
  const body = { name: 'Agent Smith', email: uniqueEmail('agent'), password: 'secret123', ...fields };
  const res = await api('POST', '/users', { token: co.adminToken, body });
  if (res.status !== 201) throw new Error(`create user failed: ${res.status} ${JSON.stringify(res.body)}`);
  const session = await login(body.email as string, body.password as string);
  return { user: res.body, token: session.token, email: body.email as string, password: body.password as string };
}

async function addQueue(co: TestCompany, name: string, color: string) {
  const res = await api('POST', '/queue', { token: co.adminToken, body: { name, color } });
  if (res.status !== 201) throw new Error(`create queue failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The stored WebSocket connection items of a company (what realtime filtering reads). */
async function storedConnections(companyId: number) {
  const doc = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  );
  const out = await doc.send(
    new QueryCommand({
      TableName: inject('tableName'),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': `C#${companyId}#WS` },
    }),
  );
  return out.Items ?? [];
}

const usersUsage = async (companyId: number) => (await table().get(`C#${companyId}`, 'COUNTER#usage#users'))?.value;

describe('users', () => {
  it('an admin creates a user with the modal fields; defaults profile user and allTicket desabled; the hash never leaves', async () => {
    const co = await newCompany('u-create');
    const email = uniqueEmail('new');
    const res = await api('POST', '/users', {
      token: co.adminToken,
      body: { name: 'New Agent', email, password: 'secret123' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'New Agent',
      email,
      profile: 'user',
      allTicket: 'desabled',
      whatsappId: null,
      queueIds: [],
      queues: [],
      companyId: co.companyId,
    });
    expect(res.body.passwordHash).toBeUndefined();
    expect(res.body.searchText).toBeUndefined();
    const fetched = await api('GET', `/users/${res.body.id}`, { token: co.adminToken });
    expect(fetched.body).toMatchObject({ id: res.body.id, email });
    expect((await login(email, 'secret123')).user.id).toBe(res.body.id);
  });

  it('validation of section 5: name 2 to 50, valid e-mail, password 8 to 50 (ERR_VALIDATION naming the fields)', async () => {
    const co = await newCompany('u-valid');
    const bad = await api('POST', '/users', {
      token: co.adminToken,
      body: { name: 'A', email: 'nope', password: 'seven77' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    expect(bad.body.details.map((d: any) => d.path[0]).sort()).toEqual(['email', 'name', 'password']);
    const long = await api('POST', '/users', {
      token: co.adminToken,
      body: { name: 'x'.repeat(51), email: uniqueEmail('l'), password: 'p'.repeat(51) },
    });
    expect(long.body.details.map((d: any) => d.path[0]).sort()).toEqual(['name', 'password']);
    const { user } = await addUser(co);
    const badEdit = await api('PUT', `/users/${user.id}`, {
      token: co.adminToken,
      body: { name: 'B', password: 'seven77' },
    });
    expect(badEdit.status).toBe(400);
    expect(badEdit.body.details.map((d: any) => d.path[0]).sort()).toEqual(['name', 'password']);
  });

  it('the password is optional on edit: without one the old password still works; with one it changes', async () => {
    const co = await newCompany('u-pass');
    const agent = await addUser(co);
    const keep = await api('PUT', `/users/${agent.user.id}`, {
      token: co.adminToken,
      body: { name: 'Renamed Agent', password: '' },
    });
    expect(keep.status).toBe(200);
    expect(keep.body.name).toBe('Renamed Agent');
    await login(agent.email, agent.password);
    await api('PUT', `/users/${agent.user.id}`, { token: co.adminToken, body: { password: 'another123' } });
    await expect(login(agent.email, agent.password)).rejects.toThrow(/401/);
    await login(agent.email, 'another123');
  });

  it('e-mail is unique platform-wide (ERR_EMAIL_ALREADY_EXISTS); changing it moves the guard, freeing the old one', async () => {
    const co = await newCompany('u-email');
    const other = await newCompany('u-email-other');
    const dup = await api('POST', '/users', {
      token: co.adminToken,
      body: { name: 'Dup', email: other.admin.email, password: 'secret123' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS');
    const agent = await addUser(co);
    const taken = await api('PUT', `/users/${agent.user.id}`, {
      token: co.adminToken,
      body: { email: other.admin.email },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS');
    // the failed change left everything as it was
    await login(agent.email, agent.password);
    const newEmail = uniqueEmail('moved');
    const moved = await api('PUT', `/users/${agent.user.id}`, {
      token: co.adminToken,
      body: { email: newEmail.toUpperCase() },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.email).toBe(newEmail);
    await login(newEmail, agent.password);
    await expect(login(agent.email, agent.password)).rejects.toThrow(/401/);
    const reuse = await api('POST', '/users', {
      token: co.adminToken,
      body: { name: 'Reuser', email: agent.email, password: 'secret123' },
    });
    expect(reuse.status).toBe(201);
  });

  it('a non-admin may edit only themselves (name, e-mail, password); another user is ERR_NO_PERMISSION', async () => {
    const co = await newCompany('u-self');
    const a = await addUser(co);
    const b = await addUser(co);
    const own = await api('PUT', `/users/${a.user.id}`, {
      token: a.token,
      body: { name: 'My New Name', profile: 'user', allTicket: 'desabled', queueIds: [], whatsappId: null },
    });
    expect(own.status).toBe(200);
    expect(own.body.name).toBe('My New Name');
    const other = await api('PUT', `/users/${b.user.id}`, { token: a.token, body: { name: 'Hacked' } });
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('ERR_NO_PERMISSION');
    expect((await api('GET', `/users/${b.user.id}`, { token: a.token })).body.name).toBe('Agent Smith');
    expect(
      (
        await api('POST', '/users', {
          token: a.token,
          body: { name: 'X Y', email: uniqueEmail('x'), password: 'secret123' },
        })
      ).status,
    ).toBe(403);
    expect((await api('DELETE', `/users/${b.user.id}`, { token: a.token })).status).toBe(403);
  });

  it('only user-modal:editProfile may change profile, connection and allTicket; only user-modal:editQueues the queues', async () => {
    const co = await newCompany('u-perm');
    const queue = await addQueue(co, 'Sales', '#FF0000');
    const a = await addUser(co);
    for (const body of [{ profile: 'admin' }, { allTicket: 'enabled' }, { whatsappId: 99 }]) {
      const res = await api('PUT', `/users/${a.user.id}`, { token: a.token, body });
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    const queues = await api('PUT', `/users/${a.user.id}`, { token: a.token, body: { queueIds: [queue.id] } });
    expect(queues.status).toBe(403);
    const me = await api('GET', `/users/${a.user.id}`, { token: a.token });
    expect(me.body).toMatchObject({ profile: 'user', allTicket: 'desabled', queueIds: [] });
    // the admin holds both permissions
    const byAdmin = await api('PUT', `/users/${a.user.id}`, {
      token: co.adminToken,
      body: { profile: 'supervisor', allTicket: 'enabled', queueIds: [queue.id] },
    });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({
      profile: 'supervisor',
      allTicket: 'enabled',
      queueIds: [queue.id],
      queues: [{ id: queue.id, name: 'Sales', color: '#FF0000' }],
    });
  });

  it("queue ids and the connection must be the company's own", async () => {
    const co = await newCompany('u-refs');
    const other = await newCompany('u-refs-other');
    const foreignQueue = await addQueue(other, 'Theirs', '#00FF00');
    const a = await addUser(co);
    const res = await api('PUT', `/users/${a.user.id}`, {
      token: co.adminToken,
      body: { queueIds: [foreignQueue.id] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    const wapp = await api('PUT', `/users/${a.user.id}`, { token: co.adminToken, body: { whatsappId: 424242 } });
    expect(wapp.status).toBe(404);
    expect(wapp.body.error).toBe('ERR_NO_WAPP_FOUND');
  });

  it('the plan user limit is enforced (ERR_PLAN_LIMIT_REACHED), and deleting a user gives the seat back', async () => {
    const co = await newCompany('u-limit');
    const agent = await addUser(co);
    expect(await usersUsage(co.companyId)).toBe(2);
    // plan 1 allows 10 users: fill the counter up to the limit
    await table().set(`C#${co.companyId}`, 'COUNTER#usage#users', { value: 10 });
    const over = await api('POST', '/users', {
      token: co.adminToken,
      body: { name: 'Eleventh', email: uniqueEmail('over'), password: 'secret123' },
    });
    expect(over.status).toBe(403);
    expect(over.body.error).toBe('ERR_PLAN_LIMIT_REACHED');
    expect((await api('DELETE', `/users/${agent.user.id}`, { token: co.adminToken })).status).toBe(200);
    expect(await usersUsage(co.companyId)).toBe(9);
    const fits = await api('POST', '/users', {
      token: co.adminToken,
      body: { name: 'Tenth', email: uniqueEmail('fits'), password: 'secret123' },
    });
    expect(fits.status).toBe(201);
  });

  it("userCreation 'disabled' refuses creation by company admins (ERR_USER_CREATION_DISABLED); a platform super user still creates", async () => {
    const co = await newCompany('u-disabled');
    expect(
      (await api('PUT', '/settings/userCreation', { token: co.adminToken, body: { value: 'disabled' } })).status,
    ).toBe(200);
    const res = await api('POST', '/users', {
      token: co.adminToken,
      body: { name: 'Blocked', email: uniqueEmail('blocked'), password: 'secret123' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_USER_CREATION_DISABLED');
    await api('PUT', '/settings/userCreation', { token: co.adminToken, body: { value: 'enabled' } });
    expect(
      (
        await api('POST', '/users', {
          token: co.adminToken,
          body: { name: 'Allowed', email: uniqueEmail('ok'), password: 'secret123' },
        })
      ).status,
    ).toBe(201);

    const root = await login(ADMIN.email, ADMIN.password);
    await api('PUT', '/settings/userCreation', { token: root.token, body: { value: 'disabled' } });
    try {
      const bySuper = await api('POST', '/users', {
        token: root.token,
        body: { name: 'By Super', email: uniqueEmail('super'), password: 'secret123' },
      });
      expect(bySuper.status).toBe(201);
      await api('DELETE', `/users/${bySuper.body.id}`, { token: root.token });
    } finally {
      await api('PUT', '/settings/userCreation', { token: root.token, body: { value: 'enabled' } });
    }
  });

  it('deleting a user frees the e-mail, closes nothing of others, and is 404 afterwards; an admin cannot delete themselves', async () => {
    const co = await newCompany('u-delete');
    const agent = await addUser(co);
    const del = await api('DELETE', `/users/${agent.user.id}`, { token: co.adminToken });
    expect(del.status).toBe(200);
    const gone = await api('GET', `/users/${agent.user.id}`, { token: co.adminToken });
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('ERR_NO_USER_FOUND');
    expect((await api('DELETE', `/users/${agent.user.id}`, { token: co.adminToken })).body.error).toBe(
      'ERR_NO_USER_FOUND',
    );
    await expect(login(agent.email, agent.password)).rejects.toThrow(/401/);
    const again = await api('POST', '/users', {
      token: co.adminToken,
      body: { name: 'Same Mail', email: agent.email, password: 'secret123' },
    });
    expect(again.status).toBe(201);
    const self = await api('DELETE', `/users/${co.admin.id}`, { token: co.adminToken });
    expect(self.status).toBe(403);
  });

  it('GET /users pages by cursor and searches name and e-mail; GET /users/list returns the whole company and nothing else', async () => {
    const co = await newCompany('u-list');
    const other = await newCompany('u-list-other');
    await addUser(co, { name: 'Maria Souza' });
    await addUser(co, { name: 'João Lima' });
    await addUser(co, { name: 'Mariana Alves' });
    await addUser(other, { name: 'Maria Foreign' });
    const first = await api('GET', '/users?limit=2', { token: co.adminToken });
    expect(first.status).toBe(200);
    expect(first.body.users).toHaveLength(2);
    expect(first.body.hasMore).toBe(true);
    const second = await api('GET', `/users?limit=2&cursor=${encodeURIComponent(first.body.cursor)}`, {
      token: co.adminToken,
    });
    expect(second.body.users.map((u: any) => u.name)).toEqual(['João Lima', 'Mariana Alves']);
    const search = await api('GET', '/users?searchParam=MARIA', { token: co.adminToken });
    expect(search.body.users.map((u: any) => u.name).sort()).toEqual(['Maria Souza', 'Mariana Alves']);
    const byMail = await api('GET', `/users?searchParam=${encodeURIComponent(co.admin.email.slice(0, 12))}`, {
      token: co.adminToken,
    });
    expect(byMail.body.users.map((u: any) => u.id)).toEqual([co.admin.id]);
    const list = await api('GET', `/users/list?companyId=${other.companyId}`, { token: co.adminToken });
    expect(list.body.map((u: any) => u.name).sort()).toEqual(['João Lima', 'Maria Souza', 'Mariana Alves', 'Owner']);
    const foreignCursor = await api('GET', `/users?cursor=${encodeURIComponent(first.body.cursor)}`, {
      token: other.adminToken,
    });
    expect(foreignCursor.body.error).toBe('ERR_INVALID_CURSOR');
  });

  it('the users page list is for admins only; any user reads GET /users/list', async () => {
    const co = await newCompany('u-page');
    const a = await addUser(co);
    expect((await api('GET', '/users', { token: a.token })).status).toBe(403);
    expect((await api('GET', '/users/list', { token: a.token })).status).toBe(200);
  });

  it("POST /users/set-language/{lang} sets the caller's own language, pt, en or es only", async () => {
    const co = await newCompany('u-lang');
    const a = await addUser(co);
    const res = await api('POST', '/users/set-language/es', { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: a.user.id, language: 'es' });
    expect((await api('GET', '/auth/me', { token: a.token })).body.language).toBe('es');
    expect((await api('GET', `/users/${co.admin.id}`, { token: co.adminToken })).body.language).toBeUndefined();
    const bad = await api('POST', '/users/set-language/fr', { token: a.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
  });

  it('user events (create, update, delete) reach the own company and never another company', async () => {
    const co = await newCompany('u-events');
    const other = await newCompany('u-events-other');
    const mine = await realtimeClient(co.adminToken);
    const theirs = await realtimeClient(other.adminToken);
    const agent = await addUser(co);
    const name = `company-${co.companyId}-user`;
    const created = await mine.waitFor((e) => e.event === name && e.data.action === 'create');
    expect(created.data.user).toMatchObject({ id: agent.user.id, email: agent.email });
    await api('PUT', `/users/${agent.user.id}`, { token: co.adminToken, body: { name: 'Updated Name' } });
    const updated = await mine.waitFor((e) => e.event === name && e.data.action === 'update');
    expect(updated.data.user.name).toBe('Updated Name');
    await api('DELETE', `/users/${agent.user.id}`, { token: co.adminToken });
    const deleted = await mine.waitFor((e) => e.event === name && e.data.action === 'delete');
    expect(deleted.data.userId).toBe(agent.user.id);
    await sleep(200);
    expect(theirs.events.filter((e) => e.event.endsWith('-user'))).toEqual([]);
    mine.close();
    theirs.close();
  });

  it("changing a user's queues or profile updates the visibility data of their open sockets", async () => {
    const co = await newCompany('u-sockets');
    const q1 = await addQueue(co, 'First', '#111111');
    const q2 = await addQueue(co, 'Second', '#222222');
    const agent = await addUser(co, { queueIds: [q1.id] });
    const socket = await realtimeClient(agent.token);
    const before = (await storedConnections(co.companyId)).filter((c) => c.userId === agent.user.id);
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ profile: 'user', queueIds: [q1.id], allTicket: 'desabled' });
    await api('PUT', `/users/${agent.user.id}`, {
      token: co.adminToken,
      body: { queueIds: [q2.id], profile: 'supervisor', allTicket: 'enabled' },
    });
    const after = (await storedConnections(co.companyId)).filter((c) => c.userId === agent.user.id);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      connectionId: before[0]!.connectionId,
      profile: 'supervisor',
      queueIds: [q2.id],
      allTicket: 'enabled',
    });
    // deleting the queue takes it out of the user's list and their socket's
    await api('DELETE', `/queue/${q2.id}`, { token: co.adminToken });
    expect((await api('GET', `/users/${agent.user.id}`, { token: co.adminToken })).body.queueIds).toEqual([]);
    expect((await storedConnections(co.companyId)).find((c) => c.userId === agent.user.id)?.queueIds).toEqual([]);
    // a deleted user's sockets are dropped
    await api('DELETE', `/users/${agent.user.id}`, { token: co.adminToken });
    expect((await storedConnections(co.companyId)).filter((c) => c.userId === agent.user.id)).toEqual([]);
    socket.close();
  });

  it("another company's user ids are 404 on every user route", async () => {
    const a = await newCompany('u-iso-a');
    const b = await newCompany('u-iso-b');
    const agent = await addUser(a);
    expect((await api('GET', `/users/${agent.user.id}`, { token: b.adminToken })).status).toBe(404);
    expect(
      (await api('PUT', `/users/${agent.user.id}`, { token: b.adminToken, body: { name: 'Stolen' } })).status,
    ).toBe(404);
    expect((await api('DELETE', `/users/${agent.user.id}`, { token: b.adminToken })).status).toBe(404);
    expect((await api('GET', `/users/${agent.user.id}`, { token: a.adminToken })).body.name).toBe('Agent Smith');
  });
});
