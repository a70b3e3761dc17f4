import { describe, it, expect } from 'vitest';
import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { api, baseUrl, newCompany, queuesIdle, runTimer, table, type TestCompany, usesTimers } from './helpers';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';
import { limiterDay } from '../../functions/lib/campaigns/limiter';

usesTimers('campaigns');

/** The stack's pacing scale: milliseconds one configured campaign second lasts (set by global-setup). */
const CAMPAIGN_SECOND_MS = Number(process.env.CAMPAIGN_SECOND_MS);

let seq = 0;
const number = (co: TestCompany) => `55219${String(co.companyId).padStart(4, '0')}${String(++seq).padStart(4, '0')}`;

async function listWith(co: TestCompany, count: number) {
  const list = (await api('POST', '/contact-lists', { token: co.adminToken, body: { name: 'Clientes' } })).body;
  const numbers: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = number(co);
    numbers.push(n);
    const res = await api('POST', '/contact-list-items', {
      token: co.adminToken,
      body: { name: `Cliente Número${i}`, number: n, contactListId: list.id },
    });
    expect(res.status).toBe(201);
  }
  return { list, numbers };
}

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

async function setup(label: string, count = 3) {
  const co = await newCompany(label);
  const whatsapp = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Campaign line' });
  const { list, numbers } = await listWith(co, count);
  await api('POST', '/campaign-settings', {
    token: co.adminToken,
    body: {
      settings: {
        messageInterval: 5,
        longerIntervalAfter: 0,
        greaterInterval: 0,
        variables: [{ key: 'loja', value: 'Loja Centro' }],
      },
    },
  });
  return { co, whatsapp, list, numbers };
}

const campaignBody = (whatsappId: number, contactListId: number, extra: Record<string, unknown> = {}) => ({
  name: 'Black friday',
  message1: 'Olá {{firstName}}, ofertas na {{loja}}!',
  whatsappId,
  contactListId,
  ...extra,
});

const get = async (co: TestCompany, id: number) =>
  (await api('GET', `/campaigns/${id}`, { token: co.adminToken })).body;

/** Starts a campaign now: scheduledAt in the past, then the due timer. */
async function startNow(co: TestCompany, body: Record<string, unknown>) {
  const created = await api('POST', '/campaigns', {
    token: co.adminToken,
    body: { ...body, scheduledAt: new Date(Date.now() - 1000).toISOString() },
  });
  expect(created.status).toBe(201);
  expect(created.body.status).toBe('PROGRAMADA');
  await runTimer('campaigns');
  return created.body.id as number;
}

const sentTo = async (co: TestCompany, whatsappId: number) =>
  (await phone(co.companyId, whatsappId).outbound()).filter((o: any) => !o.deleted);

