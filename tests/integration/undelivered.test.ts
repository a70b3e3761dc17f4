import { describe, it, expect } from 'vitest';
// runs timers in this process, as their Lambda does: the same handlers on realtime and the ticket service
import '../../functions/lib/startup';
import { api, newCompany, realtimeClient, runTimer, type TestCompany, usesTimers } from './helpers';
import { connectedWhatsapp, eventually, phone, rawTable } from './whatsapp-sim';
import { WATCH_SHARDS, watchShardPk } from '../../functions/lib/watchdog/repo';
import { createContact, createTicket, createUser, randomNumber } from './fixtures';
import { REPAIR_AFTER_UNDELIVERED, UNDELIVERED_AFTER_MINUTES } from '../../shared/constants';
import { runUndeliveredWatchdog } from '../../functions/lib/watchdog/service';

// the undelivered watchdog runs over every company's messages
usesTimers('undelivered');

/**
 * The undelivered watchdog (issue 15): a message we sent that has no delivery ack
 * UNDELIVERED_AFTER_MINUTES later is flagged on its bubble and its ticket row; a late delivery ack
 * clears it; the attendant resends it in one click; several flagged messages in one chat ask the
 * runner to repair the session. The simulated phone acks nothing unless told to (ack 1 stays).
 */

/** The watchdog as its timer runs it, at a time past the threshold of everything sent so far. */
const watchdogLater = () => runUndeliveredWatchdog(new Date(Date.now() + (UNDELIVERED_AFTER_MINUTES * 60 + 5) * 1000));

async function openConversation(co: TestCompany) {
  const w = await connectedWhatsapp(co.adminToken, co.companyId);
  const number = randomNumber();
  const contact = await createContact(co.adminToken, { number });
  const ticket = (await createTicket(co.adminToken, { contactId: contact.id, whatsappId: w.id })) as { id: number };
  return { w, number, ticket, p: phone(co.companyId, w.id) };
}

/** Sends a text and waits until the phone got it (ack 1 stored). */
async function sendOnPhone(co: TestCompany, c: Awaited<ReturnType<typeof openConversation>>, body: string) {
  const res = await api('POST', `/messages/${c.ticket.id}`, { token: co.adminToken, body: { body } });
  expect(res.status).toBe(201);
  await eventually(async () => (await stored(co, c.ticket.id, res.body.id))?.ack === 1);
  return res.body as { id: string; wid: string };
}

async function stored(co: TestCompany, ticketId: number, id: string, token = co.adminToken) {
  const list = await api('GET', `/messages/${ticketId}?limit=100`, { token });
  return (list.body.messages as Record<string, any>[]).find((m) => m.id === id);
}

const ticketOf = async (co: TestCompany, ticketId: number) =>
  (await api('GET', `/tickets/${ticketId}`, { token: co.adminToken })).body;

