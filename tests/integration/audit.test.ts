import { describe, it, expect, beforeAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { ADMIN, api, login, newCompany, table, type TestCompany } from './helpers';
import { createUser } from './fixtures';

/**
 * The audit trail over HTTP (GET /audit): what is recorded (who, when, from where, what changed,
 * secrets masked, kept 180 days), who may read which trail, the filters and the paging.
 */

const DAY_S = 24 * 3600;
/** Today in São Paulo, `YYYY-MM-DD` (the days the filters speak in). */
const spDay = (offsetDays = 0) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(
    new Date(Date.now() + offsetDays * DAY_S * 1000),
  );
const IP = /^[\d.:a-f]+$/i;

let sup: { token: string; userId: number; companyId: number };
let a: TestCompany;
let b: TestCompany;

const audit = (token: string, query: Record<string, string | number> = {}) =>
  api('GET', `/audit?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { token });

const exportContacts = (token: string) => api('GET', '/contacts?export=true&limit=100', { token });

beforeAll(async () => {
  const session = await login(ADMIN.email, ADMIN.password);
  sup = { token: session.token, userId: session.user.id, companyId: session.user.companyId };
  a = await newCompany('audit-a');
  b = await newCompany('audit-b');
});

describe('audit trail: what is recorded', () => {
  it('a plan change by the super user is on the platform trail with who, when, address and the change; kept 180 days', async () => {
    const name = `Plan ${randomUUID().slice(0, 6)}`;
    const created = await api('POST', '/plans', {
      token: sup.token,
      body: { name, users: 3, connections: 1, queues: 2, value: 10, useCampaigns: false },
    });
    expect(created.status).toBe(201);
    const before = Date.now();
    expect(
      (await api('PUT', `/plans/${created.body.id}`, { token: sup.token, body: { value: 49.9, useKanban: true } }))
        .status,
    ).toBe(200);

    const res = await audit(sup.token, { companyId: 1, action: 'plan.changed' });
    expect(res.status).toBe(200);
    const entries = res.body.entries.filter((e: any) => e.target?.id === created.body.id);
    expect(entries.map((e: any) => e.changes.op)).toEqual(['updated', 'created']);
    const [update] = entries;
    expect(update).toMatchObject({
      companyId: 1,
      action: 'plan.changed',
      actorId: sup.userId,
      target: { type: 'plan', id: created.body.id, name },
      changes: { value: { from: 10, to: 49.9 }, useKanban: { from: false, to: true } },
    });
    expect(update.actorName).toBeTruthy();
    expect(update.address).toMatch(IP);
    expect(Math.abs(Date.parse(update.at) - before)).toBeLessThan(60_000);
    // unchanged fields are not listed
    expect(Object.keys(update.changes).sort()).toEqual(['op', 'useKanban', 'value']);

    // the table's TTL attribute removes it 180 days from now
    const stored = await table().get('C#1#AUDIT', `A#${update.at}#${update.id}`);
    expect(stored?.ttl).toBeGreaterThan(Math.floor(Date.now() / 1000) + 179 * DAY_S);
    expect(stored?.ttl).toBeLessThan(Math.floor(Date.now() / 1000) + 181 * DAY_S);

    // the super user's all-companies view has it too
    const all = await audit(sup.token, { action: 'plan.changed' });
    expect(all.body.entries.map((e: any) => e.id)).toContain(update.id);
  });

  it("company status and due date changes are the platform's: own actions on the platform trail, none on the tenant's", async () => {
    const co = await newCompany('audit-co');
    const due = new Date(Date.now() + 40 * DAY_S * 1000).toISOString();
    const phoneBefore = (await api('GET', `/companies/${co.companyId}`, { token: sup.token })).body.phone;
    const res = await api('PUT', `/companies/${co.companyId}`, {
      token: sup.token,
      body: { dueDate: due, status: false, phone: '11988887777' },
    });
    expect(res.status).toBe(200);
    const platform = (await audit(sup.token, { companyId: 1 })).body.entries.filter(
      (e: any) => e.target?.type === 'company' && e.target.id === co.companyId,
    );
    const byAction = Object.fromEntries(platform.map((e: any) => [e.action, e.changes]));
    expect(byAction['company.status_changed']).toEqual({ status: { from: true, to: false } });
    expect(byAction['company.due_date_changed'].dueDate.to).toBe(due);
    expect(byAction['company.updated']).toEqual({ phone: { from: phoneBefore, to: '11988887777' } });
    const own = await audit(sup.token, { companyId: co.companyId });
    expect(own.body.entries).toEqual([]);
  });

  it("a contacts export is recorded once, in the exporter's company, with who, address and how many", async () => {
    await api('POST', '/contacts', { token: a.adminToken, body: { name: 'Maria Export', number: '5511970000001' } });
    const first = await exportContacts(a.adminToken);
    expect(first.status).toBe(200);
    // the following pages of the same export (with its cursor) and plain list reads are not recorded
    await api('GET', '/contacts?limit=100', { token: a.adminToken });
    const res = await audit(a.adminToken, { action: 'data.exported' });
    expect(res.status).toBe(200);
    expect(res.body.entries).toHaveLength(1);
    expect(res.body.entries[0]).toMatchObject({
      companyId: a.companyId,
      action: 'data.exported',
      actorId: a.admin.id,
      actorName: 'Owner',
      target: { type: 'contacts' },
      changes: { format: 'csv', contacts: 1 },
    });
    expect(res.body.entries[0].address).toMatch(IP);
  });

  it('a spreadsheet import of contacts is recorded with its counts', async () => {
    const rows = [
      { name: 'Row One', number: '5511970000101' },
      { name: 'Row Two', number: '5511970000102' },
      { name: 'x', number: 'bad' },
    ];
    expect((await api('POST', '/contacts/upload', { token: a.adminToken, body: rows })).status).toBe(200);
    const res = await audit(a.adminToken, { action: 'data.imported' });
    expect(res.body.entries[0]).toMatchObject({
      actorId: a.admin.id,
      changes: { source: 'spreadsheet', rows: 3, created: 2, refused: 1 },
    });
  });

  it('a rotated connection token is recorded masked: the new token never appears in the trail', async () => {
    const w = await api('POST', '/whatsapp', {
      token: b.adminToken,
      body: { name: `Line ${randomUUID().slice(0, 4)}` },
    });
    expect(w.status).toBe(201);
    const secret = `rotated-${randomUUID()}-tail9876`;
    expect((await api('PUT', `/whatsapp/${w.body.id}`, { token: b.adminToken, body: { token: secret } })).status).toBe(
      200,
    );
    const res = await audit(b.adminToken, { action: 'connection.token_rotated' });
    expect(res.body.entries).toHaveLength(1);
    const [entry] = res.body.entries;
    expect(entry.target).toMatchObject({ type: 'connection', id: w.body.id });
    expect(entry.changes.token.to).toBe('••••9876');
    expect(entry.changes.token.from).toBe(`••••${w.body.token.slice(-4)}`);
    expect(JSON.stringify(res.body)).not.toContain(secret);
    expect(JSON.stringify(res.body)).not.toContain(w.body.token);
    const stored = await table().get(`C#${b.companyId}#AUDIT`, `A#${entry.at}#${entry.id}`);
    expect(JSON.stringify(stored)).not.toContain(secret);
  });

  it("an API token's use is recorded once an hour, not once per call", async () => {
    const co = await newCompany('audit-api');
    const w = await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Api line' } });
    const send = () =>
      api('POST', '/messages/send', {
        headers: { authorization: `Bearer ${w.body.token}` },
        body: { number: '5511970000201', body: 'hi' },
      });
    for (let i = 0; i < 3; i++) expect((await send()).status).not.toBe(401);
    const res = await audit(co.adminToken, { action: 'api_token.used' });
    expect(res.body.entries).toHaveLength(1);
    expect(res.body.entries[0]).toMatchObject({
      actorId: null,
      target: { type: 'connection', id: w.body.id, name: 'Api line' },
    });
    expect(res.body.entries[0].address).toMatch(IP);
  });
});

