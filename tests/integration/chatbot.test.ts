import { describe, it, expect } from 'vitest';
import { api, newCompany, realtimeClient, table, runTimer, queuesIdle, usesTimers } from './helpers';
import { connectedWhatsapp, eventually, makeDueNow, phone } from './whatsapp-sim';

usesTimers('whatsapp-timers');

const pad = (n: number) => String(n).padStart(10, '0');
let colour = 0;
async function queue(token: string, name: string, extra: Record<string, unknown> = {}) {
  const res = await api('POST', '/queue', {
    token,
    body: { name, color: `#${(0x100000 + colour++ * 7919).toString(16).slice(-6)}`, ...extra },
  });
  if (res.status !== 201) throw new Error(`queue: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number };
}
async function option(token: string, body: Record<string, unknown>) {
  const res = await api('POST', '/queue-options', { token, body });
  if (res.status !== 201 && res.status !== 200) throw new Error(`option: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number };
}
const closedAllWeek = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map(
  (weekdayEn) => ({ weekday: weekdayEn, weekdayEn, startTime: '00:00', endTime: '00:00' }),
);

/** The texts the simulated phone received. */
const received = async (companyId: number, whatsappId: number) =>
  (await phone(companyId, whatsappId).outbound()).map((o) => o.body as string);

