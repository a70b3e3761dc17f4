import { describe, expect, it } from 'vitest';
// runs timers in this process, as their Lambda does: the same handlers on realtime and the ticket service
import '../../functions/lib/startup';
import { api, baseUrl, newCompany, queuesIdle, realtimeClient, table, type TestCompany } from './helpers';
import { createContact, createQueue, createTicket, createUser, createWhatsapp } from './fixtures';
import { rawTable } from './whatsapp-sim';
import { addServiceMinutes, bucketOf, bucketUpper } from '../../shared/sla';
import { addDays, localDay } from '../../shared/dates';
import type { DaySchedule } from '../../shared/business-hours';
import { ticketKeys } from '../../functions/lib/tickets/repo';
import { SLA_DUE_PREFIX, SLA_DUE_SHARDS, slaWakeKeys } from '../../functions/lib/sla/clock';
import { dueShardPk } from '../../functions/lib/due';
import { runSlaTimer } from '../../functions/lib/sla/breach';
import { recordRating } from '../../functions/lib/tickets/mutate';
import { slaCsv } from '../../web/src/dashboard/sla-csv';
import { expectNoFormulaCell, readCsv } from '../csv';

/**
 * Service levels (issue 24): a queue's policy sets a ticket's deadlines, the first attendant reply
 * is recorded once, the `sla` timer (run here as its handler runs it, with a clock moved past the
 * deadline) marks a breach once and tells the attendant and the admins live and by Web Push, and
 * the dashboard's metrics are the hand-computed medians, p90s, breaches and CSAT.
 */

const MIN = 60_000;
const ticketOf = async (token: string, id: number) => (await api('GET', `/tickets/${id}`, { token })).body;

/** Moves a stored ticket's wait start into the past (the API offers no clock): durations become known. */
const waitedSince = (co: TestCompany, ticketId: number, msAgo: number) =>
  table().set(ticketKeys(co.companyId, ticketId).pk, ticketKeys(co.companyId, ticketId).sk, {
    queuedAt: new Date(Date.now() - msAgo).toISOString(),
  });