/** Polls without waiting for idle queues (a running campaign keeps its queue busy until it ends). */
async function until<T>(check: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function redeliver(job: unknown) {
  const sqs = new SQSClient({
    endpoint: baseUrl(),
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await sqs.send(new SendMessageCommand({ QueueUrl: `${baseUrl()}/@sqs/campaigns`, MessageBody: JSON.stringify(job) }));
}

describe('campaigns', () => {
  it('the plan feature useCampaigns gates campaign and contact list routes (ERR_PLAN_FEATURE_DISABLED)', async () => {
    const co = await newCompany('cp-plan');
    await table().set('PLAN', 'PLAN#0000000778', {
      id: 778,
      name: 'No campaigns',
      users: 5,
      connections: 5,
      queues: 5,
      value: 10,
      useCampaigns: false,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
      useSchedules: true,
      useInternalChat: true,
      useExternalApi: true,
    });
    await table().set(`C#${co.companyId}`, 'COMPANY', { planId: 778 });
    for (const [method, path] of [
      ['GET', '/campaigns'],
      ['POST', '/campaigns'],
      ['GET', '/campaign-settings'],
      ['GET', '/contact-lists'],
      ['POST', '/contact-list-items'],
    ] as const) {
      const res = await api(method, path, { token: co.adminToken, body: method === 'POST' ? {} : undefined });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
  });

  it('validation: name 2-50, a message variant, a connection and an audience are required (ERR_VALIDATION)', async () => {
    const co = await newCompany('cp-valid');
    const res = await api('POST', '/campaigns', { token: co.adminToken, body: { name: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.details.map((d: any) => d.path[0]).sort()).toEqual(['name']);
    const res2 = await api('POST', '/campaigns', { token: co.adminToken, body: { name: 'Valid name' } });
    expect(res2.body.details.map((d: any) => d.path[0]).sort()).toEqual(['contactListId', 'message1', 'whatsappId']);
    const bad = await api('POST', '/campaign-settings', {
      token: co.adminToken,
      body: { settings: { messageInterval: 7 } },
    });
    expect(bad.status).toBe(400);
    const dup = await api('POST', '/campaign-settings', {
      token: co.adminToken,
      body: {
        settings: {
          variables: [
            { key: 'a', value: '1' },
            { key: 'A', value: '2' },
          ],
        },
      },
    });
    expect(dup.status).toBe(400);
  });

  it('settings default to 20/20/60 and are saved as a list of key and JSON value', async () => {
    const co = await newCompany('cp-settings');
    const before = (await api('GET', '/campaign-settings', { token: co.adminToken })).body;
    expect(Object.fromEntries(before.map((s: any) => [s.key, JSON.parse(s.value)]))).toMatchObject({
      messageInterval: 20,
      longerIntervalAfter: 20,
      greaterInterval: 60,
    });
    await api('POST', '/campaign-settings', {
      token: co.adminToken,
      body: { settings: { messageInterval: 10, greaterInterval: 120 } },
    });
    const after = (await api('GET', '/campaign-settings', { token: co.adminToken })).body;
    expect(Object.fromEntries(after.map((s: any) => [s.key, JSON.parse(s.value)]))).toMatchObject({
      messageInterval: 10,
      longerIntervalAfter: 20,
      greaterInterval: 120,
    });
  });

  it('status rules: INATIVA by default, PROGRAMADA with a date, editable only while INATIVA or more than 1 hour before scheduledAt', async () => {
    const { co, whatsapp, list } = await setup('cp-status', 1);
    const inactive = (
      await api('POST', '/campaigns', { token: co.adminToken, body: campaignBody(whatsapp.id, list.id) })
    ).body;
    expect(inactive.status).toBe('INATIVA');
    expect(
      (
        await api('PUT', `/campaigns/${inactive.id}`, {
          token: co.adminToken,
          body: campaignBody(whatsapp.id, list.id, { name: 'Renamed' }),
        })
      ).body.name,
    ).toBe('Renamed');
    const far = (
      await api('POST', '/campaigns', {
        token: co.adminToken,
        body: campaignBody(whatsapp.id, list.id, { scheduledAt: inMinutes(120) }),
      })
    ).body;
    expect(far.status).toBe('PROGRAMADA');
    const edited = await api('PUT', `/campaigns/${far.id}`, {
      token: co.adminToken,
      body: campaignBody(whatsapp.id, list.id, { scheduledAt: inMinutes(30) }),
    });
    expect(edited.status).toBe(200);
    const locked = await api('PUT', `/campaigns/${far.id}`, {
      token: co.adminToken,
      body: campaignBody(whatsapp.id, list.id, { name: 'Too late' }),
    });
    expect(locked.status).toBe(409);
    expect(locked.body.error).toBe('ERR_CAMPAIGN_NOT_EDITABLE');
    // removing the date makes it INATIVA again only while editable
    const cleared = await api('PUT', `/campaigns/${inactive.id}`, {
      token: co.adminToken,
      body: campaignBody(whatsapp.id, list.id, { scheduledAt: inMinutes(90) }),
    });
    expect(cleared.body.status).toBe('PROGRAMADA');
    // an inactive campaign cannot be canceled or restarted
    const other = (await api('POST', '/campaigns', { token: co.adminToken, body: campaignBody(whatsapp.id, list.id) }))
      .body;
    expect((await api('POST', `/campaigns/${other.id}/cancel`, { token: co.adminToken })).status).toBe(409);
    expect((await api('POST', `/campaigns/${other.id}/restart`, { token: co.adminToken })).status).toBe(409);
    // a scheduled campaign can be canceled, and a canceled one still allows saving
    expect((await api('POST', `/campaigns/${far.id}/cancel`, { token: co.adminToken })).body.status).toBe('CANCELADA');
    const saved = await api('PUT', `/campaigns/${far.id}`, {
      token: co.adminToken,
      body: campaignBody(whatsapp.id, list.id, { name: 'Saved while canceled' }),
    });
    expect(saved.status).toBe(200);
    expect(saved.body.status).toBe('CANCELADA');
  });

  it('runs to FINALIZADA: one message per contact, variables filled, delivered only on a delivery ack, report progress', async () => {
    const { co, whatsapp, list, numbers } = await setup('cp-run', 4);
    const id = await startNow(co, campaignBody(whatsapp.id, list.id));
    const done = await eventually(async () => {
      const c = await get(co, id);
      return c.status === 'FINALIZADA' ? c : undefined;
    }, 20_000);
    expect(done.completedAt).toBeTruthy();
    expect(done.validContacts).toBe(4);
    const out = await sentTo(co, whatsapp.id);
    expect(out.map((o: any) => o.to.split('@')[0]).sort()).toEqual([...numbers].sort());
    expect(out[0].body).toMatch(/^Olá Cliente, ofertas na Loja Centro!$/);
    let report = (await api('GET', `/campaigns/${id}/report`, { token: co.adminToken })).body;
    expect(report).toMatchObject({ validContacts: 4, sent: 4, delivered: 0, progress: 0 });
    await phone(co.companyId, whatsapp.id).ack(out[0].wid, 2);
    await phone(co.companyId, whatsapp.id).ack(out[1].wid, 3);
    report = await eventually(async () => {
      const r = (await api('GET', `/campaigns/${id}/report`, { token: co.adminToken })).body;
      return r.delivered === 2 ? r : undefined;
    });
    expect(report).toMatchObject({ delivered: 2, read: 1, progress: 50 });
    expect(report.shipping.filter((s: any) => s.deliveredAt).length).toBe(2);
    // a repeated ack counts nothing twice
    await phone(co.companyId, whatsapp.id).ack(out[0].wid, 2);
    await queuesIdle();
    expect((await api('GET', `/campaigns/${id}/report`, { token: co.adminToken })).body.delivered).toBe(2);
  });

  it('sends are spaced on the simulated phone by messageInterval, and by greaterInterval after every longerIntervalAfter sends: every contact once', async () => {
    const CONTACTS = 7;
    const settings = { messageInterval: 20, longerIntervalAfter: 5, greaterInterval: 100 };
    // the configured seconds between send n and n + 1: the wait after the 5th send is the longer one
    const expectedSeconds = [20, 20, 20, 20, 100, 20];
    const { co, whatsapp, list, numbers } = await setup('cp-space', CONTACTS);
    const saved = await api('POST', '/campaign-settings', { token: co.adminToken, body: { settings } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const id = await startNow(co, campaignBody(whatsapp.id, list.id));
    await eventually(async () => (await get(co, id)).status === 'FINALIZADA', 20_000);
    const out = await sentTo(co, whatsapp.id);
    expect(out.length).toBe(CONTACTS);
    expect(out.map((o: any) => o.to.split('@')[0]).sort()).toEqual([...numbers].sort());
    // one pacing second lasts CAMPAIGN_SECOND_MS on the test stack (global-setup); jitter and the
    // warm-up of this new connection only lengthen a wait, so the configured interval is the floor
    expect(CAMPAIGN_SECOND_MS).toBeGreaterThan(0);
    const times = out.map((o: any) => Date.parse(o.at)).sort((a: number, b: number) => a - b);
    const gaps = times.slice(1).map((t: number, i: number) => t - times[i]!);
    expect(gaps.length).toBe(expectedSeconds.length);
    for (const [i, gap] of gaps.entries())
      expect(gap, `gap ${i + 1} of ${JSON.stringify(gaps)} ms`).toBeGreaterThanOrEqual(
        expectedSeconds[i]! * CAMPAIGN_SECOND_MS,
      );
  });

  it('a redelivered plan or send job never plans or sends twice', async () => {
    const { co, whatsapp, list } = await setup('cp-redeliver', 3);
    const id = await startNow(co, campaignBody(whatsapp.id, list.id));
    await eventually(async () => (await get(co, id)).status === 'FINALIZADA', 20_000);
    for (let step = 0; step <= 4; step++)
      await redeliver({ kind: 'send', companyId: co.companyId, campaignId: id, step });
    await redeliver({ kind: 'plan', companyId: co.companyId, campaignId: id, page: 0 });
    await queuesIdle();
    expect((await sentTo(co, whatsapp.id)).length).toBe(3);
    expect((await get(co, id)).validContacts).toBe(3);
  });

  it('cancel stops the run within one interval; restart goes on without sending anyone twice', async () => {
    const { co, whatsapp, list, numbers } = await setup('cp-cancel', 6);
    await api('POST', '/campaign-settings', { token: co.adminToken, body: { settings: { messageInterval: 20 } } });
    const id = await startNow(co, campaignBody(whatsapp.id, list.id));
    await until(async () => (await sentTo(co, whatsapp.id)).length >= 2);
    const canceled = await api('POST', `/campaigns/${id}/cancel`, { token: co.adminToken });
    expect(canceled.body.status).toBe('CANCELADA');
    // the step in flight may still send one message (on a loaded machine it can take longer than an
    // interval to reach the phone: wait for the queues to settle); nothing after it
    await queuesIdle();
    const atCancel = (await sentTo(co, whatsapp.id)).length;
    expect(atCancel).toBeLessThan(6);
    await new Promise((r) => setTimeout(r, 400));
    expect((await sentTo(co, whatsapp.id)).length).toBe(atCancel);
    const restarted = await api('POST', `/campaigns/${id}/restart`, { token: co.adminToken });
    expect(restarted.body.status).toBe('EM_ANDAMENTO');
    // a second restart of a running campaign is refused
    expect((await api('POST', `/campaigns/${id}/restart`, { token: co.adminToken })).status).toBe(409);
    await eventually(async () => (await get(co, id)).status === 'FINALIZADA', 20_000);
    const out = await sentTo(co, whatsapp.id);
    expect(out.map((o: any) => o.to.split('@')[0]).sort()).toEqual([...numbers].sort());
  });

  it('the limiter pauses a campaign whose sends fail, with the reason on the campaign and the connection; restart resumes', async () => {
    const { co, whatsapp, list, numbers } = await setup('cp-pause', 5);
    await api('POST', '/campaign-settings', { token: co.adminToken, body: { settings: { messageInterval: 20 } } });
    const id = await startNow(co, campaignBody(whatsapp.id, list.id));
    await until(async () => (await sentTo(co, whatsapp.id)).length >= 1);
    // failures recorded (refused sends, rejected acks) cross the threshold: 4 of 10
    await table().set(`C#${co.companyId}`, `CAMPAIGN#${String(id).padStart(10, '0')}`, { sent: 10, failed: 4 });
    const paused = await until(async () => {
      const c = await get(co, id);
      return c.status === 'PAUSADA' ? c : undefined;
    });
    expect(paused.pauseReason).toBe('failures');
    const limits = (await api('GET', '/campaigns/limits', { token: co.adminToken })).body;
    expect(limits.find((l: any) => l.whatsappId === whatsapp.id).pausedReason).toBe('failures');
    // a send already claimed when the pause came may still land; nothing after it
    await new Promise((r) => setTimeout(r, 300));
    const atPause = (await sentTo(co, whatsapp.id)).length;
    expect(atPause).toBeLessThan(5);
    await new Promise((r) => setTimeout(r, 300));
    expect((await sentTo(co, whatsapp.id)).length).toBe(atPause);
    await table().set(`C#${co.companyId}`, `CAMPAIGN#${String(id).padStart(10, '0')}`, { sent: atPause, failed: 0 });
    expect((await api('POST', `/campaigns/${id}/restart`, { token: co.adminToken })).body.status).toBe('EM_ANDAMENTO');
    await eventually(async () => (await get(co, id)).status === 'FINALIZADA', 20_000);
    expect((await sentTo(co, whatsapp.id)).map((o: any) => o.to.split('@')[0]).sort()).toEqual([...numbers].sort());
    const after = (await api('GET', '/campaigns/limits', { token: co.adminToken })).body;
    expect(after.find((l: any) => l.whatsappId === whatsapp.id).pausedReason).toBeNull();
  });

  it('a daily cap reached makes the campaign wait with reason dailyCap', async () => {
    const { co, whatsapp, list } = await setup('cp-cap', 2);
    await table().set(`C#${co.companyId}#CAMPLIMIT`, `W#${whatsapp.id}`, {
      day: limiterDay(Date.now()),
      sentToday: 10_000,
      version: 1,
      nextSendAt: 0,
    });
    const id = await startNow(co, campaignBody(whatsapp.id, list.id));
    const waiting = await eventually(async () => {
      const c = await get(co, id);
      return c.waitReason === 'dailyCap' ? c : undefined;
    });
    expect(waiting.status).toBe('EM_ANDAMENTO');
    expect(waiting.resumeAt).toBeTruthy();
    expect((await sentTo(co, whatsapp.id)).length).toBe(0);
    const limits = (await api('GET', '/campaigns/limits', { token: co.adminToken })).body;
    expect(limits.find((l: any) => l.whatsappId === whatsapp.id)).toMatchObject({ warmingUp: true, sentToday: 10_000 });
    await api('POST', `/campaigns/${id}/cancel`, { token: co.adminToken });
  });

  it("another company's campaigns and lists are unreachable", async () => {
    const { co, whatsapp, list } = await setup('cp-iso-a', 1);
    const other = await newCompany('cp-iso-b');
    const campaign = (
      await api('POST', '/campaigns', { token: co.adminToken, body: campaignBody(whatsapp.id, list.id) })
    ).body;
    for (const [method, path] of [
      ['GET', `/campaigns/${campaign.id}`],
      ['GET', `/campaigns/${campaign.id}/report`],
      ['POST', `/campaigns/${campaign.id}/cancel`],
      ['DELETE', `/campaigns/${campaign.id}`],
      ['GET', `/contact-lists/${list.id}`],
      ['DELETE', `/contact-lists/${list.id}`],
    ] as const) {
      const res = await api(method, path, { token: other.adminToken });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const items = await api('GET', `/contact-list-items?contactListId=${list.id}`, { token: other.adminToken });
    expect(items.status).toBe(404);
    const ownLine = await connectedWhatsapp(other.adminToken, other.companyId, { name: 'B line' });
    const stolen = await api('POST', '/campaigns', {
      token: other.adminToken,
      body: campaignBody(ownLine.id, list.id),
    });
    expect(stolen.status).toBe(404);
    expect((await api('GET', '/campaigns', { token: other.adminToken })).body.records).toEqual([]);
  });
});