describe('audit trail: who reads which trail', () => {
  it("an admin sees their own company's trail only: another company's entries are unreachable, also by companyId or cursor", async () => {
    await exportContacts(a.adminToken);
    await exportContacts(a.adminToken);
    await exportContacts(b.adminToken);
    const own = await audit(b.adminToken, { limit: 100 });
    expect(own.status).toBe(200);
    expect(own.body.entries.length).toBeGreaterThan(0);
    expect(own.body.entries.every((e: any) => e.companyId === b.companyId)).toBe(true);
    // asking for A's trail by id is refused
    const foreign = await audit(b.adminToken, { companyId: a.companyId });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe('ERR_NO_PERMISSION');
    // the platform's trail too
    expect((await audit(b.adminToken, { companyId: 1 })).status).toBe(403);
    // A's cursor does not open A's trail to B
    const page = await audit(a.adminToken, { limit: 1 });
    expect(page.body.hasMore).toBe(true);
    const stolen = await audit(b.adminToken, { limit: 1, cursor: page.body.cursor });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('ERR_INVALID_CURSOR');
  });

  it('an attendant gets the catalogued 403', async () => {
    const agent = await createUser(a, { profile: 'user' });
    const res = await audit(agent.token);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
  });

  it("the super user reads any company's trail, and every company's by day", async () => {
    await exportContacts(a.adminToken);
    const one = await audit(sup.token, { companyId: a.companyId, action: 'data.exported' });
    expect(one.body.entries.length).toBeGreaterThan(0);
    expect(one.body.entries.every((e: any) => e.companyId === a.companyId)).toBe(true);
    const all = await audit(sup.token, { action: 'data.exported', limit: 100 });
    const companies = new Set(all.body.entries.map((e: any) => e.companyId));
    expect(companies.has(a.companyId)).toBe(true);
    expect(companies.has(b.companyId)).toBe(true);
  });
});

