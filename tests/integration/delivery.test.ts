import { describe, it, expect } from 'vitest';
import { api, newCompany, queuesIdle, sleep, type TestCompany } from './helpers';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';
import { createContact, createTicket, randomNumber } from './fixtures';
import { handleInbound } from '../../functions/lib/inbound/handle';

/**
 * Delivery you can trust (issue 15): a message's WhatsApp id is chosen by the API before the send,
 * so acks find it whatever order they arrive in; acks only move forward; a send failure stays
 * visible; messages of one chat keep their arrival order within WhatsApp's whole seconds.
 */

async function openConversation(co: TestCompany) {
  const w = await connectedWhatsapp(co.adminToken, co.companyId);
  const number = randomNumber();
  const contact = await createContact(co.adminToken, { number });
  const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: w.id });
  return { w, number, ticket: ticket as { id: number } };
}

async function send(co: TestCompany, ticketId: number, body: string) {
  const res = await api('POST', `/messages/${ticketId}`, { token: co.adminToken, body: { body } });
  expect(res.status).toBe(201);
  return res.body as { id: string; wid: string; ack: number };
}

async function stored(co: TestCompany, ticketId: number, id: string) {
  const list = await api('GET', `/messages/${ticketId}?limit=100`, { token: co.adminToken });
  return (list.body.messages as { id: string; ack: number; error: string | null; wid: string }[]).find(
    (m) => m.id === id,
  );
}

describe('message identity and acks', () => {
  it('the API stores an outgoing message with the WhatsApp id it will be sent with (3EB0 + 18 hex), and the phone gets that id', async () => {
    const co = await newCompany('dlv1');
    const { w, ticket } = await openConversation(co);
    const sent = await send(co, ticket.id, 'olá');
    expect(sent.wid).toMatch(/^3EB0[0-9A-F]{18}$/);
    expect((await stored(co, ticket.id, sent.id))?.wid).toBe(sent.wid);
    // needs the session runner to send with the given id
    const out = await eventually(async () =>
      (await phone(co.companyId, w.id).outbound()).find((o) => o.body === 'olá'),
    );
    expect(out.wid).toBe(sent.wid);
  });

  it('an ack moved on the phone as soon as the message arrives there is kept, 10 times in a row', async () => {
    const co = await newCompany('dlv2');
    const { w, ticket } = await openConversation(co);
    const p = phone(co.companyId, w.id);
    const sent: { id: string }[] = [];
    for (let i = 0; i < 10; i++) {
      const message = await send(co, ticket.id, `rápido ${i}`);
      sent.push(message);
      // no queue drain here: the ack must race the send result, as a real phone's does
      let out: { wid: string } | undefined;
      for (const until = Date.now() + 8000; !out && Date.now() < until; await sleep(5))
        out = (await p.outbound()).find((o) => o.body === `rápido ${i}`);
      expect(out).toBeDefined();
      await p.ack(out!.wid, 2);
    }
    await queuesIdle();
    for (const m of sent) expect((await stored(co, ticket.id, m.id))?.ack).toBe(2);
  });

  it('an ack that arrives before the send result is applied, and the late send result never lowers it', async () => {
    const co = await newCompany('dlv3');
    const { w, number, ticket } = await openConversation(co);
    const sent = await send(co, ticket.id, 'antes do resultado');
    const chatJid = `${number}@s.whatsapp.net`;
    await handleInbound({ type: 'ack', companyId: co.companyId, whatsappId: w.id, wid: sent.wid, chatJid, ack: 3 });
    expect((await stored(co, ticket.id, sent.id))?.ack).toBe(3);
    await handleInbound({
      type: 'sendResult',
      companyId: co.companyId,
      whatsappId: w.id,
      messageId: sent.id,
      ticketId: ticket.id,
      chatJid,
      wid: sent.wid,
      ack: 1,
    });
    await queuesIdle();
    expect((await stored(co, ticket.id, sent.id))?.ack).toBe(3);
  });

  it('acks only move forward: read (3) never becomes delivered (2)', async () => {
    const co = await newCompany('dlv4');
    const { w, number, ticket } = await openConversation(co);
    const sent = await send(co, ticket.id, 'lida');
    await queuesIdle();
    const ack = (value: number) =>
      handleInbound({
        type: 'ack',
        companyId: co.companyId,
        whatsappId: w.id,
        wid: sent.wid,
        chatJid: `${number}@s.whatsapp.net`,
        ack: value,
      });
    await ack(3);
    await ack(2);
    expect((await stored(co, ticket.id, sent.id))?.ack).toBe(3);
  });

  it("an ack under the contact's @lid id reaches the message sent to its number", async () => {
    const co = await newCompany('dlv5');
    const { w, ticket } = await openConversation(co);
    const sent = await send(co, ticket.id, 'lid');
    await queuesIdle();
    await handleInbound({
      type: 'ack',
      companyId: co.companyId,
      whatsappId: w.id,
      wid: sent.wid,
      chatJid: '123456789012345@lid',
      ack: 3,
    });
    expect((await stored(co, ticket.id, sent.id))?.ack).toBe(3);
  });

  it('a send failure reported by the runner stays on the message: a late ack 1 does not clear it', async () => {
    const co = await newCompany('dlv6');
    const { w, number, ticket } = await openConversation(co);
    const chatJid = `${number}@s.whatsapp.net`;
    const failed = await send(co, ticket.id, 'falhou no envio');
    await queuesIdle();
    await handleInbound({
      type: 'sendResult',
      companyId: co.companyId,
      whatsappId: w.id,
      messageId: failed.id,
      ticketId: ticket.id,
      chatJid,
      wid: failed.wid,
      ack: 0,
      error: 'ERR_SENDING_WAPP_MSG',
    });
    await handleInbound({ type: 'ack', companyId: co.companyId, whatsappId: w.id, wid: failed.wid, chatJid, ack: 1 });
    expect(await stored(co, ticket.id, failed.id)).toMatchObject({ error: 'ERR_SENDING_WAPP_MSG' });

    // WhatsApp refusing a message after taking it (status 0) arrives as an ack with an error
    const refused = await send(co, ticket.id, 'recusada depois');
    await queuesIdle();
    await handleInbound({
      type: 'ack',
      companyId: co.companyId,
      whatsappId: w.id,
      wid: refused.wid,
      chatJid,
      ack: 0,
      error: 'ERR_SENDING_WAPP_MSG',
    });
    await handleInbound({ type: 'ack', companyId: co.companyId, whatsappId: w.id, wid: refused.wid, chatJid, ack: 1 });
    expect(await stored(co, ticket.id, refused.id)).toMatchObject({ error: 'ERR_SENDING_WAPP_MSG' });
  });
});

