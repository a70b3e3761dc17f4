import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { PLATFORM_COMPANY_ID, SETTING_DEFAULTS, SETTING_VALUES, type SettingKey } from '#shared/constants';
import { SETTING_KEYS, SETTING_POLICY, type SettingPolicy, type SettingRole } from '#shared/settings-policy';
import { ADMIN, api, login, newCompany, realtimeClient, table, runsAlone } from './helpers';

// it changes platform settings every company reads
runsAlone();

/**
 * The rules per setting key, written out here on their own: SETTING_POLICY must state exactly these,
 * and the HTTP checks below expect them (not what the code computes), so loosening either fails here.
 */
const OPTION: SettingPolicy = {
  read: 'user',
  write: 'admin',
  platformOnly: false,
  secret: false,
  audit: 'settings.changed',
};
const PAYMENT: SettingPolicy = {
  read: 'super',
  write: 'super',
  platformOnly: true,
  secret: true,
  audit: 'payment_settings.changed',
};
const RULES: Record<SettingKey, SettingPolicy> = {
  userRating: OPTION,
  scheduleType: OPTION,
  CheckMsgIsGroup: OPTION,
  call: OPTION,
  chatBotType: OPTION,
  sendGreetingAccepted: OPTION,
  sendMsgTransfTicket: OPTION,
  sendGreetingMessageOneQueues: OPTION,
  userCreation: OPTION,
  initialMenu: OPTION,
  awayAfterMinutes: OPTION,
  takeoverByAnyUser: OPTION,
  copilotPromptId: OPTION,
  aiMonthlyCallLimit: { ...OPTION, read: 'admin' },
  asaas: PAYMENT,
  asaasWebhookToken: PAYMENT,
};

const RANK: Record<SettingRole, number> = { user: 0, admin: 1, super: 2 };
interface Caller {
  name: string;
  role: SettingRole;
  companyId: number;
  userId: number;
  token: string;
}
const inScope = (key: SettingKey, c: Caller) => !RULES[key].platformOnly || c.companyId === PLATFORM_COMPANY_ID;
const mayRead = (key: SettingKey, c: Caller) => inScope(key, c) && RANK[c.role] >= RANK[RULES[key].read];
const mayWrite = (key: SettingKey, c: Caller) => inScope(key, c) && RANK[c.role] >= RANK[RULES[key].write];
/** The masked form routes answer for a secret (management: never in full). */
const masked = (v: string) => (!v ? v : v.length > 8 ? `••••${v.slice(-4)}` : '••••');
const shown = (key: SettingKey, v: string) => (RULES[key].secret ? masked(v) : v);

let doc: DynamoDBDocumentClient | undefined;
const db = () =>
  (doc ??= DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    }),
  ));

async function stored(companyId: number, key: SettingKey): Promise<string> {
  const item = await table().get(`C#${companyId}`, `SETTING#${key}`);
  return (item?.value as string | undefined) ?? SETTING_DEFAULTS[key];
}

/** A company's audit entries since `since` (functions/lib/audit/record.ts keys). */
async function auditSince(companyId: number, since: string) {
  const out: any[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: inject('tableName'),
        KeyConditionExpression: 'pk = :pk AND sk >= :from',
        ExpressionAttributeValues: { ':pk': `C#${companyId}#AUDIT`, ':from': `A#${since}` },
        ExclusiveStartKey: start,
      }),
    );
    out.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return out;
}

/**
 * A fresh value for a key without a list of options but with a form (SETTING_PATTERNS), unique per
 * write so that no two writes share one: a whole number for aiMonthlyCallLimit; for copilotPromptId,
 * which names one of the company's prompts, a prompt item put in place.
 */
async function freshValue(key: SettingKey, companyId: number): Promise<string | undefined> {
  if (key === 'aiMonthlyCallLimit') return String(100_000_000 + Math.floor(Math.random() * 899_999_999));
  if (key !== 'copilotPromptId') return undefined;
  const id = 1_000_000_000 + Math.floor(Math.random() * 999_999_999);
  await table().set(`C#${companyId}`, `PROMPT#${String(id).padStart(10, '0')}`, { id, companyId, name: 'Copilot' });
  return String(id);
}

const secondsAgo = (s: number) => new Date(Date.now() - s * 1000).toISOString();