describe('chatbot (simulator)', () => {
  it('greeting with the numbered queue menu; reply "2" puts the ticket in queue 2; the connection lists its queues', async () => {
    const co = await newCompany('bot');
    const sales = await queue(co.adminToken, 'Sales', { greetingMessage: 'Sales here' });
    const support = await queue(co.adminToken, 'Support', { greetingMessage: 'Support here, {{firstName}}' });
    const w = await connectedWhatsapp(co.adminToken, co.companyId, {
      queueIds: [sales.id, support.id],
      greetingMessage: 'Hi {{name}}! Choose a department:',
    });
    const listed = await api('GET', `/whatsapp/${w.id}`, { token: co.adminToken });
    expect(listed.body.queues.map((q: any) => q.name)).toEqual(['Sales', 'Support']);
    const rt = await realtimeClient(co.adminToken);
    const p = phone(co.companyId, w.id);
    await p.send({ from: '5511977770001', pushName: 'Ana Souza', body: 'oi' });
    await eventually(async () => (await received(co.companyId, w.id)).length === 1);
    expect(await received(co.companyId, w.id)).toEqual([
      'Hi Ana Souza! Choose a department:\n\n*[ 1 ]* - Sales\n*[ 2 ]* - Support',
    ]);
    await p.send({ from: '5511977770001', body: '2' });
    await eventually(async () => (await received(co.companyId, w.id)).length === 2);
    expect((await received(co.companyId, w.id))[1]).toBe('Support here, Ana');
    const ticketEvent = rt.events.filter((e) => e.event === `company-${co.companyId}-appMessage`).at(-1)!;
    const ticket = await table().get(`C#${co.companyId}`, `TICKET#${pad(ticketEvent.data.ticket.id)}`);
    expect(ticket).toMatchObject({ queueId: support.id, status: 'pending' });
    rt.close();
  });

  it('an invalid reply repeats the menu, and maxUseBotQueues stops it (no loop with another bot)', async () => {
    const co = await newCompany('botmax');
    const a = await queue(co.adminToken, 'Alpha');
    const b = await queue(co.adminToken, 'Beta');
    const w = await connectedWhatsapp(co.adminToken, co.companyId, {
      queueIds: [a.id, b.id],
      greetingMessage: 'Choose:',
      maxUseBotQueues: 2,
    });
    const p = phone(co.companyId, w.id);
    for (const body of ['hello', 'what?', 'banana', 'again']) {
      await p.send({ from: '5511977770002', body });
      await queuesIdle();
    }
    const texts = await received(co.companyId, w.id);
    expect(texts).toHaveLength(2);
    expect(texts[1]).toBe(texts[0]);
  });

  it('nested queue options: walk the tree by number, 0 goes up, # back to the start, a leaf answers', async () => {
    const co = await newCompany('tree');
    const sales = await queue(co.adminToken, 'Sales', { greetingMessage: 'Sales menu' });
    const billing = await option(co.adminToken, {
      queueId: sales.id,
      title: 'Billing',
      message: 'Billing options',
      option: '1',
    });
    await option(co.adminToken, {
      queueId: sales.id,
      parentId: billing.id,
      title: 'Second copy',
      message: 'Your second copy is on the way',
      option: '1',
    });
    await option(co.adminToken, { queueId: sales.id, title: 'Prices', message: 'See our prices', option: '2' });
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { queueIds: [sales.id] });
    const p = phone(co.companyId, w.id);
    const say = async (body: string) => {
      const before = (await received(co.companyId, w.id)).length;
      await p.send({ from: '5511977770003', body });
      return eventually(async () => {
        const all = await received(co.companyId, w.id);
        return all.length > before && all.at(-1)!;
      });
    };
    // one queue: assigned at once, its options shown
    const first = await say('hi');
    expect(first).toContain('*[ 1 ]* - Billing');
    expect(first).toContain('*[ 2 ]* - Prices');
    expect(await say('1')).toContain('*[ 1 ]* - Second copy');
    expect(await say('0')).toContain('*[ 2 ]* - Prices');
    expect(await say('1')).toContain('Billing options');
    expect(await say('#')).toContain('*[ 1 ]* - Billing');
    expect(await say('1')).toContain('Second copy');
    expect(await say('1')).toBe('Your second copy is on the way');
  });

  it('out of hours (scheduleType company): the out-of-hours message is sent and the ticket stays pending without a queue', async () => {
    const co = await newCompany('ooh');
    const a = await queue(co.adminToken, 'Alpha');
    const b = await queue(co.adminToken, 'Beta');
    expect(
      (await api('PUT', '/settings/scheduleType', { token: co.adminToken, body: { value: 'company' } })).status,
    ).toBe(200);
    expect(
      (
        await api('PUT', `/companies/${co.companyId}/schedules`, {
          token: co.adminToken,
          body: { schedules: closedAllWeek },
        })
      ).status,
    ).toBe(200);
    const w = await connectedWhatsapp(co.adminToken, co.companyId, {
      queueIds: [a.id, b.id],
      greetingMessage: 'Choose:',
      outOfHoursMessage: 'We are closed now, {{firstName}}.',
    });
    const rt = await realtimeClient(co.adminToken);
    await phone(co.companyId, w.id).send({ from: '5511977770004', pushName: 'Caio Lima', body: 'anyone?' });
    await eventually(async () => (await received(co.companyId, w.id)).length === 1);
    expect(await received(co.companyId, w.id)).toEqual(['We are closed now, Caio.']);
    const ticketId = rt.events.find((e) => e.event === `company-${co.companyId}-appMessage`)!.data.ticket.id;
    expect(await table().get(`C#${co.companyId}`, `TICKET#${pad(ticketId)}`)).toMatchObject({
      status: 'pending',
      queueId: null,
    });
    rt.close();
  });

  it('timeToTransfer moves a pending ticket left without a queue to transferQueueId', async () => {
    const co = await newCompany('transfer');
    const a = await queue(co.adminToken, 'Alpha');
    const b = await queue(co.adminToken, 'Beta');
    const w = await connectedWhatsapp(co.adminToken, co.companyId, {
      queueIds: [a.id, b.id],
      greetingMessage: 'Choose:',
      timeToTransfer: 1,
      transferQueueId: b.id,
    });
    const rt = await realtimeClient(co.adminToken);
    await phone(co.companyId, w.id).send({ from: '5511977770005', body: 'hello' });
    const created = await rt.waitFor((e) => e.event === `company-${co.companyId}-appMessage`, 8000);
    const key = [`C#${co.companyId}`, `TICKET#${pad(created.data.ticket.id)}`] as const;
    await queuesIdle();
    await runTimer('whatsapp-timers');
    expect((await table().get(...key))!.queueId).toBeNull(); // not due yet
    await makeDueNow(co.companyId, 'transfer');
    await runTimer('whatsapp-timers');
    expect((await table().get(...key))!.queueId).toBe(b.id);
    rt.close();
  });

  it('expiresTicket closes an idle open ticket with expiresInactiveMessage; with userRating the rating is asked, a "3" is recorded and the completion message follows', async () => {
    const co = await newCompany('rating');
    expect(
      (await api('PUT', '/settings/userRating', { token: co.adminToken, body: { value: 'enabled' } })).status,
    ).toBe(200);
    const w = await connectedWhatsapp(co.adminToken, co.companyId, {
      expiresTicket: 5,
      expiresInactiveMessage: 'Closing for inactivity',
      ratingMessage: 'How did we do, {{firstName}}?',
      complationMessage: 'Thanks, {{firstName}}!',
    });
    const rt = await realtimeClient(co.adminToken);
    const p = phone(co.companyId, w.id);
    await p.send({ from: '5511977770006', pushName: 'Bia Reis', body: 'help' });
    const created = await rt.waitFor((e) => e.event === `company-${co.companyId}-appMessage`, 8000);
    const ticketId = created.data.ticket.id as number;
    const key = [`C#${co.companyId}`, `TICKET#${pad(ticketId)}`] as const;
    expect((await api('PUT', `/tickets/${ticketId}`, { token: co.adminToken, body: { status: 'open' } })).status).toBe(
      200,
    );
    await api('POST', '/messages/send', {
      headers: { authorization: `Bearer ${w.token}` },
      body: { number: '5511977770006', body: 'We are on it' },
    });
    await queuesIdle();
    // a wake-up that is not due yet changes nothing
    await runTimer('whatsapp-timers');
    expect((await table().get(...key))!.status).toBe('open');
    await makeDueNow(co.companyId, 'expire');
    await runTimer('whatsapp-timers');
    await queuesIdle();
    expect((await table().get(...key))!.status).toBe('closed');
    const texts = await received(co.companyId, w.id);
    expect(texts).toContain('Closing for inactivity');
    expect(texts.at(-1)).toMatch(/^How did we do, Bia\?/);
    expect(texts.at(-1)).toContain('*[ 3 ]*');
    // asked once, though both the expiry timer and the ticket service report the close
    expect(texts.filter((t) => t.startsWith('How did we do'))).toHaveLength(1);
    await p.send({ from: '5511977770006', body: '3' });
    await eventually(async () => (await received(co.companyId, w.id)).at(-1) === 'Thanks, Bia!');
    expect(await table().get(...key)).toMatchObject({ status: 'closed', rating: 3 });
    rt.close();
  });

  it('an open ticket with activity after our message is not expired (stale wake-up)', async () => {
    const co = await newCompany('noexpire');
    const w = await connectedWhatsapp(co.adminToken, co.companyId, {
      expiresTicket: 5,
      expiresInactiveMessage: 'Closing for inactivity',
    });
    const rt = await realtimeClient(co.adminToken);
    const p = phone(co.companyId, w.id);
    await p.send({ from: '5511977770007', body: 'help' });
    const created = await rt.waitFor((e) => e.event === `company-${co.companyId}-appMessage`, 8000);
    const ticketId = created.data.ticket.id as number;
    await api('PUT', `/tickets/${ticketId}`, { token: co.adminToken, body: { status: 'open' } });
    await api('POST', '/messages/send', {
      headers: { authorization: `Bearer ${w.token}` },
      body: { number: '5511977770007', body: 'We are on it' },
    });
    await queuesIdle();
    await p.send({ from: '5511977770007', body: 'thanks, still here' });
    await queuesIdle();
    await makeDueNow(co.companyId, 'expire');
    await runTimer('whatsapp-timers');
    expect((await table().get(`C#${co.companyId}`, `TICKET#${pad(ticketId)}`))!.status).toBe('open');
    expect(await received(co.companyId, w.id)).not.toContain('Closing for inactivity');
    rt.close();
  });

  it('out of hours (scheduleType queue): choosing a closed queue routes the ticket there and sends its out-of-hours message', async () => {
    const co = await newCompany('oohq');
    const open = await queue(co.adminToken, 'Always open', {
      greetingMessage: 'Open queue here',
      schedules: closedAllWeek.map((d) => ({ ...d, startTime: '00:00', endTime: '23:59' })),
    });
    const closed = await queue(co.adminToken, 'Never open', {
      outOfHoursMessage: 'This department is closed',
      schedules: closedAllWeek,
    });
    expect(
      (await api('PUT', '/settings/scheduleType', { token: co.adminToken, body: { value: 'queue' } })).status,
    ).toBe(200);
    const w = await connectedWhatsapp(co.adminToken, co.companyId, {
      queueIds: [open.id, closed.id],
      greetingMessage: 'Choose:',
    });
    const rt = await realtimeClient(co.adminToken);
    const p = phone(co.companyId, w.id);
    await p.send({ from: '5511977770008', body: 'hi' });
    await eventually(async () => (await received(co.companyId, w.id)).length === 1);
    await p.send({ from: '5511977770008', body: '2' });
    await eventually(async () => (await received(co.companyId, w.id)).length === 2);
    expect((await received(co.companyId, w.id))[1]).toBe('This department is closed');
    const ticketId = rt.events.find((e) => e.event === `company-${co.companyId}-appMessage`)!.data.ticket.id;
    expect(await table().get(`C#${co.companyId}`, `TICKET#${pad(ticketId)}`)).toMatchObject({
      status: 'pending',
      queueId: closed.id,
    });
    rt.close();
  });

  it('rating after a close by the attendant: ratingMessage with the 1-3 scale, the answer "2" is recorded, then the completion message', async () => {
    const co = await newCompany('rateclose');
    await api('PUT', '/settings/userRating', { token: co.adminToken, body: { value: 'enabled' } });
    const w = await connectedWhatsapp(co.adminToken, co.companyId, {
      ratingMessage: 'Rate us, {{firstName}}',
      complationMessage: 'Bye, {{firstName}}!',
    });
    const rt = await realtimeClient(co.adminToken);
    const p = phone(co.companyId, w.id);
    await p.send({ from: '5511977770009', pushName: 'Duda Alves', body: 'hi' });
    const ticketId = (await rt.waitFor((e) => e.event === `company-${co.companyId}-appMessage`, 8000)).data.ticket
      .id as number;
    expect((await api('PUT', `/tickets/${ticketId}`, { token: co.adminToken, body: { status: 'open' } })).status).toBe(
      200,
    );
    expect(
      (await api('PUT', `/tickets/${ticketId}`, { token: co.adminToken, body: { status: 'closed' } })).status,
    ).toBe(200);
    await eventually(async () => (await received(co.companyId, w.id)).some((t) => t.startsWith('Rate us, Duda')));
    await p.send({ from: '5511977770009', body: '2' });
    await eventually(async () => (await received(co.companyId, w.id)).at(-1) === 'Bye, Duda!');
    const texts = await received(co.companyId, w.id);
    expect(texts.filter((t) => t.startsWith('Rate us'))).toHaveLength(1);
    expect(await table().get(`C#${co.companyId}`, `TICKET#${pad(ticketId)}`)).toMatchObject({
      status: 'closed',
      rating: 2,
    });
    // the answer did not open a new ticket
    const ids = new Set(
      rt.events.filter((e) => e.event === `company-${co.companyId}-appMessage`).map((e) => e.data.ticket.id),
    );
    expect([...ids]).toEqual([ticketId]);
    rt.close();
  });

  it('without ratings, closing sends the completion message once', async () => {
    const co = await newCompany('complete');
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { complationMessage: 'Thanks for talking to us' });
    const rt = await realtimeClient(co.adminToken);
    await phone(co.companyId, w.id).send({ from: '5511977770010', body: 'hi' });
    const ticketId = (await rt.waitFor((e) => e.event === `company-${co.companyId}-appMessage`, 8000)).data.ticket
      .id as number;
    await api('PUT', `/tickets/${ticketId}`, { token: co.adminToken, body: { status: 'closed' } });
    await eventually(async () => (await received(co.companyId, w.id)).includes('Thanks for talking to us'));
    await queuesIdle();
    expect((await received(co.companyId, w.id)).filter((t) => t === 'Thanks for talking to us')).toHaveLength(1);
    rt.close();
  });
});
