import { describe, expect, it } from 'vitest';
// runs the snooze timer in this process, as its Lambda does, with a clock moved past the snooze
import '../../functions/lib/startup';
import { api, baseUrl, newCompany, queuesIdle, realtimeClient, runTimer, table, usesTimers } from './helpers';
import { createQueue, createUser, randomNumber } from './fixtures';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';
import { ticketKeys } from '../../functions/lib/tickets/repo';
import { runSnoozeTimer, snoozeWakeKeys } from '../../functions/lib/tickets/snooze';
import { SNOOZE_MAX_DAYS } from '../../shared/schemas/tickets';

// the snooze timer runs over every company's wake-ups
usesTimers('snooze');

/**
 * Snooze (issue 40 item 6): an attendant puts an open ticket aside until a time or until the
 * customer writes. It leaves the open list and its badge, is listed under `snoozed=true`, and
 * comes back marked (`snoozeWoke`) with a realtime update when its time comes (the timer, run here
 * with its clock moved) or when the customer writes (the simulated phone). Only whoever may change
 * the ticket snoozes it; any transition (close, transfer) ends the snooze.
 */

const MIN = 60_000;
const later = (ms: number) => new Date(Date.now() + ms);

async function team(label: string) {
  const co = await newCompany(label);
  const whatsapp = await connectedWhatsapp(co.adminToken, co.companyId);
  const queue = await createQueue(co.adminToken);
  const other = await createQueue(co.adminToken);
  const ana = await createUser(co, { name: 'Ana', queueIds: [queue.id] });
  const bruno = await createUser(co, { name: 'Bruno', queueIds: [queue.id] });
  const carla = await createUser(co, { name: 'Carla', queueIds: [other.id] });
  return { co, whatsapp, queue, ana, bruno, carla };
}
type Team = Awaited<ReturnType<typeof team>>;