async function platformUser(sup: string, profile: 'admin' | 'user') {
  const email = `sp-${profile}-${randomUUID().slice(0, 8)}@test.dev`;
  const res = await api('POST', '/users', {
    token: sup,
    body: { name: `Platform ${profile}`, email, password: 'secret123', profile },
  });
  if (res.status !== 201) throw new Error(`platform user: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id as number, token: (await login(email, 'secret123')).token };
}

/** A user of a tenant company; `superFlag` sets the super flag in the table (no route grants it outside the platform). */
async function tenantUser(
  adminToken: string,
  companyId: number,
  profile: 'user' | 'supervisor' | 'admin',
  superFlag = false,
) {
  const email = `sp-${profile}-${randomUUID().slice(0, 8)}@test.dev`;
  const res = await api('POST', '/users', {
    token: adminToken,
    body: { name: `Tenant ${profile}`, email, password: 'secret123', profile },
  });
  if (res.status !== 201) throw new Error(`tenant user: ${res.status} ${JSON.stringify(res.body)}`);
  if (superFlag) await table().set(`C#${companyId}`, `USER#${String(res.body.id).padStart(10, '0')}`, { super: true });
  return { id: res.body.id as number, token: (await login(email, 'secret123')).token };
}

describe('settings policy (one table for every key: who reads, who writes, platform-only, secret)', () => {
  let sup: string;
  let supId: number;
  const platformUsers: number[] = [];
  const callers: Caller[] = [];

  beforeAll(async () => {
    const root = await login(ADMIN.email, ADMIN.password);
    sup = root.token;
    supId = root.user.id;
    const tenant = await newCompany('sp');
    const t = tenant.companyId;
    const agent = await tenantUser(tenant.adminToken, t, 'user');
    const supervisor = await tenantUser(tenant.adminToken, t, 'supervisor');
    const tenantSuper = await tenantUser(tenant.adminToken, t, 'admin', true);
    const pAdmin = await platformUser(sup, 'admin');
    const pAgent = await platformUser(sup, 'user');
    platformUsers.push(pAdmin.id, pAgent.id);
    const p = PLATFORM_COMPANY_ID;
    callers.push(
      { name: 'tenant attendant', role: 'user', companyId: t, userId: agent.id, token: agent.token },
      { name: 'tenant supervisor', role: 'user', companyId: t, userId: supervisor.id, token: supervisor.token },
      { name: 'tenant admin', role: 'admin', companyId: t, userId: tenant.admin.id, token: tenant.adminToken },
      // platform-only keys stay the platform's even for a super flag outside it
      { name: 'super flag in a tenant', role: 'super', companyId: t, userId: tenantSuper.id, token: tenantSuper.token },
      { name: 'platform attendant', role: 'user', companyId: p, userId: pAgent.id, token: pAgent.token },
      { name: 'platform admin (not super)', role: 'admin', companyId: p, userId: pAdmin.id, token: pAdmin.token },
      { name: 'super user', role: 'super', companyId: p, userId: supId, token: sup },
    );
  });

  afterAll(async () => {
    for (const id of platformUsers) await api('DELETE', `/users/${id}`, { token: sup });
  });

  it('SETTING_POLICY has one entry per setting key and states exactly the rules written out here', () => {
    expect(Object.keys(SETTING_POLICY).sort()).toEqual(Object.keys(SETTING_DEFAULTS).sort());
    expect(SETTING_POLICY).toEqual(RULES);
  });

  it('every key, every role over HTTP: allowed reads list it (secrets masked), allowed writes store and are audited, refused writes are ERR_NO_PERMISSION 403; the setting event reaches only those who may read it', async () => {
    const since = secondsAgo(5);
    const sockets = await Promise.all(callers.map(async (c) => ({ c, rt: await realtimeClient(c.token) })));
    const refusedValues: string[] = [];
    const secretValues: string[] = [];
    const written: { caller: Caller; key: SettingKey; value: string }[] = [];
    try {
      for (const key of SETTING_KEYS) {
        for (const c of callers) {
          const label = `${c.name} writes ${key}`;
          const before = await stored(c.companyId, key);
          if (RULES[key].secret) secretValues.push(before);
          const options = SETTING_VALUES[key];
          const other = options
            ? (options.find((o) => o !== before) ?? before)
            : ((await freshValue(key, c.companyId)) ?? `v-${randomUUID()}`);
          // Allowed writes in the platform company put back what it holds (other test files run on
          // the same platform: its payment key switches every checkout); elsewhere they change the value.
          const value = mayWrite(key, c) && c.companyId === PLATFORM_COMPANY_ID ? before : other;
          const res = await api('PUT', `/settings/${key}`, { token: c.token, body: { value } });
          expect(res.status, label).toBeLessThan(500);
          if (mayWrite(key, c)) {
            expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(200);
            expect(res.body, label).toEqual({ key, value: shown(key, value) });
            expect(await stored(c.companyId, key), label).toBe(value);
            written.push({ caller: c, key, value });
          } else {
            expect(res.status, label).toBe(403);
            expect(res.body, label).toEqual({ error: 'ERR_NO_PERMISSION' });
            if (value !== before) expect(await stored(c.companyId, key), label).not.toBe(value);
            if (RULES[key].secret || options === undefined) refusedValues.push(value);
          }
        }
      }

      for (const c of callers) {
        const res = await api('GET', '/settings', { token: c.token });
        expect(res.status, c.name).toBe(200);
        const listed = new Map<string, string>(res.body.map((s: { key: string; value: string }) => [s.key, s.value]));
        for (const key of SETTING_KEYS) {
          const label = `${c.name} reads ${key}`;
          expect(listed.has(key), label).toBe(mayRead(key, c));
          if (mayRead(key, c)) expect(listed.get(key), label).toBe(shown(key, await stored(c.companyId, key)));
        }
        expect(
          [...listed.keys()].filter((k) => !(k in RULES)),
          c.name,
        ).toEqual([]);
      }

      // Audit: each allowed write is one entry with the actor, address, target and change (secrets masked);
      // a refused write leaves none.
      const trails = new Map<number, any[]>();
      for (const companyId of new Set(callers.map((c) => c.companyId)))
        trails.set(companyId, await auditSince(companyId, since));
      for (const { caller, key, value } of written) {
        const entries = trails
          .get(caller.companyId)!
          .filter((e) => e.actorId === caller.userId && e.target?.id === key);
        const label = `audit of ${caller.name} writing ${key}`;
        expect(entries.length, label).toBeGreaterThan(0);
        for (const e of entries) {
          expect(e, label).toMatchObject({
            companyId: caller.companyId,
            action: RULES[key].audit,
            target: { type: 'setting', id: key },
            address: expect.stringMatching(/.+/),
          });
          if (!RULES[key].secret) continue;
          for (const side of [e.changes[key].from, e.changes[key].to])
            expect(side === '' || String(side).startsWith('••••'), `${label}: ${side}`).toBe(true);
        }
        if (!RULES[key].secret)
          expect(
            entries.map((e) => e.changes),
            label,
          ).toContainEqual({ [key]: { from: expect.any(String), to: value } });
      }
      for (const c of callers)
        for (const key of SETTING_KEYS.filter((k) => !mayWrite(k, c)))
          expect(
            trails.get(c.companyId)!.filter((e) => e.actorId === c.userId && e.target?.id === key),
            `${c.name} refused on ${key} leaves no audit entry`,
          ).toEqual([]);

      // Events: a last plain change in each company reaches every socket there, so anything earlier has arrived.
      const tenantAdmin = callers.find((c) => c.name === 'tenant admin')!;
      const marks = sockets.map((s) => s.rt.events.length);
      await api('PUT', '/settings/call', { token: tenantAdmin.token, body: { value: 'enabled' } });
      await api('PUT', '/settings/call', { token: sup, body: { value: await stored(PLATFORM_COMPANY_ID, 'call') } });
      for (const [i, { c, rt }] of sockets.entries()) {
        await rt.waitFor(
          (e) =>
            rt.events.indexOf(e) >= marks[i]! &&
            e.event === `company-${c.companyId}-setting` &&
            e.data.setting.key === 'call',
        );
        const settingEvents = rt.events.filter((e) => e.event === `company-${c.companyId}-setting`);
        for (const key of SETTING_KEYS) {
          const heard = settingEvents.filter((e) => e.data.setting.key === key);
          if (!mayRead(key, c)) expect(heard, `${c.name} hears no ${key} event`).toEqual([]);
        }
        for (const w of written.filter((w) => w.caller.companyId === c.companyId && mayRead(w.key, c)))
          expect(
            settingEvents.map((e) => e.data.setting),
            `${c.name} hears ${w.caller.name}'s ${w.key}`,
          ).toContainEqual({ key: w.key, value: shown(w.key, w.value) });
      }

      // Nothing refused was stored anywhere, and no secret is ever answered or announced in full.
      const everything = JSON.stringify([
        sockets.map((s) => s.rt.events),
        await Promise.all(callers.map(async (c) => (await api('GET', '/settings', { token: c.token })).body)),
        (await login(ADMIN.email, ADMIN.password)).company,
        [...trails.values()],
      ]);
      for (const v of [...refusedValues, ...secretValues.filter((s) => s.length > 0)])
        expect(everything.includes(v), `${v} appears in full`).toBe(false);
    } finally {
      for (const s of sockets) s.rt.close();
    }
  });

  it('an unknown setting key is ERR_VALIDATION 400 for every role, never a 5xx', async () => {
    for (const c of callers)
      for (const key of ['noSuchKey', '__proto__', 'constructor', 'ASAAS', 'asaas ']) {
        const res = await api('PUT', `/settings/${encodeURIComponent(key)}`, {
          token: c.token,
          body: { value: 'enabled' },
        });
        expect(res.status, `${c.name} ${key}`).toBe(400);
        expect(res.body.error, `${c.name} ${key}`).toBe('ERR_VALIDATION');
      }
  });

  it("a secret is never answered in full (PUT, GET, the super user's setting event, the audit), its mask sent back leaves it stored, and another mask is refused", async () => {
    // The platform's webhook token: billing.test.ts relies on it only while the platform's asaas key is
    // set (its Asaas step), so this waits for that to be over and puts the previous token back at once.
    const key: SettingKey = 'asaasWebhookToken';
    const deadline = Date.now() + 20_000;
    while ((await stored(PLATFORM_COMPANY_ID, 'asaas')) !== '' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const previous = await table().get(`C#${PLATFORM_COMPANY_ID}`, `SETTING#${key}`);
    const secret = `whk-${randomUUID()}`;
    const admin = callers.find((c) => c.name === 'platform admin (not super)')!;
    const supRt = await realtimeClient(sup);
    const adminRt = await realtimeClient(admin.token);
    const since = new Date().toISOString();
    try {
      const put = await api('PUT', `/settings/${key}`, { token: sup, body: { value: secret } });
      expect(put.status).toBe(200);
      expect(put.body).toEqual({ key, value: `••••${secret.slice(-4)}` });
      expect(await stored(PLATFORM_COMPANY_ID, key)).toBe(secret);

      const echo = await api('PUT', `/settings/${key}`, { token: sup, body: { value: put.body.value } });
      expect(echo.status).toBe(200);
      expect(echo.body).toEqual(put.body);
      expect(await stored(PLATFORM_COMPANY_ID, key)).toBe(secret);
      const stale = await api('PUT', `/settings/${key}`, { token: sup, body: { value: '••••zzzz' } });
      expect(stale.status).toBe(400);
      expect(stale.body.error).toBe('ERR_VALIDATION');
      expect(await stored(PLATFORM_COMPANY_ID, key)).toBe(secret);

      const supList = (await api('GET', '/settings', { token: sup })).body;
      expect(supList).toContainEqual({ key, value: put.body.value });
      const adminList = (await api('GET', '/settings', { token: admin.token })).body;
      expect(adminList.map((s: { key: string }) => s.key)).not.toContain(key);
      const refused = await api('PUT', `/settings/${key}`, { token: admin.token, body: { value: `forged-${secret}` } });
      expect(refused.status).toBe(403);
      expect(await stored(PLATFORM_COMPANY_ID, key)).toBe(secret);

      const event = await supRt.waitFor((e) => e.event.endsWith('-setting') && e.data.setting.key === key);
      expect(event.data).toEqual({ action: 'update', setting: { key, value: put.body.value } });
      const mark = adminRt.events.length;
      await api('PUT', '/settings/call', { token: sup, body: { value: await stored(PLATFORM_COMPANY_ID, 'call') } });
      await adminRt.waitFor(
        (e) => adminRt.events.indexOf(e) >= mark && e.event.endsWith('-setting') && e.data.setting.key === 'call',
      );
      expect(adminRt.events.filter((e) => e.event.endsWith('-setting') && e.data.setting.key === key)).toEqual([]);

      const audit = (await auditSince(PLATFORM_COMPANY_ID, since)).filter((e) => e.target?.id === key);
      expect(audit.filter((e) => e.actorId === supId)).toHaveLength(1);
      expect(audit[0]).toMatchObject({ action: 'payment_settings.changed', actorId: supId });
      const seen = JSON.stringify([put.body, echo.body, supList, adminList, supRt.events, adminRt.events, audit]);
      expect(seen.includes(secret)).toBe(false);
      expect(JSON.stringify((await login(ADMIN.email, ADMIN.password)).company)).not.toContain(secret);
    } finally {
      supRt.close();
      adminRt.close();
      // back to what it held, unless billing.test.ts has set its own meanwhile
      await db()
        .send(
          new PutCommand({
            TableName: inject('tableName'),
            Item: previous ?? { pk: `C#${PLATFORM_COMPANY_ID}`, sk: `SETTING#${key}`, key, value: '' },
            ConditionExpression: '#v = :ours',
            ExpressionAttributeNames: { '#v': 'value' },
            ExpressionAttributeValues: { ':ours': secret },
          }),
        )
        .catch(() => undefined);
    }
  });
});
