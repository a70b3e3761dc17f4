import { describe, expect, it } from 'vitest';
import { api, newCompany, queuesIdle, realtimeClient, type TestCompany } from './helpers';
import { acceptedConversation, connectedWhatsapp, eventually, phone } from './whatsapp-sim';
import { conversation, meta, messagesOf, sendText, sendsTo } from './cloud-fixtures';
import { createUser } from './fixtures';

/**
 * Reactions (issue 36, items 3 and 4) over HTTP against the local stack: a customer's emoji on a
 * message shows on it, one per reactor, replaced by a new one and gone when taken back; an
 * attendant's reaction is stored at once and reaches the customer through WhatsApp Web or the
 * Cloud API; only the ticket's holder reacts, and another company's messages are out of reach.
 */

async function webConversation(label: string) {
  const co = await newCompany(label);
  const w = await connectedWhatsapp(co.adminToken, co.companyId);
  const p = phone(co.companyId, w.id);
  const customer = `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const { first, ticket } = await acceptedConversation(co, w.id, customer, 'pode confirmar meu pedido?');
  return { co, w, p, customer, chatJid: first.chatJid, first, ticket };
}

const byWid = async (co: TestCompany, ticketId: number, wid: string) =>
  (await messagesOf(co, ticketId)).find((m) => m.wid === wid);

describe('reactions through WhatsApp Web', () => {
  it("a customer's reaction shows on the message, live; a new one replaces it and an empty one takes it back", async () => {
    const c = await webConversation('react-in');
    const sent = await sendText(c.co, c.ticket.id, 'confirmado!');
    await eventually(async () => (await byWid(c.co, c.ticket.id, sent.wid))?.ack >= 1);
    const rt = await realtimeClient(c.co.adminToken);
    try {
      await c.p.react({ wid: sent.wid, chatJid: c.chatJid, emoji: '👍' });
      const live = await rt.waitFor(
        (e) =>
          e.event === `company-${c.co.companyId}-appMessage` &&
          e.data.message?.id === sent.id &&
          e.data.message.reactions?.length === 1,
        8000,
      );
      expect(live.data.message.reactions[0]).toMatchObject({ emoji: '👍', fromMe: false });
    } finally {
      rt.close();
    }
    await c.p.react({ wid: sent.wid, chatJid: c.chatJid, emoji: '❤️' });
    await queuesIdle();
    expect((await byWid(c.co, c.ticket.id, sent.wid)).reactions).toEqual([
      expect.objectContaining({ emoji: '❤️', fromMe: false }),
    ]);
    await c.p.react({ wid: sent.wid, chatJid: c.chatJid, emoji: '' });
    await queuesIdle();
    expect((await byWid(c.co, c.ticket.id, sent.wid)).reactions ?? []).toEqual([]);
    // a reaction from one chat naming a message of another chat of the same line changes nothing there
    const someoneElse = await c.p.send({ from: `55119${String(Date.now()).slice(-8)}`, body: 'outro cliente' });
    const theirs = await eventually(async () => {
      const list = (await api('GET', '/tickets?showAll=true&status=pending', { token: c.co.adminToken })).body.tickets;
      return list?.[0] as { id: number } | undefined;
    });
    await c.p.react({ wid: someoneElse.wid, chatJid: c.chatJid, emoji: '😂' });
    await queuesIdle();
    expect((await byWid(c.co, theirs.id, someoneElse.wid)).reactions ?? []).toEqual([]);
  });

  it("the holder's reaction is stored at once and reaches the customer's phone; others may not react, nor reach another company's messages", async () => {
    const c = await webConversation('react-out');
    const customerMessage = await eventually(async () => byWid(c.co, c.ticket.id, c.first.wid));
    const res = await api('POST', `/messages/${customerMessage.id}/reactions`, {
      token: c.co.adminToken,
      body: { emoji: '🙏' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.reactions).toEqual([
      expect.objectContaining({ by: 'me', emoji: '🙏', fromMe: true, userId: c.co.admin.id }),
    ]);
    await eventually(async () => (await c.p.reactions()).some((r) => r.wid === c.first.wid && r.emoji === '🙏'));

    // taken back: the phone gets the empty reaction, the message shows none
    const id = res.body.id as string;
    const back = await api('POST', `/messages/${id}/reactions`, { token: c.co.adminToken, body: { emoji: '' } });
    expect(back.body.reactions).toEqual([]);
    await eventually(async () => (await c.p.reactions()).some((r) => r.wid === c.first.wid && r.emoji === ''));

    const text = await api('POST', `/messages/${id}/reactions`, { token: c.co.adminToken, body: { emoji: 'ok' } });
    expect(text.status).toBe(400);
    expect(text.body.error).toBe('ERR_VALIDATION');

    const agent = await createUser(c.co);
    const locked = await api('POST', `/messages/${id}/reactions`, { token: agent.token, body: { emoji: '👍' } });
    expect(locked.status).toBeGreaterThanOrEqual(400);
    const stranger = await newCompany('react-out-stranger');
    const foreign = await api('POST', `/messages/${id}/reactions`, {
      token: stranger.adminToken,
      body: { emoji: '👍' },
    });
    expect(foreign.status).toBe(404);
    expect((await byWid(c.co, c.ticket.id, c.first.wid)).reactions).toEqual([]);
  });
});

describe('reactions through the Cloud API', () => {
  it("a customer's reaction comes with Meta's webhook; the holder's goes to Meta naming the message's wamid", async () => {
    const { co, line, number, ticket } = await conversation('react-cloud');
    const sent = await sendText(co, ticket.id, 'tudo certo');
    const stored = await eventually(async () => {
      const m = (await messagesOf(co, ticket.id)).find((x) => x.id === sent.id);
      return m?.wid?.startsWith('wamid.') ? m : undefined;
    });
    await meta('/_inbound', {
      phoneNumberId: line.phoneNumberId,
      from: number,
      reaction: { messageId: stored.wid, emoji: '😍' },
    });
    await eventually(async () => (await byWid(co, ticket.id, stored.wid))?.reactions?.[0]?.emoji === '😍');

    const customerMessage = (await messagesOf(co, ticket.id)).find((m) => !m.fromMe)!;
    const res = await api('POST', `/messages/${customerMessage.id}/reactions`, {
      token: co.adminToken,
      body: { emoji: '👍' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const reaction = await eventually(async () => (await sendsTo(line)).find((r: any) => r.body?.type === 'reaction'));
    expect(reaction.body).toMatchObject({ to: number, reaction: { message_id: customerMessage.wid, emoji: '👍' } });
  });
});