describe('audit trail: entries about other companies are for the super user only', () => {
  it("a platform admin who is not the super user reads the platform company's own entries, never another company's document, address or e-mail", async () => {
    const co = await newCompany('audit-leak');
    const document = String(Date.now()).padStart(14, '7').slice(-14);
    const street = `Rua Sigilo ${randomUUID().slice(0, 6)}`;
    const email = `billing-${randomUUID().slice(0, 8)}@tenant.dev`;
    const updated = await api('PUT', `/companies/${co.companyId}`, {
      token: sup.token,
      body: { document, address: street, email },
    });
    expect(updated.status).toBe(200);
    // an entry of the platform company about itself stays readable by its admins
    const plan = await api('POST', '/plans', {
      token: sup.token,
      body: { name: `Plan ${randomUUID().slice(0, 6)}`, users: 3, connections: 1, queues: 2, value: 10 },
    });
    expect(plan.status).toBe(201);

    const adminEmail = `platform-admin-${randomUUID().slice(0, 8)}@test.dev`;
    const created = await api('POST', '/users', {
      token: sup.token,
      body: { name: 'Platform Admin', email: adminEmail, password: 'secret123', profile: 'admin' },
    });
    expect(created.status).toBe(201);
    try {
      const admin = await login(adminEmail, 'secret123');
      expect(admin.user.companyId).toBe(1);
      const own = await audit(admin.token, { limit: 100 });
      expect(own.status).toBe(200);
      expect(own.body.entries.some((e: any) => e.action === 'plan.changed' && e.target.id === plan.body.id)).toBe(true);
      expect(own.body.entries.some((e: any) => e.target?.type === 'company' && e.target.id !== 1)).toBe(false);
      const text = JSON.stringify(own.body);
      for (const secret of [document, street, email]) expect(text).not.toContain(secret);
      // nor by naming its company, nor by filtering on the action, nor through the every-company view
      expect((await audit(admin.token, { companyId: 1, action: 'company.updated' })).status).toBe(200);
      expect((await audit(admin.token, { companyId: 1, action: 'company.updated' })).body.entries).toEqual([]);
      const foreign = await audit(admin.token, { companyId: co.companyId });
      expect(foreign.status).toBe(403);
      expect(foreign.body.error).toBe('ERR_NO_PERMISSION');

      // the super user reads the same trail whole
      const all = await audit(sup.token, { companyId: 1, action: 'company.updated', limit: 100 });
      const entry = all.body.entries.find((e: any) => e.target?.id === co.companyId);
      expect(entry.changes).toMatchObject({
        document: { to: document },
        address: { to: street },
        email: { to: email },
      });
    } finally {
      await api('DELETE', `/users/${created.body.id}`, { token: sup.token });
    }
  });
});