async function reply(token: string, ticketId: number, body = 'Olá, como posso ajudar?') {
  const res = await api('POST', `/messages/${ticketId}`, { token, body: { body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; createdAt: string };
}

async function pushService<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/@push${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as T;
}
const ALL = { pendingTicket: true, ticketMessage: true, chatMention: true, slaBreach: true };
async function device(token: string) {
  const { publicKey } = (await api('GET', '/push/config', { token })).body;
  const sub = await pushService<{ id: string; endpoint: string; keys: unknown }>('POST', '/subscriptions', {
    applicationServerKey: publicKey,
  });
  const res = await api('POST', '/push/subscriptions', {
    token,
    body: { endpoint: sub.endpoint, keys: sub.keys, device: 'Phone', preferences: ALL },
  });
  expect(res.status).toBe(201);
  return sub;
}
const pushed = async (d: { id: string }) =>
  (await pushService<{ messages: any[] }>('GET', `/subscriptions/${d.id}/messages`)).messages;

async function slaWakesOf(companyId: number, ticketId: number) {
  const all = await Promise.all(
    Array.from({ length: SLA_DUE_SHARDS }, (_, s) => rawTable().query(dueShardPk(SLA_DUE_PREFIX, s))),
  );
  return all.flat().filter((w) => w.companyId === companyId && w.ticketId === ticketId);
}

/** The metrics of today and tomorrow (São Paulo days): a deadline due after midnight still counts. */
const metricsOf = async (token: string) => {
  const now = new Date();
  const res = await api('GET', `/dashboard?date_from=${localDay(now)}&date_to=${localDay(addDays(now, 1))}`, { token });
  expect(res.status).toBe(200);
  return res.body.sla;
};

describe('SLA policy on the queue', () => {
  it('bad policy values are rejected with ERR_VALIDATION on the field; empty means no target', async () => {
    const co = await newCompany('sla-bad');
    for (const [field, value] of [
      ['slaFirstResponseMinutes', 0],
      ['slaFirstResponseMinutes', -5],
      ['slaFirstResponseMinutes', 1.5],
      ['slaFirstResponseMinutes', 'abc'],
      ['slaFirstResponseMinutes', 7 * 24 * 60 + 1],
      ['slaResolutionHours', 0],
      ['slaResolutionHours', 366 * 24 + 1],
      ['slaBusinessHours', 'yes'],
    ] as const) {
      const bad = await api('POST', '/queue', {
        token: co.adminToken,
        body: { name: `Fila ${field} ${value}`, color: '#123456', [field]: value },
      });
      expect(bad.status, `${field}=${value}`).toBe(400);
      expect(bad.body.error).toBe('ERR_VALIDATION');
      expect(bad.body.details.map((d: any) => d.path[0])).toEqual([field]);
    }
    const q = await createQueue(co.adminToken, { slaFirstResponseMinutes: '15', slaResolutionHours: '' });
    expect(q).toMatchObject({ slaFirstResponseMinutes: 15, slaResolutionHours: null, slaBusinessHours: false });
    const edited = await api('PUT', `/queue/${q.id}`, {
      token: co.adminToken,
      body: { slaResolutionHours: 8, slaBusinessHours: true },
    });
    expect(edited.status).toBe(200);
    const read = (await api('GET', `/queue/${q.id}`, { token: co.adminToken })).body;
    expect(read).toMatchObject({ slaFirstResponseMinutes: 15, slaResolutionHours: 8, slaBusinessHours: true });
    const badEdit = await api('PUT', `/queue/${q.id}`, { token: co.adminToken, body: { slaResolutionHours: -1 } });
    expect(badEdit.status).toBe(400);
    expect(badEdit.body.error).toBe('ERR_VALIDATION');
  });

  it('a ticket entering a queue with a policy gets its deadlines; a queue without one clears them; the first attendant reply is recorded once', async () => {
    const co = await newCompany('sla-due');
    const w = await createWhatsapp(co);
    const sla = await createQueue(co.adminToken, { slaFirstResponseMinutes: 30, slaResolutionHours: 4 });
    const plain = await createQueue(co.adminToken);
    const contact = await createContact(co.adminToken);
    const created = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: w.id, queueId: sla.id });
    const start = Date.parse(created.slaStartAt);
    expect(created.slaStartAt).toBe(created.createdAt);
    expect(created.slaFirstResponseDueAt).toBe(new Date(start + 30 * MIN).toISOString());
    expect(created.slaResolutionDueAt).toBe(new Date(start + 4 * 60 * MIN).toISOString());
    expect(created.firstResponseAt ?? null).toBeNull();
    expect((await slaWakesOf(co.companyId, created.id)).map((w) => w.kind).sort()).toEqual([
      'firstResponse',
      'resolution',
    ]);

    const first = await reply(co.adminToken, created.id);
    const answered = await ticketOf(co.adminToken, created.id);
    expect(answered.firstResponseAt).toBe(first.createdAt);
    await reply(co.adminToken, created.id, 'segunda mensagem');
    expect((await ticketOf(co.adminToken, created.id)).firstResponseAt).toBe(first.createdAt);

    // transferred to a queue without a policy: no deadlines any more
    const moved = await api('PUT', `/tickets/${created.id}`, {
      token: co.adminToken,
      body: { queueId: plain.id, userId: null, status: 'pending' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ slaFirstResponseDueAt: null, slaResolutionDueAt: null });
    // a new wait: no first response yet
    expect(moved.body.firstResponseAt ?? null).toBeNull();

    // back into the SLA queue: a new wait, a new clock from the transfer
    const back = await api('PUT', `/tickets/${created.id}`, {
      token: co.adminToken,
      body: { queueId: sla.id, userId: null, status: 'pending' },
    });
    expect(back.body.slaStartAt).toBe(back.body.queuedAt);
    expect(back.body.slaFirstResponseDueAt).toBe(new Date(Date.parse(back.body.queuedAt) + 30 * MIN).toISOString());
  });

  it("counted in business hours: the deadline skips the queue's closed hours", async () => {
    const co = await newCompany('sla-hours');
    const w = await createWhatsapp(co);
    // open only tomorrow (São Paulo) 09:00-10:00: whenever the test runs, the clock waits for that hour
    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    const weekday = new Intl.DateTimeFormat('en-US', { weekday: 'long', timeZone: 'America/Sao_Paulo' })
      .format(tomorrow)
      .toLowerCase();
    const schedules = [{ weekday, weekdayEn: weekday, startTime: '09:00', endTime: '10:00' }] as DaySchedule[];
    const q = await createQueue(co.adminToken, { slaFirstResponseMinutes: 45, slaBusinessHours: true, schedules });
    const contact = await createContact(co.adminToken);
    const t = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: w.id, queueId: q.id });
    const expected = addServiceMinutes(new Date(t.slaStartAt), 45, schedules, 'America/Sao_Paulo').toISOString();
    expect(t.slaFirstResponseDueAt).toBe(expected);
    expect(Date.parse(t.slaFirstResponseDueAt) - Date.parse(t.slaStartAt)).toBeGreaterThan(45 * MIN);
  });
});