describe('order of a chat', () => {
  it('customer messages sent within the same WhatsApp second are listed in the order they arrived', async () => {
    const co = await newCompany('dlv7');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const p = phone(co.companyId, w.id);
    const from = randomNumber();
    const timestamp = Math.floor(Date.now() / 1000);
    const bodies = ['um', 'dois', 'tres', 'quatro', 'cinco'];
    for (const body of bodies) await p.send({ from, body, timestamp });
    const tickets = await eventually(async () => {
      const res = await api('GET', '/tickets?status=pending&showAll=true', { token: co.adminToken });
      return res.body.tickets.length ? (res.body.tickets as { id: number }[]) : undefined;
    });
    const list = await api('GET', `/messages/${tickets[0]!.id}`, { token: co.adminToken });
    expect(list.body.messages.map((m: { body: string }) => m.body)).toEqual(bodies);
    // older pages keep it too
    const paged = await api('GET', `/messages/${tickets[0]!.id}?limit=2`, { token: co.adminToken });
    expect(paged.body.messages.map((m: { body: string }) => m.body)).toEqual(['quatro', 'cinco']);
    const older = await api(
      'GET',
      `/messages/${tickets[0]!.id}?limit=3&cursor=${encodeURIComponent(paged.body.cursor)}`,
      { token: co.adminToken },
    );
    expect(older.body.messages.map((m: { body: string }) => m.body)).toEqual(['um', 'dois', 'tres']);
  });
});