describe('undelivered watchdog', () => {
  it('a wake-up whose ticket was deleted since is dropped, not retried forever', async () => {
    const co = await newCompany('und-gone');
    const c = await openConversation(co);
    const sent = await sendOnPhone(co, c, 'e o ticket some');
    const watchOf = async () =>
      (await Promise.all(Array.from({ length: WATCH_SHARDS }, (_, shard) => rawTable().query(watchShardPk(shard)))))
        .flat()
        .find((w) => w.messageId === sent.id);
    expect(await watchOf()).toBeDefined();
    expect((await api('DELETE', `/tickets/${c.ticket.id}`, { token: co.adminToken })).status).toBe(200);
    await watchdogLater();
    expect(await watchOf()).toBeUndefined();
  });

  it('a message left at ack 1 past the threshold is flagged on its bubble and its ticket row, live; before the threshold the timer flags nothing', async () => {
    const co = await newCompany('und1');
    const c = await openConversation(co);
    const sent = await sendOnPhone(co, c, 'você recebeu?');
    // the timer as deployed, now: nothing is due yet
    expect((await runTimer('undelivered')).ok).toBe(true);
    expect((await stored(co, c.ticket.id, sent.id))?.undelivered).toBeFalsy();
    expect((await ticketOf(co, c.ticket.id)).undeliveredMessages ?? 0).toBe(0);

    const rt = await realtimeClient(co.adminToken);
    try {
      const result = await watchdogLater();
      expect(result.flagged).toBeGreaterThanOrEqual(1);
      expect(await stored(co, c.ticket.id, sent.id)).toMatchObject({ ack: 1, undelivered: true });
      expect((await ticketOf(co, c.ticket.id)).undeliveredMessages).toBe(1);
      const rows = (await api('GET', '/tickets?status=open', { token: co.adminToken })).body.tickets as any[];
      expect(rows.find((t) => t.id === c.ticket.id)?.undeliveredMessages).toBe(1);
      await rt.waitFor(
        (e) =>
          e.event === `company-${co.companyId}-appMessage` &&
          e.data.action === 'update' &&
          e.data.message.id === sent.id &&
          e.data.message.undelivered === true,
      );
      await rt.waitFor(
        (e) =>
          e.event === `company-${co.companyId}-ticket` &&
          e.data.action === 'update' &&
          e.data.ticket?.id === c.ticket.id &&
          e.data.ticket.undeliveredMessages === 1,
      );
    } finally {
      rt.close();
    }
    // a second run finds nothing left to look at for this message
    await watchdogLater();
    expect((await ticketOf(co, c.ticket.id)).undeliveredMessages).toBe(1);
  });

  it('a message sent to a group is never watched or flagged (a group has no single delivery ack)', async () => {
    const co = await newCompany('und-group');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    expect(
      (await api('PUT', '/settings/CheckMsgIsGroup', { token: co.adminToken, body: { value: 'disabled' } })).status,
    ).toBe(200);
    const rt = await realtimeClient(co.adminToken);
    const group = { jid: '120363000000000042@g.us', name: 'Clients group' };
    await phone(co.companyId, w.id).send({ from: randomNumber(), pushName: 'Rui', body: 'hello group', group });
    const e = await rt.waitFor((x) => x.event === `company-${co.companyId}-appMessage`, 8000);
    rt.close();
    expect(e.data.ticket).toMatchObject({ isGroup: true });
    const c = { ticket: { id: e.data.ticket.id as number } } as Awaited<ReturnType<typeof openConversation>>;
    const sent = await sendOnPhone(co, c, 'para o grupo');
    const watched = (
      await Promise.all(Array.from({ length: WATCH_SHARDS }, (_, shard) => rawTable().query(watchShardPk(shard))))
    )
      .flat()
      .some((watch) => watch.messageId === sent.id);
    expect(watched).toBe(false);
    await watchdogLater();
    expect((await stored(co, c.ticket.id, sent.id))?.undelivered).toBeFalsy();
    expect((await ticketOf(co, c.ticket.id)).undeliveredMessages ?? 0).toBe(0);
  });

  it('a late delivery ack clears the flag on the message and the ticket', async () => {
    const co = await newCompany('und2');
    const c = await openConversation(co);
    const sent = await sendOnPhone(co, c, 'chegou tarde');
    await watchdogLater();
    expect((await stored(co, c.ticket.id, sent.id))?.undelivered).toBe(true);
    await c.p.ack(sent.wid, 2);
    await eventually(async () => (await stored(co, c.ticket.id, sent.id))?.ack === 2);
    expect((await stored(co, c.ticket.id, sent.id))?.undelivered).toBe(false);
    expect((await ticketOf(co, c.ticket.id)).undeliveredMessages).toBe(0);
  });

  it('a delivered message is never flagged and cannot be resent', async () => {
    const co = await newCompany('und3');
    const c = await openConversation(co);
    const sent = await sendOnPhone(co, c, 'entregue');
    await c.p.ack(sent.wid, 2);
    await eventually(async () => (await stored(co, c.ticket.id, sent.id))?.ack === 2);
    await watchdogLater();
    expect((await stored(co, c.ticket.id, sent.id))?.undelivered).toBeFalsy();
    const res = await api('POST', `/messages/${sent.id}/resend`, { token: co.adminToken });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_MESSAGE_NOT_RESENDABLE');
  });

  it('resend sends the same text again as a new message that reaches the phone once, marks the old one, and a second resend is refused', async () => {
    const co = await newCompany('und4');
    const c = await openConversation(co);
    const sent = await sendOnPhone(co, c, 'reenviar isto');
    await watchdogLater();
    expect((await ticketOf(co, c.ticket.id)).undeliveredMessages).toBe(1);

    const res = await api('POST', `/messages/${sent.id}/resend`, { token: co.adminToken });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ body: 'reenviar isto', fromMe: true, ticketId: c.ticket.id });
    expect(res.body.id).not.toBe(sent.id);
    expect(res.body.wid).not.toBe(sent.wid);
    const copies = await eventually(async () => {
      const out = (await c.p.outbound()).filter((o: any) => o.body === 'reenviar isto');
      return out.length === 2 && out;
    });
    expect(copies.map((o: any) => o.wid)).toEqual([sent.wid, res.body.wid]);
    expect(await stored(co, c.ticket.id, sent.id)).toMatchObject({ resentAs: res.body.id, undelivered: false });
    expect((await ticketOf(co, c.ticket.id)).undeliveredMessages).toBe(0);

    const again = await api('POST', `/messages/${sent.id}/resend`, { token: co.adminToken });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_MESSAGE_NOT_RESENDABLE');
    expect((await c.p.outbound()).filter((o: any) => o.body === 'reenviar isto')).toHaveLength(2);
    // the resent one is flagged in its turn if it gets no ack either; the replaced one never again
    await watchdogLater();
    expect((await stored(co, c.ticket.id, sent.id))?.undelivered).toBe(false);
    expect((await stored(co, c.ticket.id, res.body.id))?.undelivered).toBe(true);
  });

  it(`${REPAIR_AFTER_UNDELIVERED} flagged messages in one chat send one repair command to the runner`, async () => {
    const co = await newCompany('und5');
    const c = await openConversation(co);
    for (let i = 0; i < REPAIR_AFTER_UNDELIVERED - 1; i++) await sendOnPhone(co, c, `perdida ${i}`);
    await watchdogLater();
    expect((await c.p.state()).repairs).toEqual([]);
    await sendOnPhone(co, c, 'a terceira');
    await sendOnPhone(co, c, 'a quarta');
    await watchdogLater();
    expect((await ticketOf(co, c.ticket.id)).undeliveredMessages).toBe(REPAIR_AFTER_UNDELIVERED + 1);
    const repairs = await eventually(async () => {
      const r = (await c.p.state()).repairs as { chatJid: string }[];
      return r.length > 0 && r;
    });
    expect(repairs).toEqual([expect.objectContaining({ chatJid: `${c.number}@s.whatsapp.net` })]);
  });

  it('another company never sees the flag or the resend, and a plain user cannot resend in a ticket they cannot see', async () => {
    const co = await newCompany('und6');
    const other = await newCompany('und6x');
    const c = await openConversation(co);
    const otherRt = await realtimeClient(other.adminToken);
    try {
      const sent = await sendOnPhone(co, c, 'só nossa');
      await watchdogLater();
      expect((await stored(co, c.ticket.id, sent.id))?.undelivered).toBe(true);

      const foreign = await api('POST', `/messages/${sent.id}/resend`, { token: other.adminToken });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe('ERR_NOT_FOUND');
      expect((await api('GET', `/tickets/${c.ticket.id}`, { token: other.adminToken })).status).toBe(404);

      const agent = await createUser(co);
      const refused = await api('POST', `/messages/${sent.id}/resend`, { token: agent.token });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('ERR_NO_PERMISSION');
      expect((await c.p.outbound()).filter((o: any) => o.body === 'só nossa')).toHaveLength(1);
      expect((await stored(co, c.ticket.id, sent.id))?.resentAs ?? null).toBeNull();
      expect(
        otherRt.events.filter((e) => JSON.stringify(e).includes(sent.id) || JSON.stringify(e).includes('undelivered')),
      ).toEqual([]);
    } finally {
      otherRt.close();
    }
  });
});