describe('SLA breach (timer `sla`)', () => {
  it('marks the ticket once, tells its attendant and the admins live and by push, not other users or companies', async () => {
    const co = await newCompany('sla-breach');
    const w = await createWhatsapp(co);
    const q = await createQueue(co.adminToken, { slaFirstResponseMinutes: 10 });
    const agent = await createUser(co, { queueIds: [q.id] });
    const colleague = await createUser(co, { queueIds: [q.id] });
    const other = await newCompany('sla-other');
    const contact = await createContact(co.adminToken);
    const t = await createTicket(co.adminToken, {
      contactId: contact.id,
      whatsappId: w.id,
      queueId: q.id,
      userId: agent.id,
    });
    const [adminDevice, agentDevice, colleagueDevice] = await Promise.all([
      device(co.adminToken),
      device(agent.token),
      device(colleague.token),
    ]);
    const [adminRt, agentRt, colleagueRt, otherRt] = await Promise.all([
      realtimeClient(co.adminToken),
      realtimeClient(agent.token),
      realtimeClient(colleague.token),
      realtimeClient(other.adminToken),
    ]);
    try {
      // before the deadline: nothing
      await runSlaTimer(new Date(Date.now() + 5 * MIN));
      expect((await ticketOf(co.adminToken, t.id)).slaFirstResponseBreached).toBe(false);

      const late = new Date(Date.parse(t.slaFirstResponseDueAt) + MIN);
      const result = await runSlaTimer(late);
      expect(result.breached).toBeGreaterThanOrEqual(1);
      expect((await ticketOf(co.adminToken, t.id)).slaFirstResponseBreached).toBe(true);
      const isBreach = (e: { event: string; data: any }) =>
        e.event === `company-${co.companyId}-sla` && e.data.action === 'breach' && e.data.ticketId === t.id;
      const seen = await agentRt.waitFor(isBreach);
      expect(seen.data).toMatchObject({ kind: 'firstResponse', dueAt: t.slaFirstResponseDueAt });
      await adminRt.waitFor(isBreach);
      await agentRt.waitFor(
        (e) =>
          e.event === `company-${co.companyId}-ticket` &&
          e.data.ticket?.id === t.id &&
          e.data.ticket.slaFirstResponseBreached,
      );

      // a redelivered wake-up (the same item again) and a second run change nothing
      await rawTable().put({
        ...slaWakeKeys({
          kind: 'firstResponse',
          companyId: co.companyId,
          ticketId: t.id,
          dueAt: t.slaFirstResponseDueAt,
        }),
        kind: 'firstResponse',
        companyId: co.companyId,
        ticketId: t.id,
        dueAt: t.slaFirstResponseDueAt,
      });
      await runSlaTimer(late);
      await queuesIdle();
      expect((await metricsOf(co.adminToken)).total.breached).toBe(1);
      expect(adminRt.events.filter(isBreach)).toHaveLength(1);
      expect(agentRt.events.filter(isBreach)).toHaveLength(1);
      expect(colleagueRt.events.filter((e) => e.event.endsWith('-sla'))).toEqual([]);
      expect(otherRt.events.filter((e) => e.event.includes('sla') || e.data?.ticketId === t.id)).toEqual([]);

      const adminPush = await pushed(adminDevice);
      const agentPush = await pushed(agentDevice);
      expect(adminPush.map((m) => m.payload.kind)).toEqual(['slaBreach']);
      expect(agentPush.map((m) => m.payload.kind)).toEqual(['slaBreach']);
      expect(agentPush[0].payload).toMatchObject({ body: contact.name, url: `/tickets/${t.uuid}` });
      expect((await pushed(colleagueDevice)).filter((m) => m.payload.kind === 'slaBreach')).toEqual([]);
      // the wake-up is gone once handled
      expect(await slaWakesOf(co.companyId, t.id)).toEqual([]);
    } finally {
      for (const rt of [adminRt, agentRt, colleagueRt, otherRt]) rt.close();
    }
  });

  it('a deadline met in time (a reply, a close) is not breached', async () => {
    const co = await newCompany('sla-met');
    const w = await createWhatsapp(co);
    const q = await createQueue(co.adminToken, { slaFirstResponseMinutes: 10, slaResolutionHours: 1 });
    const c1 = await createContact(co.adminToken);
    const c2 = await createContact(co.adminToken);
    const replied = await createTicket(co.adminToken, { contactId: c1.id, whatsappId: w.id, queueId: q.id });
    const closed = await createTicket(co.adminToken, { contactId: c2.id, whatsappId: w.id, queueId: q.id });
    await reply(co.adminToken, replied.id);
    expect(
      (await api('PUT', `/tickets/${closed.id}`, { token: co.adminToken, body: { status: 'closed' } })).status,
    ).toBe(200);
    await runSlaTimer(new Date(Date.now() + 61 * MIN));
    const a = await ticketOf(co.adminToken, replied.id);
    const b = await ticketOf(co.adminToken, closed.id);
    expect(a.slaFirstResponseBreached).toBe(false);
    // the reply did not meet the resolution deadline: that one is missed
    expect(a.slaResolutionBreached).toBe(true);
    expect(b).toMatchObject({ slaFirstResponseBreached: false, slaResolutionBreached: false });
    expect(await slaWakesOf(co.companyId, replied.id)).toEqual([]);
    expect(await slaWakesOf(co.companyId, closed.id)).toEqual([]);
  });
});

