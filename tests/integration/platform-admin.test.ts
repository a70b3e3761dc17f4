import { describe, expect, it } from 'vitest';
import { ADMIN, api, login, newCompany, queuesIdle, runTimer, table, usesTimers } from './helpers';
import { createQueue, createUser } from './fixtures';
import { rawTable } from './whatsapp-sim';

// the cleanup timer runs over every deleted company; the plans and helps it changes are its own
usesTimers('company-cleanup');

const superToken = async () => (await login(ADMIN.email, ADMIN.password)).token;
const uid = () => Math.random().toString(36).slice(2, 8);

describe('platform administration: companies, plans, helps, limits', () => {
  it('companies, plans and helps are changed only by the super user (403 ERR_NO_PERMISSION); /plans/list is public, helps readable by all', async () => {
    const co = await newCompany('pa1');
    for (const [method, path] of [
      ['GET', '/companies'],
      ['GET', '/companies/list'],
      ['POST', '/companies'],
      ['PUT', '/companies/1'],
      ['DELETE', '/companies/1'],
      ['POST', '/companies/1/expire'],
      ['GET', '/plans/all'],
      ['GET', '/plans/1'],
      ['POST', '/plans'],
      ['PUT', '/plans/1'],
      ['DELETE', '/plans/1'],
      ['POST', '/helps'],
      ['PUT', '/helps/1'],
      ['DELETE', '/helps/1'],
    ] as const) {
      const res = await api(method, path, { token: co.adminToken, body: method === 'GET' ? undefined : {} });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error, `${method} ${path}`).toBe('ERR_NO_PERMISSION');
    }
    expect((await api('GET', `/companies/1`, { token: co.adminToken })).status).toBe(403);
    expect((await api('GET', `/companies/${co.companyId}`, { token: co.adminToken })).status).toBe(200);
    expect((await api('GET', '/plans/list')).status).toBe(200);

    const sup = await superToken();
    const help = await api('POST', '/helps', { token: sup, body: { title: `Intro ${uid()}`, video: 'abc123' } });
    expect(help.status).toBe(201);
    expect((await api('POST', '/helps', { token: sup, body: { video: 'x' } })).body.error).toBe('ERR_VALIDATION');
    const listed = await api('GET', '/helps/list', { token: co.adminToken });
    expect(listed.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: help.body.id, video: 'abc123' })]),
    );
    const edited = await api('PUT', `/helps/${help.body.id}`, { token: sup, body: { description: 'Start here' } });
    expect(edited.body).toMatchObject({ description: 'Start here', video: 'abc123' });
    expect((await api('DELETE', `/helps/${help.body.id}`, { token: sup })).status).toBe(200);
    expect((await api('PUT', `/helps/${help.body.id}`, { token: sup, body: { title: 'x' } })).status).toBe(404);
  });

  it('plans: CRUD with unique names; a plan in use cannot be deleted', async () => {
    const sup = await superToken();
    const name = `Gold ${uid()}`;
    const created = await api('POST', '/plans', {
      token: sup,
      body: { name, users: 3, connections: 2, queues: 4, value: '59,90', useKanban: true },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name, value: 59.9, useKanban: true, useCampaigns: false });
    const dup = await api('POST', '/plans', {
      token: sup,
      body: { name: name.toUpperCase(), users: 1, connections: 1, queues: 1, value: 1 },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_DUPLICATED');
    expect((await api('PUT', `/plans/${created.body.id}`, { token: sup, body: { value: 69 } })).body.value).toBe(69);
    expect((await api('GET', '/plans/all', { token: sup })).body.map((p: any) => p.id)).toContain(created.body.id);

    const co = await newCompany('pa2');
    await api('PUT', `/companies/${co.companyId}`, { token: sup, body: { planId: created.body.id } });
    const inUse = await api('DELETE', `/plans/${created.body.id}`, { token: sup });
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toBe('ERR_PLAN_IN_USE');
    await api('PUT', `/companies/${co.companyId}`, { token: sup, body: { planId: 1 } });
    expect((await api('DELETE', `/plans/${created.body.id}`, { token: sup })).status).toBe(200);
    expect((await api('GET', `/plans/${created.body.id}`, { token: sup })).status).toBe(404);
  });

  it('companies: create with its admin, search, due-date colour, Expire by recurrence, empty due date is null', async () => {
    const sup = await superToken();
    const email = `boss-${uid()}@test.dev`;
    const name = `Acme ${uid()}`;
    const due = new Date(Date.now() + 5 * 24 * 3600 * 1000).toISOString();
    const created = await api('POST', '/companies', {
      token: sup,
      body: {
        name,
        email,
        planId: 1,
        dueDate: due,
        recurrence: 'TRIMESTRAL',
        password: 'secret123',
        billingName: 'Acme Ltda',
        document: '11.222.333/0001-81',
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name, dueColour: 'yellow', document: '11222333000181', plan: { id: 1 } });
    const admin = await login(email, 'secret123');
    expect(admin.user.profile).toBe('admin');

    const found = await api('GET', `/companies?searchParam=${encodeURIComponent(name.toLowerCase())}`, { token: sup });
    expect(found.body.companies.map((c: any) => c.id)).toEqual([created.body.id]);

    // "Expire" moves the due date by the recurrence (three months), clamped to a shorter month's
    // last day: fixed due dates, so the rule is checked on its hard days whatever today is
    const expire = async (dueDate: string) => {
      await api('PUT', `/companies/${created.body.id}`, { token: sup, body: { dueDate } });
      const expired = await api('POST', `/companies/${created.body.id}/expire`, { token: sup });
      expect(expired.status, JSON.stringify(expired.body)).toBe(200);
      return expired.body.dueDate;
    };
    expect(await expire('2026-11-30T12:00:00.000Z')).toBe('2027-02-28T12:00:00.000Z');
    expect(await expire('2027-11-30T12:00:00.000Z')).toBe('2028-02-29T12:00:00.000Z');
    expect(await expire('2026-12-31T03:00:00.000Z')).toBe('2027-03-31T03:00:00.000Z');
    expect(await expire('2026-03-15T10:00:00.000Z')).toBe('2026-06-15T10:00:00.000Z');

    const cleared = await api('PUT', `/companies/${created.body.id}`, { token: sup, body: { dueDate: '' } });
    expect(cleared.body.dueDate).toBeNull();
    const bad = await api('PUT', `/companies/${created.body.id}`, { token: sup, body: { recurrence: 'WEEKLY' } });
    expect(bad.body.error).toBe('ERR_VALIDATION');
    expect((await api('PUT', '/companies/1', { token: sup, body: { status: false } })).body.error).toBe(
      'ERR_PLATFORM_COMPANY',
    );
  });

  it('deleting a company removes its data and media in the background, and its users can no longer sign in', async () => {
    const sup = await superToken();
    const co = await newCompany('pa4');
    await createQueue(co.adminToken);
    // data of the newer modules, kept in partitions of their own
    const agent = await createUser(co);
    const chat = (await api('POST', '/chats', { token: co.adminToken, body: { title: 'Equipe', users: [agent.id] } }))
      .body;
    await api('POST', `/chats/${chat.id}/messages`, { token: co.adminToken, body: { message: 'oi' } });
    const list = (await api('POST', '/contact-lists', { token: co.adminToken, body: { name: 'Lista' } })).body;
    await api('POST', '/contact-list-items', {
      token: co.adminToken,
      body: { name: 'Item', number: '5511977776666', contactListId: list.id },
    });
    const leftovers = async () =>
      (
        await Promise.all([
          rawTable().query(`C#${co.companyId}#CHATMSG#${String(chat.id).padStart(10, '0')}`),
          rawTable().query(`C#${co.companyId}#UCHAT#${agent.id}`),
          rawTable().query(`C#${co.companyId}#CLI#${list.id}`),
        ])
      ).map((items) => items.length);
    expect(await leftovers()).toEqual([1, 1, 1]);
    const res = await api('DELETE', `/companies/${co.companyId}`, { token: sup });
    expect(res.status).toBe(202);
    // the admin's session ends at once
    expect((await api('GET', '/queue', { token: co.adminToken })).status).toBe(401);
    // still there until the cleanup timer runs
    expect((await table().get(`C#${co.companyId}`, 'COMPANY'))?.deletingAt).toEqual(expect.any(String));
    await runTimer('company-cleanup');
    await queuesIdle();
    expect(await table().get(`C#${co.companyId}`, 'COMPANY')).toBeUndefined();
    expect(await table().get(`C#${co.companyId}`, 'COUNTER#usage#queues')).toBeUndefined();
    expect(await table().get(`EMAIL#${co.admin.email}`, 'EMAIL')).toBeUndefined();
    expect(await leftovers()).toEqual([0, 0, 0]);
    expect((await api('GET', `/companies/${co.companyId}`, { token: sup })).status).toBe(404);
    expect(
      (await api('POST', '/auth/login', { body: { email: co.admin.email, password: co.admin.password } })).status,
    ).toBe(401);
    // the e-mail is free again
    const again = await api('POST', '/companies/cadastro', {
      body: { companyName: 'Again', name: 'Owner', email: co.admin.email, password: 'secret123', planId: 1 },
    });
    expect(again.status).toBe(201);
  });

  it('plan limits: users, connections and queues are refused past the plan with the limit named; plan flags guard their routes', async () => {
    const sup = await superToken();
    const plan = (
      await api('POST', '/plans', {
        token: sup,
        body: { name: `Tiny ${uid()}`, users: 1, connections: 0, queues: 1, value: 10, useKanban: false },
      })
    ).body;
    const co = await newCompany('pa5');
    await api('PUT', `/companies/${co.companyId}`, { token: sup, body: { planId: plan.id } });

    const user = await api('POST', '/users', {
      token: co.adminToken,
      body: { name: 'Second', email: `second-${uid()}@test.dev`, password: 'secret123', profile: 'user' },
    });
    expect(user.status).toBe(403);
    expect(user.body).toMatchObject({ error: 'ERR_PLAN_LIMIT_REACHED', details: { limit: 'users', max: 1 } });

    const line = await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Line 1' } });
    expect(line.status).toBe(403);
    expect(line.body).toMatchObject({ error: 'ERR_PLAN_LIMIT_REACHED', details: { limit: 'connections', max: 0 } });

    await createQueue(co.adminToken);
    const queue = await api('POST', '/queue', { token: co.adminToken, body: { name: `Q ${uid()}`, color: '#123456' } });
    expect(queue.status).toBe(403);
    expect(queue.body).toMatchObject({ error: 'ERR_PLAN_LIMIT_REACHED', details: { limit: 'queues', max: 1 } });

    const kanban = await api('GET', '/tags/kanban', { token: co.adminToken });
    expect(kanban.status).toBe(403);
    expect(kanban.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    await api('PUT', `/plans/${plan.id}`, { token: sup, body: { useKanban: true } });
    expect((await api('GET', '/tags/kanban', { token: co.adminToken })).status).toBe(200);
  });
});