describe('audit trail: filters, paging and bad input', () => {
  it('filters by action, actor and São Paulo day range', async () => {
    const co = await newCompany('audit-filter');
    const second = await createUser(co, { profile: 'admin' });
    await exportContacts(co.adminToken);
    await exportContacts(second.token);
    await api('POST', '/contacts/upload', { token: second.token, body: [{ name: 'Ana', number: '5511970000301' }] });

    const byAction = await audit(co.adminToken, { action: 'data.imported' });
    expect(byAction.body.entries.map((e: any) => e.action)).toEqual(['data.imported']);

    const byActor = await audit(co.adminToken, { actorId: second.id });
    expect(byActor.body.entries.map((e: any) => e.action).sort()).toEqual(['data.exported', 'data.imported']);
    expect(byActor.body.entries.every((e: any) => e.actorId === second.id)).toBe(true);

    const both = await audit(co.adminToken, { actorId: co.admin.id, action: 'data.exported' });
    expect(both.body.entries).toHaveLength(1);

    // everything happened today (São Paulo): the day's range holds all of it, the next and last days nothing
    const everything = (await audit(co.adminToken)).body.entries;
    expect(everything.length).toBeGreaterThanOrEqual(3);
    const today = await audit(co.adminToken, { from: spDay(), to: spDay() });
    expect(today.body.entries).toEqual(everything);
    expect((await audit(co.adminToken, { from: spDay(1) })).body.entries).toEqual([]);
    expect((await audit(co.adminToken, { to: spDay(-1) })).body.entries).toEqual([]);
    // the super user's every-company view honours the range as well
    const allToday = await audit(sup.token, { from: spDay(), to: spDay(), actorId: second.id, limit: 100 });
    expect(allToday.body.entries.some((e: any) => e.companyId === co.companyId)).toBe(true);
    expect((await audit(sup.token, { from: spDay(1), to: spDay(1) })).body.entries).toEqual([]);
  });

  it('days are São Paulo days: 23:30 there (02:30 UTC the next day) is the earlier day, in one company and across companies', async () => {
    const co = await newCompany('audit-tz');
    const utcDay = new Date(Date.now() - 5 * DAY_S * 1000).toISOString().slice(0, 10);
    const spBefore = new Date(Date.parse(`${utcDay}T12:00:00Z`) - DAY_S * 1000).toISOString().slice(0, 10);
    const at = `${utcDay}T02:30:00.000Z`;
    const id = randomUUID();
    // an entry of five days ago, as recordAudit would have written it then
    await table().set(`C#${co.companyId}#AUDIT`, `A#${at}#${id}`, {
      gsi1pk: `AUDIT#${utcDay}`,
      gsi1sk: `${at}#${co.companyId}`,
      id,
      at,
      companyId: co.companyId,
      action: 'data.exported',
      actorId: co.admin.id,
      actorName: 'Owner',
      address: '198.51.100.7',
      target: { type: 'contacts', id: 'all' },
      changes: null,
    });
    const ids = async (token: string, query: Record<string, string | number>) =>
      (await audit(token, query)).body.entries.map((e: any) => e.id);
    expect(await ids(co.adminToken, { from: spBefore, to: spBefore })).toEqual([id]);
    expect(await ids(co.adminToken, { from: utcDay, to: utcDay })).toEqual([]);
    const platform = { action: 'data.exported', actorId: co.admin.id, limit: 100 };
    expect(await ids(sup.token, { ...platform, from: spBefore, to: spBefore })).toContain(id);
    expect(await ids(sup.token, { ...platform, from: utcDay, to: utcDay })).not.toContain(id);
  });

  it('pages newest first by cursor, without repeats, in one company and across companies', async () => {
    const co = await newCompany('audit-page');
    for (let i = 0; i < 3; i++) await exportContacts(co.adminToken);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await audit(co.adminToken, { limit: 2, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      seen.push(...res.body.entries.map((e: any) => e.at));
      cursor = res.body.hasMore ? res.body.cursor : undefined;
    } while (cursor);
    expect(seen).toHaveLength(3);
    expect([...seen].sort().reverse()).toEqual(seen);

    const ids: string[] = [];
    cursor = undefined;
    for (let i = 0; i < 3; i++) {
      const res = await audit(sup.token, { limit: 2, action: 'data.exported', ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      ids.push(...res.body.entries.map((e: any) => e.id));
      cursor = res.body.cursor;
      if (!res.body.hasMore) break;
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(4);
  });

  it('bad input is a catalogued 400, never a 5xx', async () => {
    const bad: [string, Record<string, string | number>, string][] = [
      [a.adminToken, { action: 'nope' }, 'ERR_VALIDATION'],
      [a.adminToken, { from: '2025-02-30' }, 'ERR_VALIDATION'],
      [a.adminToken, { from: 'yesterday' }, 'ERR_VALIDATION'],
      [a.adminToken, { from: spDay(), to: spDay(-2) }, 'ERR_VALIDATION'],
      [a.adminToken, { actorId: 'x' }, 'ERR_VALIDATION'],
      [a.adminToken, { limit: 0 }, 'ERR_VALIDATION'],
      [a.adminToken, { limit: 1000 }, 'ERR_VALIDATION'],
      [a.adminToken, { cursor: 'garbage' }, 'ERR_INVALID_CURSOR'],
      [a.adminToken, { cursor: 'a.b' }, 'ERR_INVALID_CURSOR'],
      // one request of the every-company view walks at most 31 days
      [sup.token, { from: spDay(-40), to: spDay() }, 'ERR_VALIDATION'],
    ];
    for (const [token, query, code] of bad) {
      const res = await audit(token, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error, JSON.stringify(query)).toBe(code);
    }
    // a cursor of one filter is not accepted for another
    await exportContacts(a.adminToken);
    const page = await audit(a.adminToken, { limit: 1 });
    const other = await audit(a.adminToken, { limit: 1, action: 'data.exported', cursor: page.body.cursor });
    expect(other.status).toBe(400);
  });
});
