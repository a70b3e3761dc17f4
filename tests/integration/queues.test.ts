import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { api, login, newCompany, realtimeClient, table, sleep, type TestCompany } from './helpers';

const DEFAULT_SCHEDULES = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday', startTime: '08:00', endTime: '18:00' },
  { weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' },
  { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
];

async function addQueue(co: TestCompany, body: Record<string, unknown>) {
  const res = await api('POST', '/queue', { token: co.adminToken, body });
  if (res.status !== 201) throw new Error(`create queue failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function addAgent(co: TestCompany) {
  const email = `agent-${randomUUID().slice(0, 8)}@test.dev`;
  await api('POST', '/users', { token: co.adminToken, body: { name: 'Agent', email, password: 'secret123' } });
  return (await login(email, 'secret123')).token;
}

const queuesUsage = async (companyId: number) => (await table().get(`C#${companyId}`, 'COUNTER#usage#queues'))?.value;

describe('queues', () => {
  it('a new queue keeps its fields and gets the default business hours of section 9 (Monday first)', async () => {
    const co = await newCompany('q-create');
    const res = await api('POST', '/queue', {
      token: co.adminToken,
      body: {
        name: 'Sales',
        color: '#FF0000',
        greetingMessage: 'Hi',
        outOfHoursMessage: 'Closed',
        orderQueue: 2,
        integrationId: null,
        promptId: '',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Sales',
      color: '#FF0000',
      greetingMessage: 'Hi',
      outOfHoursMessage: 'Closed',
      orderQueue: 2,
      integrationId: null,
      promptId: null,
      companyId: co.companyId,
    });
    expect(res.body.schedules).toEqual(DEFAULT_SCHEDULES);
    expect((await api('GET', `/queue/${res.body.id}`, { token: co.adminToken })).body).toEqual(res.body);
  });

  it('validation of section 5: name 2 to 50, color 3 to 9 characters, schedule times HH:MM', async () => {
    const co = await newCompany('q-valid');
    const bad = await api('POST', '/queue', { token: co.adminToken, body: { name: 'A', color: '#F' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    expect(bad.body.details.map((d: any) => d.path[0]).sort()).toEqual(['color', 'name']);
    const long = await api('POST', '/queue', {
      token: co.adminToken,
      body: { name: 'x'.repeat(51), color: '#1234567890' },
    });
    expect(long.body.details.map((d: any) => d.path[0]).sort()).toEqual(['color', 'name']);
    const missing = await api('POST', '/queue', { token: co.adminToken, body: {} });
    expect(missing.body.details.map((d: any) => d.path[0]).sort()).toEqual(['color', 'name']);
    const hours = await api('POST', '/queue', {
      token: co.adminToken,
      body: { name: 'Night', color: '#000', schedules: [{ ...DEFAULT_SCHEDULES[0], startTime: '25:00' }] },
    });
    expect(hours.status).toBe(400);
    expect(hours.body.details[0].path).toEqual(['schedules', 0, 'startTime']);
  });

  it('the colour is unique per company (ERR_QUEUE_COLOR_ALREADY_EXISTS); another company may use it; a change moves the guard', async () => {
    const co = await newCompany('q-color');
    const other = await newCompany('q-color-other');
    const sales = await addQueue(co, { name: 'Sales', color: '#ff0000' });
    const dup = await api('POST', '/queue', { token: co.adminToken, body: { name: 'Support', color: '#FF0000' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    expect(
      (await api('POST', '/queue', { token: other.adminToken, body: { name: 'Sales', color: '#ff0000' } })).status,
    ).toBe(201);
    const support = await addQueue(co, { name: 'Support', color: '#00ff00' });
    const clash = await api('PUT', `/queue/${support.id}`, { token: co.adminToken, body: { color: '#FF0000' } });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    expect((await api('GET', `/queue/${support.id}`, { token: co.adminToken })).body.color).toBe('#00ff00');
    const moved = await api('PUT', `/queue/${sales.id}`, { token: co.adminToken, body: { color: '#0000ff' } });
    expect(moved.status).toBe(200);
    // the old colour is free again, the new one is taken
    expect(
      (await api('PUT', `/queue/${support.id}`, { token: co.adminToken, body: { color: '#ff0000' } })).status,
    ).toBe(200);
    expect(
      (await api('POST', '/queue', { token: co.adminToken, body: { name: 'Third', color: '#0000FF' } })).body.error,
    ).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  });

  it('the name is unique per company (ERR_DUPLICATED on name)', async () => {
    const co = await newCompany('q-name');
    await addQueue(co, { name: 'Sales', color: '#111' });
    const dup = await api('POST', '/queue', { token: co.adminToken, body: { name: ' sales ', color: '#222' } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: 'ERR_DUPLICATED', details: [{ path: ['name'] }] });
    const renamed = await addQueue(co, { name: 'Support', color: '#333' });
    expect((await api('PUT', `/queue/${renamed.id}`, { token: co.adminToken, body: { name: 'SALES' } })).status).toBe(
      409,
    );
    expect(
      (await api('PUT', `/queue/${renamed.id}`, { token: co.adminToken, body: { name: 'Help desk' } })).status,
    ).toBe(200);
    expect(
      (await api('POST', '/queue', { token: co.adminToken, body: { name: 'Support', color: '#444' } })).status,
    ).toBe(201);
  });

  it('GET /queue lists the company queues ordered by orderQueue, then name', async () => {
    const co = await newCompany('q-order');
    await addQueue(co, { name: 'Zulu', color: '#001', orderQueue: 1 });
    await addQueue(co, { name: 'Bravo', color: '#002', orderQueue: 2 });
    await addQueue(co, { name: 'Alpha', color: '#003', orderQueue: 2 });
    await addQueue(co, { name: 'Aardvark', color: '#004' });
    const list = await api('GET', '/queue', { token: co.adminToken });
    expect(list.body.map((q: any) => q.name)).toEqual(['Zulu', 'Alpha', 'Bravo', 'Aardvark']);
  });

  it('the plan queue limit is enforced (ERR_PLAN_LIMIT_REACHED); deleting a queue frees a slot', async () => {
    const co = await newCompany('q-limit');
    const first = await addQueue(co, { name: 'First', color: '#101' });
    expect(await queuesUsage(co.companyId)).toBe(1);
    await table().set(`C#${co.companyId}`, 'COUNTER#usage#queues', { value: 10 });
    const over = await api('POST', '/queue', { token: co.adminToken, body: { name: 'Over', color: '#102' } });
    expect(over.status).toBe(403);
    expect(over.body.error).toBe('ERR_PLAN_LIMIT_REACHED');
    // a refused create leaves no guard behind: the name and colour stay free
    expect((await api('DELETE', `/queue/${first.id}`, { token: co.adminToken })).status).toBe(200);
    expect(await queuesUsage(co.companyId)).toBe(9);
    expect((await api('POST', '/queue', { token: co.adminToken, body: { name: 'Over', color: '#102' } })).status).toBe(
      201,
    );
  });

  it('only admins create, change or delete queues (ERR_NO_PERMISSION); every user reads them', async () => {
    const co = await newCompany('q-perm');
    const queue = await addQueue(co, { name: 'Sales', color: '#123' });
    const agent = await addAgent(co);
    expect((await api('POST', '/queue', { token: agent, body: { name: 'Mine', color: '#321' } })).body.error).toBe(
      'ERR_NO_PERMISSION',
    );
    expect((await api('PUT', `/queue/${queue.id}`, { token: agent, body: { name: 'Mine' } })).status).toBe(403);
    expect((await api('DELETE', `/queue/${queue.id}`, { token: agent })).status).toBe(403);
    expect((await api('GET', '/queue', { token: agent })).body.map((q: any) => q.id)).toEqual([queue.id]);
    expect((await api('GET', `/queue/${queue.id}`, { token: agent })).status).toBe(200);
  });

  it('business hours can be edited per queue; a deleted queue is 404 and its name and colour are free', async () => {
    const co = await newCompany('q-edit');
    const queue = await addQueue(co, { name: 'Sales', color: '#abc' });
    const hours = DEFAULT_SCHEDULES.map((d) => ({ ...d, startTime: '09:00', endTime: '17:00' }));
    const res = await api('PUT', `/queue/${queue.id}`, {
      token: co.adminToken,
      body: { schedules: hours, orderQueue: 5 },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ schedules: hours, orderQueue: 5, name: 'Sales', color: '#abc' });
    await api('DELETE', `/queue/${queue.id}`, { token: co.adminToken });
    const gone = await api('GET', `/queue/${queue.id}`, { token: co.adminToken });
    expect(gone.status).toBe(404);
    expect((await api('PUT', `/queue/${queue.id}`, { token: co.adminToken, body: { name: 'Back' } })).status).toBe(404);
    expect((await api('POST', '/queue', { token: co.adminToken, body: { name: 'Sales', color: '#abc' } })).status).toBe(
      201,
    );
  });

  it('queue events (create, update, delete) reach the own company and never another company', async () => {
    const co = await newCompany('q-events');
    const other = await newCompany('q-events-other');
    const mine = await realtimeClient(co.adminToken);
    const theirs = await realtimeClient(other.adminToken);
    const queue = await addQueue(co, { name: 'Sales', color: '#e1e' });
    const name = `company-${co.companyId}-queue`;
    expect((await mine.waitFor((e) => e.event === name && e.data.action === 'create')).data.queue).toMatchObject({
      id: queue.id,
      name: 'Sales',
    });
    await api('PUT', `/queue/${queue.id}`, { token: co.adminToken, body: { name: 'Sales 2' } });
    expect((await mine.waitFor((e) => e.event === name && e.data.action === 'update')).data.queue.name).toBe('Sales 2');
    await api('DELETE', `/queue/${queue.id}`, { token: co.adminToken });
    expect((await mine.waitFor((e) => e.event === name && e.data.action === 'delete')).data.queueId).toBe(queue.id);
    await sleep(200);
    expect(theirs.events.filter((e) => e.event.endsWith('-queue'))).toEqual([]);
    mine.close();
    theirs.close();
  });

  it("another company's queue ids are 404 on every queue route", async () => {
    const a = await newCompany('q-iso-a');
    const b = await newCompany('q-iso-b');
    const queue = await addQueue(a, { name: 'Secret', color: '#999' });
    expect((await api('GET', `/queue/${queue.id}`, { token: b.adminToken })).status).toBe(404);
    expect((await api('PUT', `/queue/${queue.id}`, { token: b.adminToken, body: { name: 'Stolen' } })).status).toBe(
      404,
    );
    expect((await api('DELETE', `/queue/${queue.id}`, { token: b.adminToken })).status).toBe(404);
    expect((await api('GET', '/queue', { token: b.adminToken })).body).toEqual([]);
    expect((await api('GET', `/queue/${queue.id}`, { token: a.adminToken })).body.name).toBe('Secret');
  });
});

describe('queue options (chatbot tree)', () => {
  it('options nest under parents; GET with parentId -1 returns the top level with children ordered by option', async () => {
    const co = await newCompany('qo-tree');
    const queue = await addQueue(co, { name: 'Bot', color: '#b07' });
    const post = (body: Record<string, unknown>) =>
      api('POST', '/queue-options', { token: co.adminToken, body: { queueId: queue.id, ...body } });
    const second = await post({ parentId: -1, title: 'Billing', message: 'About billing', option: '2' });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({
      id: expect.any(Number),
      title: 'Billing',
      option: '2',
      parentId: null,
      queueId: queue.id,
    });
    const first = (await post({ parentId: -1, title: 'Sales', option: '1' })).body;
    const tenth = (await post({ parentId: -1, title: 'Other', option: '10' })).body;
    const child = (await post({ parentId: first.id, title: 'New customer', option: '1' })).body;
    const grandchild = (await post({ parentId: child.id, title: 'Company', option: '1' })).body;
    const top = await api('GET', `/queue-options?queueId=${queue.id}&parentId=-1`, { token: co.adminToken });
    expect(top.status).toBe(200);
    expect(top.body.map((o: any) => o.title)).toEqual(['Sales', 'Billing', 'Other']);
    expect(top.body[0].children.map((o: any) => o.id)).toEqual([child.id]);
    expect(top.body[0].children[0].children.map((o: any) => o.id)).toEqual([grandchild.id]);
    const under = await api('GET', `/queue-options?queueId=${queue.id}&parentId=${first.id}`, { token: co.adminToken });
    expect(under.body.map((o: any) => o.id)).toEqual([child.id]);
    expect(tenth.option).toBe('10');
  });

  it('PUT changes an option; DELETE removes the option with its whole subtree', async () => {
    const co = await newCompany('qo-delete');
    const queue = await addQueue(co, { name: 'Bot', color: '#b08' });
    const post = async (body: Record<string, unknown>) =>
      (await api('POST', '/queue-options', { token: co.adminToken, body: { queueId: queue.id, ...body } })).body;
    const a = await post({ parentId: -1, title: 'A', option: '1' });
    const b = await post({ parentId: -1, title: 'B', option: '2' });
    const a1 = await post({ parentId: a.id, title: 'A1', option: '1' });
    await post({ parentId: a1.id, title: 'A1x', option: '1' });
    const put = await api('PUT', `/queue-options/${b.id}`, {
      token: co.adminToken,
      body: { title: 'B renamed', message: 'Hello' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: b.id, title: 'B renamed', message: 'Hello', option: '2' });
    const del = await api('DELETE', `/queue-options/${a.id}`, { token: co.adminToken });
    expect(del.status).toBe(200);
    expect(del.body.deleted).toHaveLength(3);
    const top = await api('GET', `/queue-options?queueId=${queue.id}&parentId=-1`, { token: co.adminToken });
    expect(top.body.map((o: any) => o.title)).toEqual(['B renamed']);
    expect(
      (await api('PUT', `/queue-options/${a1.id}`, { token: co.adminToken, body: { title: 'ghost' } })).status,
    ).toBe(404);
  });

  it('a parent must belong to the same queue; a queue of another company is 404; deleting the queue removes its options', async () => {
    const co = await newCompany('qo-rules');
    const other = await newCompany('qo-rules-other');
    const q1 = await addQueue(co, { name: 'One', color: '#c01' });
    const q2 = await addQueue(co, { name: 'Two', color: '#c02' });
    const parent = (
      await api('POST', '/queue-options', {
        token: co.adminToken,
        body: { queueId: q1.id, parentId: -1, title: 'P', option: '1' },
      })
    ).body;
    const cross = await api('POST', '/queue-options', {
      token: co.adminToken,
      body: { queueId: q2.id, parentId: parent.id, title: 'X', option: '1' },
    });
    expect(cross.status).toBe(404);
    expect(
      (
        await api('POST', '/queue-options', {
          token: other.adminToken,
          body: { queueId: q1.id, parentId: -1, title: 'X' },
        })
      ).status,
    ).toBe(404);
    expect((await api('GET', `/queue-options?queueId=${q1.id}&parentId=-1`, { token: other.adminToken })).status).toBe(
      404,
    );
    expect(
      (await api('PUT', `/queue-options/${parent.id}`, { token: other.adminToken, body: { title: 'Stolen' } })).status,
    ).toBe(404);
    expect((await api('DELETE', `/queue-options/${parent.id}`, { token: other.adminToken })).status).toBe(404);
    await api('DELETE', `/queue/${q1.id}`, { token: co.adminToken });
    expect(
      (await api('PUT', `/queue-options/${parent.id}`, { token: co.adminToken, body: { title: 'ghost' } })).status,
    ).toBe(404);
  });

  it('only admins change options (ERR_NO_PERMISSION)', async () => {
    const co = await newCompany('qo-perm');
    const queue = await addQueue(co, { name: 'Bot', color: '#d01' });
    const agent = await addAgent(co);
    const res = await api('POST', '/queue-options', {
      token: agent,
      body: { queueId: queue.id, parentId: -1, title: 'X' },
    });
    expect(res.status).toBe(403);
    expect((await api('GET', `/queue-options?queueId=${queue.id}`, { token: agent })).status).toBe(200);
  });
});