describe('SLA metrics on the dashboard', () => {
  it('medians, p90, breaches and CSAT per attendant, queue and connection are the hand-computed ones; another company sees none of them; the CSV writes a queue named as a formula as text', async () => {
    const co = await newCompany('sla-metrics');
    const w = await createWhatsapp(co);
    // a queue named as a formula: the dashboard's CSV must write it as text
    const q = await createQueue(co.adminToken, { name: "=cmd|' /C calc'!A0", slaFirstResponseMinutes: 30 });
    const agent = await createUser(co, { name: 'Ana SLA', queueIds: [q.id] });
    const tickets = [];
    for (let i = 0; i < 4; i++) {
      const contact = await createContact(co.adminToken);
      tickets.push(
        await createTicket(co.adminToken, { contactId: contact.id, whatsappId: w.id, queueId: q.id, userId: agent.id }),
      );
    }
    const [t1, t2, t3, t4] = tickets;
    // first responses after 56 s, 560 s and 3,500 s (each well inside its bucket); t4 never answered
    for (const [t, seconds] of [
      [t1, 56],
      [t2, 560],
      [t3, 3500],
    ] as const) {
      await waitedSince(co, t.id, seconds * 1000);
      await reply(agent.token, t.id);
    }
    // resolutions after 3,500 s (t1) and 3,500 s (t2)
    for (const t of [t1, t2]) {
      await waitedSince(co, t.id, 3500 * 1000);
      const closed = await api('PUT', `/tickets/${t.id}`, { token: agent.token, body: { status: 'closed' } });
      expect(closed.status).toBe(200);
    }
    // ratings as the chatbot records the contact's answer: 2 (satisfied) and 1 (not)
    await recordRating(co.companyId, t1.id, 2);
    await recordRating(co.companyId, t2.id, 1);
    // t4's first-response deadline passes
    await runSlaTimer(new Date(Date.parse(t4.slaFirstResponseDueAt) + MIN));

    // by hand: first responses 56, 560, 3500 s -> buckets with upper bounds 64, 609, 4096 s;
    // median = 2nd of 3 -> 609; p90 = rank ceil(2.7) = 3rd -> 4096. Resolutions 3500, 3500 -> 4096.
    expect([bucketOf(56_000), bucketOf(560_000), bucketOf(3_500_000)].map((k) => Math.round(bucketUpper(k)))).toEqual([
      64, 609, 4096,
    ]);
    const expected = {
      firstResponse: { count: 3, median: 609, p90: 4096 },
      resolution: { count: 2, median: 4096, p90: 4096 },
      breached: 1,
      csat: { ratings: 2, satisfied: 1, percent: 50 },
    };
    const sla = await metricsOf(co.adminToken);
    expect(sla.attendants).toEqual([{ id: agent.id, name: 'Ana SLA', ...expected }]);
    expect(sla.queues).toEqual([{ id: q.id, name: q.name, ...expected }]);
    expect(sla.connections).toEqual([
      { id: w.id, name: (w as { name?: string }).name ?? expect.any(String), ...expected },
    ]);
    expect(sla.total).toMatchObject(expected);
    expect(sla.daily.reduce((s: number, d: any) => s + d.breached, 0)).toBe(1);
    // the same answer as the dashboard's CSV: the queue's name is text, read with , or with ;
    const csv = slaCsv(sla, {
      columns: ['dimension', 'name', 'n', 'frMed', 'frP90', 'res', 'resMed', 'resP90', 'breached', 'ratings', 'csat'],
      dimensions: { attendant: 'Attendant', queue: 'Queue', connection: 'Connection', total: 'Total' },
    });
    expectNoFormulaCell(csv);
    expect(readCsv(csv, ',')).toContainEqual([
      'Queue',
      "'=cmd|' /C calc'!A0",
      '3',
      '609',
      '4096',
      '2',
      '4096',
      '4096',
      '1',
      '2',
      '50',
    ]);

    // another company: its own (empty) metrics, whatever company id it names
    const other = await newCompany('sla-metrics-other');
    const theirs = await api('GET', `/dashboard?days=2&companyId=${co.companyId}`, { token: other.adminToken });
    expect(theirs.status).toBe(200);
    expect(theirs.body.sla).toMatchObject({ attendants: [], queues: [], connections: [], total: { breached: 0 } });
    expect(theirs.body.sla.total.firstResponse.count).toBe(0);
    // an attendant without the dashboard permission gets no metrics
    expect((await api('GET', '/dashboard?days=2', { token: agent.token })).status).toBe(403);
  });

  it('the dashboard never answers a changed day from what it kept: a new ticket and a first response show at once', async () => {
    const co = await newCompany('sla-fresh');
    const w = await createWhatsapp(co);
    const q = await createQueue(co.adminToken, { slaFirstResponseMinutes: 30 });
    const read = async () => (await api('GET', '/dashboard?days=2', { token: co.adminToken })).body;
    const before = await read();
    expect(await read()).toEqual(before);
    const contact = await createContact(co.adminToken);
    const t = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: w.id, queueId: q.id });
    const opened = await read();
    expect(opened.counters.supportHappening).toBe(before.counters.supportHappening + 1);
    await reply(co.adminToken, t.id);
    const answered = await read();
    expect(answered.sla.total.firstResponse.count).toBe(before.sla.total.firstResponse.count + 1);
    expect(answered.sla.queues.map((r: any) => r.id)).toEqual([q.id]);
    // the day now read is kept with its version: a later change moves the version and is seen
    expect(await read()).toEqual(answered);
    const t2 = await createTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: w.id,
      queueId: q.id,
    });
    await reply(co.adminToken, t2.id);
    const again = await read();
    expect(again.sla.total.firstResponse.count).toBe(before.sla.total.firstResponse.count + 2);
    expect(again.counters.supportHappening).toBe(before.counters.supportHappening + 2);
    // every write to a day item moved its version (kept-days.ts DAY_VERSION): two first responses
    const [slaDay] = await rawTable().query(`C#${co.companyId}#SLA`);
    expect(slaDay!.v).toBe(2);
  });
});
