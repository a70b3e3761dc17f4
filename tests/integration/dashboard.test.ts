import { describe, it, expect } from 'vitest';
import { addDays, localClock, localDay } from '../../shared/dates';
import { api, newCompany, realtimeClient, sleep } from './helpers';
import { eventually, phone, rawTable } from './whatsapp-sim';
import { attendanceCompany, createContact, createTicket, createUser } from './fixtures';

const pad = (n: number) => String(n).padStart(10, '0');
// the dashboard counts São Paulo days and hours (the date module's calendar, tested on its own)
const today = () => localDay(new Date());

describe('dashboard', () => {
  it('counters, attendants (rating, support time, online) and both charts come from the aggregates kept by the writes', async () => {
    const co = await newCompany('db1');
    const { whatsapp, queueA, agentA } = await attendanceCompany(co);
    await api('PUT', `/whatsapp/${whatsapp.id}`, { token: co.adminToken, body: { ratingMessage: 'Rate us' } });
    await api('PUT', '/settings/userRating', { token: co.adminToken, body: { value: 'enabled' } });
    const [c1, c2, c3] = await Promise.all([
      createContact(co.adminToken),
      createContact(co.adminToken),
      createContact(co.adminToken, { number: '5511966660003' }),
    ]);
    const open = await createTicket(agentA.token, { contactId: c1.id, whatsappId: whatsapp.id, queueId: queueA.id });
    // pending for a while, then accepted: a wait time
    const waited = await createTicket(agentA.token, { contactId: c2.id, whatsappId: whatsapp.id, queueId: queueA.id });
    await api('PUT', `/tickets/${waited.id}`, { token: agentA.token, body: { status: 'pending', userId: null } });
    await sleep(1300);
    await api('PUT', `/tickets/${waited.id}`, { token: agentA.token, body: { status: 'open', userId: agentA.id } });
    await api('PUT', `/tickets/${waited.id}`, { token: agentA.token, body: { status: 'pending', userId: null } });
    // attended, then closed: a support time, and the customer rates 3
    const closed = await createTicket(agentA.token, { contactId: c3.id, whatsappId: whatsapp.id, queueId: queueA.id });
    await sleep(1300);
    await api('PUT', `/tickets/${closed.id}`, {
      token: agentA.token,
      body: { status: 'closed', userId: agentA.id, queueId: queueA.id },
    });
    const p = phone(co.companyId, whatsapp.id);
    await eventually(async () => (await p.outbound()).find((o: any) => o.body.startsWith('Rate us')));
    await p.send({ from: '5511966660003', body: '3' });
    await eventually(
      async () => (await api('GET', `/tickets/${closed.id}`, { token: co.adminToken })).body.rating === 3,
    );

    const online = await realtimeClient(agentA.token);
    try {
      const res = await api('GET', '/dashboard?days=7', { token: co.adminToken });
      expect(res.status).toBe(200);
      expect(res.body.counters).toMatchObject({
        supportHappening: 1,
        supportPending: 1,
        supportFinished: 1,
        newContacts: 3,
      });
      expect(res.body.counters.avgSupportTime).toBeGreaterThan(0);
      expect(res.body.counters.avgWaitTime).toBeGreaterThan(0);
      const attendant = res.body.attendants.find((a: any) => a.id === agentA.id);
      expect(attendant).toMatchObject({ name: agentA.user.name, rating: 3, online: true });
      expect(attendant.avgSupportTime).toBeGreaterThan(0);
      expect(res.body.attendants.find((a: any) => a.id === co.admin.id).online).toBe(false);

      const hours = await api('GET', `/dashboard/ticketsDay?initialDate=${today()}&finalDate=${today()}`, {
        token: co.adminToken,
      });
      expect(hours.body.data).toHaveLength(24);
      const hour = String(localClock(new Date()).hour).padStart(2, '0');
      expect(hours.body.data.find((d: any) => d.horario === hour).total).toBe(3);
      // a range of days (at most a year: longer ranges are refused)
      const monthAgo = localDay(addDays(new Date(), -30));
      const days = await api('GET', `/dashboard/ticketsDay?initialDate=${monthAgo}&finalDate=${today()}`, {
        token: co.adminToken,
      });
      expect(days.body.data).toEqual([{ data: today(), total: 3 }]);
      const users = await api('GET', `/dashboard/ticketsUsers?initialDate=${today()}&finalDate=${today()}`, {
        token: co.adminToken,
      });
      expect(users.body.data).toEqual([{ userId: agentA.id, nome: agentA.user.name, quantidade: 4 }]);

      // served from the aggregates: removing the ticket items changes nothing
      for (const t of [open, waited, closed]) await rawTable().del(`C#${co.companyId}`, `TICKET#${pad(t.id)}`);
      const again = await api('GET', '/dashboard?days=7', { token: co.adminToken });
      expect(again.body.counters).toEqual(res.body.counters);
    } finally {
      online.close();
    }
    // closing the socket takes the attendant offline (the presence set on the user item)
    await eventually(async () => {
      const res = await api('GET', '/dashboard?days=7', { token: co.adminToken });
      return res.body.attendants.find((a: any) => a.id === agentA.id).online === false || undefined;
    });
  });

  it('a change to a ticket created on a day already over is seen by the next read (settled days are kept per instance)', async () => {
    const co = await newCompany('db3');
    const { whatsapp, queueA, agentA } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(agentA.token, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    // the ticket was created three days ago: its stored dates and that day's counters say so
    const past = localDay(addDays(new Date(), -3));
    const raw = rawTable();
    const dashPk = `C#${co.companyId}#DASH`;
    const [todayItem] = await raw.query(dashPk);
    await raw.del(dashPk, todayItem!.sk);
    await raw.put({ ...todayItem, sk: `D#${past}`, day: past });
    const stored = (await raw.query(`C#${co.companyId}`)).find((i) => i.sk === `TICKET#${pad(ticket.id)}`)!;
    await raw.put({ ...stored, createdDay: past, createdAt: `${past}T15:00:00.000Z` });

    const read = async () => (await api('GET', '/dashboard?days=7', { token: co.adminToken })).body.counters;
    const perDay = async () =>
      (await api('GET', `/dashboard/ticketsDay?initialDate=${past}&finalDate=${today()}`, { token: co.adminToken }))
        .body.data;
    // first read: the day is over, so the serving instance keeps it from now on
    expect(await read()).toMatchObject({ supportHappening: 1, supportFinished: 0 });
    expect(await perDay()).toEqual([{ data: past, total: 1 }]);

    // closed today: the day it was created counts it closed at once
    await api('PUT', `/tickets/${ticket.id}`, { token: agentA.token, body: { status: 'closed', userId: agentA.id } });
    expect(await read()).toMatchObject({ supportHappening: 0, supportFinished: 1 });
    // deleted today: gone from its day's counters and chart
    expect((await api('DELETE', `/tickets/${ticket.id}`, { token: co.adminToken })).status).toBeLessThan(300);
    expect(await read()).toMatchObject({ supportHappening: 0, supportFinished: 0 });
    expect((await perDay()).find((d: any) => d.data === past)).toEqual({ data: past, total: 0 });
    // a range that ended before today still counts what today changed about its days
    const closedRange = await api('GET', `/dashboard?date_from=${past}&date_to=${past}`, { token: co.adminToken });
    expect(closedRange.body.counters).toMatchObject({ supportHappening: 0, supportFinished: 0 });
  });

  it('the attendants are who the company has now: one created, renamed, connected, disconnected or deleted after a read shows in the next', async () => {
    const co = await newCompany('db-users');
    const attendants = async () =>
      ((await api('GET', '/dashboard?days=7', { token: co.adminToken })).body.attendants as any[]).map(
        (a) => `${a.id}:${a.name}`,
      );
    const first = await attendants();
    expect(await attendants()).toEqual(first);
    const agent = await createUser(co, { name: 'Nova Atendente' });
    expect(await attendants()).toEqual([...first, `${agent.id}:Nova Atendente`]);
    const renamed = await api('PUT', `/users/${agent.id}`, {
      token: co.adminToken,
      body: { name: 'Atendente Renomeada' },
    });
    expect(renamed.status).toBe(200);
    expect(await attendants()).toEqual([...first, `${agent.id}:Atendente Renomeada`]);
    // a socket opened or closed after a read shows in the next (the serving instance keeps the users)
    const online = async () =>
      ((await api('GET', '/dashboard?days=7', { token: co.adminToken })).body.attendants as any[]).find(
        (a) => a.id === agent.id,
      ).online;
    expect(await online()).toBe(false);
    const socket = await realtimeClient(agent.token);
    expect(await online()).toBe(true);
    socket.close();
    await eventually(async () => (await online()) === false || undefined);
    expect((await api('DELETE', `/users/${agent.id}`, { token: co.adminToken })).status).toBe(200);
    expect(await attendants()).toEqual(first);
  });

  it('a range outside the activity is all zeros; the dashboard needs dashboard:view', async () => {
    const co = await newCompany('db2');
    const { agentA } = await attendanceCompany(co);
    const res = await api('GET', '/dashboard?date_from=2001-01-01&date_to=2001-01-31', { token: co.adminToken });
    expect(res.body.counters).toEqual({
      supportHappening: 0,
      supportPending: 0,
      supportFinished: 0,
      newContacts: 0,
      avgSupportTime: 0,
      avgWaitTime: 0,
    });
    for (const path of ['/dashboard', '/dashboard/ticketsUsers', '/dashboard/ticketsDay']) {
      const refused = await api('GET', path, { token: agentA.token });
      expect(refused.status, path).toBe(403);
      expect(refused.body.error).toBe('ERR_NO_PERMISSION');
    }
  });
});