/** A customer writes; the ticket that opens is Ana's, open in her queue. */
async function anasTicket(tm: Team) {
  const customer = randomNumber();
  const p = phone(tm.co.companyId, tm.whatsapp.id);
  await p.send({ from: customer, body: 'oi, preciso de ajuda' });
  const pending = await eventually(async () => {
    const list = await api('GET', '/tickets?status=pending&showAll=true', { token: tm.co.adminToken });
    return (list.body.tickets as any[]).find((t) => t.contact.number === customer);
  });
  // it came without a queue: an admin hands it to Ana in her queue
  const accepted = await api('PUT', `/tickets/${pending.id}`, {
    token: tm.co.adminToken,
    body: { status: 'open', userId: tm.ana.id, queueId: tm.queue.id },
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  await queuesIdle(tm.co.companyId);
  return { id: pending.id as number, customer, p };
}

const stored = (companyId: number, id: number) =>
  table().get(ticketKeys(companyId, id).pk, ticketKeys(companyId, id).sk);
const list = async (token: string, query: string) => {
  const res = await api('GET', `/tickets?${query}`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { ids: (res.body.tickets as { id: number }[]).map((t) => t.id), count: res.body.count as number | undefined };
};
const snooze = (token: string, id: number, body: Record<string, unknown>) =>
  api('POST', `/tickets/${id}/snooze`, { token, body });

async function pushService<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/@push${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as T;
}
async function device(token: string) {
  const { publicKey } = (await api('GET', '/push/config', { token })).body;
  const sub = await pushService<{ id: string; endpoint: string; keys: unknown }>('POST', '/subscriptions', {
    applicationServerKey: publicKey,
  });
  const preferences = { pendingTicket: false, ticketMessage: true, chatMention: false, slaBreach: false };
  const res = await api('POST', '/push/subscriptions', {
    token,
    body: { endpoint: sub.endpoint, keys: sub.keys, device: 'Phone', preferences },
  });
  expect(res.status).toBe(201);
  return sub;
}
const pushes = async (d: { id: string }) =>
  (await pushService<{ messages: any[] }>('GET', `/subscriptions/${d.id}/messages`)).messages;

describe('snooze', () => {
  it('a snoozed ticket leaves the open list and its badge, is listed as snoozed, and wakes at its time: marked, back in the open list, live, and its attendant is pushed', async () => {
    const tm = await team('snz-time');
    const t = await anasTicket(tm);
    const mine = await device(tm.ana.token);
    expect(await list(tm.ana.token, 'status=open')).toEqual({ ids: [t.id], count: 1 });
    const rt = await realtimeClient(tm.ana.token);
    try {
      // first for half an hour, then again for two hours: the later snooze replaces the first
      expect((await snooze(tm.ana.token, t.id, { until: later(30 * MIN).toISOString() })).status).toBe(200);
      const until = later(2 * 60 * MIN);
      const res = await snooze(tm.ana.token, t.id, { until: until.toISOString() });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        status: 'open',
        userId: tm.ana.id,
        snooze: { until: until.toISOString(), userId: tm.ana.id },
      });
      expect(res.body.snoozeWoke ?? null).toBeNull();
      await rt.waitFor(
        (e) => e.event.endsWith('ticket') && e.data.ticket?.id === t.id && Boolean(e.data.ticket.snooze),
      );

      // stored: listed and counted under `snoozed`, with its wake-up in the due index
      const row = await stored(tm.co.companyId, t.id);
      expect(row?.gsi1pk).toBe(`C#${tm.co.companyId}#TS#snoozed`);
      expect(row?.gsi3pk).toBe(`C#${tm.co.companyId}#TU#${tm.ana.id}#snoozed`);
      const wakeKey = snoozeWakeKeys({ companyId: tm.co.companyId, ticketId: t.id, until: until.toISOString() });
      expect(await table().get(wakeKey.pk, wakeKey.sk)).toMatchObject({ ticketId: t.id });

      // out of the open lists and badges (the attendant's and the admin's), in the snoozed ones
      expect(await list(tm.ana.token, 'status=open')).toEqual({ ids: [], count: 0 });
      expect(await list(tm.co.adminToken, 'status=open&showAll=true')).toEqual({ ids: [], count: 0 });
      expect(await list(tm.ana.token, 'status=open&snoozed=true')).toEqual({ ids: [t.id], count: 1 });
      expect(await list(tm.co.adminToken, 'status=open&snoozed=true&showAll=true')).toEqual({
        ids: [t.id],
        count: 1,
      });
      // a colleague of the queue lists it with the queue's snoozed tickets (show all), as with open ones
      expect(
        (await list(tm.co.adminToken, `status=open&snoozed=true&showAll=true&queueIds=${tm.queue.id}`)).ids,
      ).toEqual([t.id]);

      // the timer as deployed, now, and the clock past the first snooze's time but before this one's: it stays snoozed
      expect((await runTimer('snooze')).ok).toBe(true);
      await runSnoozeTimer(later(60 * MIN));
      expect((await api('GET', `/tickets/${t.id}`, { token: tm.ana.token })).body.snooze).toBeTruthy();

      // its time comes
      const woke = later(2 * 60 * MIN + MIN);
      expect((await runSnoozeTimer(woke)).woke).toBeGreaterThanOrEqual(1);
      const after = (await api('GET', `/tickets/${t.id}`, { token: tm.ana.token })).body;
      expect(after.snooze ?? null).toBeNull();
      expect(after.snoozeWoke).toEqual({ at: woke.toISOString(), by: 'time' });
      expect(await list(tm.ana.token, 'status=open')).toEqual({ ids: [t.id], count: 1 });
      expect(await list(tm.ana.token, 'status=open&snoozed=true')).toEqual({ ids: [], count: 0 });
      expect(await table().get(wakeKey.pk, wakeKey.sk)).toBeUndefined();
      await rt.waitFor(
        (e) => e.event.endsWith('ticket') && e.data.ticket?.id === t.id && e.data.ticket.snoozeWoke?.by === 'time',
      );
      const pushed = await eventually(async () => {
        const all = await pushes(mine);
        return all.find((m) => m.payload?.kind === 'ticketMessage' && m.payload.body.includes('adiado'));
      });
      expect(pushed.payload.url).toContain(after.uuid);

      // a repeated run changes nothing
      const version = (await stored(tm.co.companyId, t.id))?.version;
      await runSnoozeTimer(later(3 * 60 * MIN));
      expect((await stored(tm.co.companyId, t.id))?.version).toBe(version);

      // Ana answers: the mark has done its job
      expect(
        (await api('POST', `/messages/${t.id}`, { token: tm.ana.token, body: { body: 'Voltando!' } })).status,
      ).toBe(201);
      expect((await api('GET', `/tickets/${t.id}`, { token: tm.ana.token })).body.snoozeWoke ?? null).toBeNull();
    } finally {
      rt.close();
    }
  });

  it('the customer writing wakes a snoozed ticket, marked, live; a timed snooze so woken is not woken again at its time', async () => {
    const tm = await team('snz-cust');
    const t = await anasTicket(tm);
    const rt = await realtimeClient(tm.ana.token);
    try {
      expect((await snooze(tm.ana.token, t.id, { untilCustomerWrites: true })).body.snooze).toMatchObject({
        until: null,
      });
      expect((await list(tm.ana.token, 'status=open')).ids).toEqual([]);
      await t.p.send({ from: t.customer, body: 'voltei!' });
      const after = await eventually(async () => {
        const got = (await api('GET', `/tickets/${t.id}`, { token: tm.ana.token })).body;
        return got.snoozeWoke ? got : undefined;
      });
      expect(after.snooze ?? null).toBeNull();
      expect(after.snoozeWoke.by).toBe('customer');
      expect(after.lastMessage).toBe('voltei!');
      expect(await list(tm.ana.token, 'status=open')).toEqual({ ids: [t.id], count: 1 });
      await rt.waitFor(
        (e) => e.event.endsWith('ticket') && e.data.ticket?.id === t.id && e.data.ticket.snoozeWoke?.by === 'customer',
      );

      // snoozed again until a time: the mark goes; the customer wakes it first, then its time comes
      const until = later(30 * MIN);
      const again = await snooze(tm.ana.token, t.id, { until: until.toISOString() });
      expect(again.body.snoozeWoke ?? null).toBeNull();
      await t.p.send({ from: t.customer, body: 'e mais uma coisa' });
      const woken = await eventually(async () => {
        const got = (await api('GET', `/tickets/${t.id}`, { token: tm.ana.token })).body;
        return got.snoozeWoke ? got : undefined;
      });
      await runSnoozeTimer(later(31 * MIN));
      expect((await api('GET', `/tickets/${t.id}`, { token: tm.ana.token })).body.snoozeWoke).toEqual(woken.snoozeWoke);
    } finally {
      rt.close();
    }
  });

  it('only whoever may change the ticket snoozes or wakes it: a colleague is held off by the soft lock, another queue cannot see it, another company finds nothing; an admin may', async () => {
    const tm = await team('snz-rights');
    const t = await anasTicket(tm);
    const body = { until: later(60 * MIN).toISOString() };
    const before = await stored(tm.co.companyId, t.id);

    const colleague = await snooze(tm.bruno.token, t.id, body);
    expect([colleague.status, colleague.body.error]).toEqual([403, 'ERR_TICKET_LOCKED']);
    const otherQueue = await snooze(tm.carla.token, t.id, body);
    expect([otherQueue.status, otherQueue.body.error]).toEqual([403, 'ERR_NO_PERMISSION']);
    const stranger = await newCompany('snz-other');
    const elsewhere = await snooze(stranger.adminToken, t.id, body);
    expect([elsewhere.status, elsewhere.body.error]).toEqual([404, 'ERR_NO_TICKET_FOUND']);
    const wakeElsewhere = await api('DELETE', `/tickets/${t.id}/snooze`, { token: stranger.adminToken });
    expect(wakeElsewhere.status).toBe(404);
    expect(await stored(tm.co.companyId, t.id)).toEqual(before);

    // the holder snoozes it; the colleague may not wake it either; an admin may
    expect((await snooze(tm.ana.token, t.id, { untilCustomerWrites: true })).status).toBe(200);
    const wakeByColleague = await api('DELETE', `/tickets/${t.id}/snooze`, { token: tm.bruno.token });
    expect([wakeByColleague.status, wakeByColleague.body.error]).toEqual([403, 'ERR_TICKET_LOCKED']);
    expect((await api('GET', `/tickets/${t.id}`, { token: tm.ana.token })).body.snooze).toBeTruthy();
    const woken = await api('DELETE', `/tickets/${t.id}/snooze`, { token: tm.co.adminToken });
    expect(woken.status).toBe(200);
    // woken by a person: no "woke" mark, back in the open list
    expect(woken.body.snooze ?? null).toBeNull();
    expect(woken.body.snoozeWoke ?? null).toBeNull();
    expect(await list(tm.ana.token, 'status=open')).toEqual({ ids: [t.id], count: 1 });
    expect((await snooze(tm.co.adminToken, t.id, body)).status).toBe(200);
  });

  it('a time in the past or more than the maximum ahead is refused with its code, and so is a ticket that is not open', async () => {
    const tm = await team('snz-time-rules');
    const t = await anasTicket(tm);
    for (const until of [later(-MIN), later((SNOOZE_MAX_DAYS + 1) * 24 * 60 * MIN)]) {
      const res = await snooze(tm.ana.token, t.id, { until: until.toISOString() });
      expect([res.status, res.body.error], until.toISOString()).toEqual([400, 'ERR_SNOOZE_TIME_INVALID']);
    }
    expect((await snooze(tm.ana.token, t.id, {})).body.error).toBe('ERR_VALIDATION');
    expect((await api('GET', `/tickets/${t.id}`, { token: tm.ana.token })).body.snooze ?? null).toBeNull();
    const farthest = await snooze(tm.ana.token, t.id, {
      until: later((SNOOZE_MAX_DAYS - 1) * 24 * 60 * MIN).toISOString(),
    });
    expect(farthest.status).toBe(200);

    const pending = await api('PUT', `/tickets/${t.id}`, {
      token: tm.ana.token,
      body: { status: 'pending', userId: null },
    });
    expect(pending.status).toBe(200);
    const refused = await snooze(tm.co.adminToken, t.id, { untilCustomerWrites: true });
    expect([refused.status, refused.body.error]).toEqual([409, 'ERR_SNOOZE_NOT_OPEN']);
  });

  it('closing or transferring a snoozed ticket ends its snooze: it is in the list it moved to, and its time does nothing', async () => {
    const tm = await team('snz-close');
    const t = await anasTicket(tm);
    const until = later(10 * MIN);
    expect((await snooze(tm.ana.token, t.id, { until: until.toISOString() })).status).toBe(200);
    const closed = await api('PUT', `/tickets/${t.id}`, { token: tm.ana.token, body: { status: 'closed' } });
    expect(closed.status).toBe(200);
    expect(closed.body.snooze ?? null).toBeNull();
    const row = await stored(tm.co.companyId, t.id);
    expect(row?.gsi1pk).toBe(`C#${tm.co.companyId}#TS#closed`);
    expect((await list(tm.co.adminToken, 'status=open&snoozed=true&showAll=true')).count).toBe(0);
    expect((await list(tm.co.adminToken, 'status=closed&showAll=true')).ids).toContain(t.id);
    await runSnoozeTimer(later(11 * MIN));
    const after = (await api('GET', `/tickets/${t.id}`, { token: tm.ana.token })).body;
    expect(after).toMatchObject({ status: 'closed' });
    expect(after.snoozeWoke ?? null).toBeNull();

    // transferred to a colleague: open in the colleague's list, not snoozed
    const t2 = await anasTicket(tm);
    expect((await snooze(tm.ana.token, t2.id, { untilCustomerWrites: true })).status).toBe(200);
    const moved = await api('PUT', `/tickets/${t2.id}`, { token: tm.ana.token, body: { userId: tm.bruno.id } });
    expect(moved.status).toBe(200);
    expect(moved.body.snooze ?? null).toBeNull();
    expect(await list(tm.bruno.token, 'status=open')).toEqual({ ids: [t2.id], count: 1 });
    expect((await list(tm.ana.token, 'status=open&snoozed=true')).count).toBe(0);
  });
});
