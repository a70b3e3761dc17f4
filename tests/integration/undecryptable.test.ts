import { describe, it, expect } from 'vitest';
import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { INBOUND_QUEUE, inboundGroupId, type InboundEvent } from '../../shared/whatsapp-protocol';
import { api, baseUrl, newCompany, queuesIdle, realtimeClient } from './helpers';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';

/**
 * A customer's message that reached the session but could not be decrypted (issue 37, item 3): the
 * ticket shows a placeholder, and the real message (the sender's phone sends it again with the
 * same id) takes its place.
 */

/** Puts an event on the inbound queue under a dedup id of our own: a copy the queue does not drop as a repeat. */
async function enqueueAgain(event: InboundEvent & { chatJid?: string }, chatJid: string, deduplicationId: string) {
  const sqs = new SQSClient({
    endpoint: baseUrl(),
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: `${baseUrl()}/@sqs/${INBOUND_QUEUE}`,
      MessageBody: JSON.stringify(event),
      MessageGroupId: inboundGroupId(event.companyId, event.whatsappId, chatJid),
      MessageDeduplicationId: deduplicationId,
    }),
  );
}

const messagesOf = async (token: string, ticketId: number) =>
  (await api('GET', `/messages/${ticketId}?limit=100`, { token })).body.messages as Record<string, any>[];
const received = async (companyId: number, whatsappId: number) =>
  (await phone(companyId, whatsappId).outbound()).map((o) => o.body as string);

describe('a message that could not be decrypted', () => {
  it('shows as a flagged placeholder that nothing answers; stored once however often it is reported', async () => {
    const co = await newCompany('undec');
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { greetingMessage: 'Bem-vindo!' });
    const rt = await realtimeClient(co.adminToken);
    await rt.join('joinTickets', 'pending');
    const p = phone(co.companyId, w.id);
    const { wid, chatJid } = await p.undecryptable({ from: '5511966660001', pushName: 'Rita Lima' });

    const created = await rt.waitFor(
      (e) => e.event === `company-${co.companyId}-appMessage` && e.data.message?.wid === wid,
      8000,
    );
    expect(created.data.action).toBe('create');
    expect(created.data.message).toMatchObject({ undecryptable: true, body: '', fromMe: false });
    expect(created.data.ticket).toMatchObject({ status: 'pending', unreadMessages: 1 });
    expect(created.data.ticket.contact).toMatchObject({ name: 'Rita Lima', number: '5511966660001' });
    const ticketId = created.data.ticket.id as number;

    const listed = await messagesOf(co.adminToken, ticketId);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ wid, undecryptable: true, body: '', fromMe: false, ticketId });
    // nobody knows what it said: no greeting went out for it
    await queuesIdle(co.companyId);
    expect(await received(co.companyId, w.id)).toEqual([]);

    // reported again by the phone, and again past the queue's deduplication: one placeholder
    await p.undecryptable({ from: '5511966660001', wid });
    const again: InboundEvent = {
      type: 'undecryptable',
      companyId: co.companyId,
      whatsappId: w.id,
      wid,
      chatJid,
      isGroup: false,
      timestamp: Math.floor(Date.now() / 1000),
    };
    await enqueueAgain(again, chatJid, `again-${wid}`);
    await queuesIdle(co.companyId);
    expect(await messagesOf(co.adminToken, ticketId)).toHaveLength(1);
    rt.close();
  });

  it('the real message with the same id replaces it in place (content, flag gone, update published) and gets the greeting it held back, once', async () => {
    const co = await newCompany('undec-real');
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { greetingMessage: 'Bem-vindo!' });
    const rt = await realtimeClient(co.adminToken);
    await rt.join('joinTickets', 'pending');
    const p = phone(co.companyId, w.id);
    const { wid, chatJid } = await p.undecryptable({ from: '5511966660002', pushName: 'Rui Costa' });
    const created = await rt.waitFor(
      (e) => e.event === `company-${co.companyId}-appMessage` && e.data.message?.wid === wid,
      8000,
    );
    const ticketId = created.data.ticket.id as number;
    const placeholderId = created.data.message.id as string;

    // another company holds a placeholder under the same WhatsApp id: it is not touched
    const other = await newCompany('undec-other');
    const ow = await connectedWhatsapp(other.adminToken, other.companyId);
    await phone(other.companyId, ow.id).undecryptable({ from: '5511966660002', wid });
    const otherTicket = await eventually(async () => {
      const list = await api('GET', '/tickets?status=pending&showAll=true', { token: other.adminToken });
      return list.body.tickets?.[0] as { id: number } | undefined;
    });

    // the sender's phone sends it again, decrypted, with the same id
    await p.send({ from: '5511966660002', wid, pushName: 'Rui Costa', body: 'Meu pedido 123 não chegou' });
    const updated = await rt.waitFor(
      (e) =>
        e.event === `company-${co.companyId}-appMessage` && e.data.action === 'update' && e.data.message?.wid === wid,
      8000,
    );
    expect(updated.data.message).toMatchObject({ id: placeholderId, body: 'Meu pedido 123 não chegou' });
    expect(updated.data.message.undecryptable).toBeUndefined();

    // the customer's side of the ticket: one message (the greeting below is ours)
    const listed = (await messagesOf(co.adminToken, ticketId)).filter((m) => !m.fromMe);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: placeholderId, wid, body: 'Meu pedido 123 não chegou', ticketId });
    expect(listed[0]!.undecryptable).toBeUndefined();
    // the greeting of the new ticket went out now, once
    await eventually(async () => (await received(co.companyId, w.id)).length === 1);
    expect(await received(co.companyId, w.id)).toEqual(['Bem-vindo!']);
    // the ticket's preview, empty for the placeholder, shows the real text (before the greeting moved it on)
    await rt.waitFor(
      (e) =>
        e.event === `company-${co.companyId}-ticket` &&
        e.data.ticket?.id === ticketId &&
        e.data.ticket.lastMessage === 'Meu pedido 123 não chegou',
    );

    // the real message delivered again past the queue's deduplication: a duplicate, nothing changes
    const redelivered: InboundEvent = {
      type: 'message',
      companyId: co.companyId,
      whatsappId: w.id,
      message: {
        wid,
        chatJid,
        fromMe: false,
        isGroup: false,
        body: 'something else',
        mediaType: 'chat',
        timestamp: Math.floor(Date.now() / 1000),
      },
    };
    await enqueueAgain(redelivered, chatJid, `again-${wid}`);
    // and a placeholder reported late for it: nothing either
    await p.undecryptable({ from: '5511966660002', wid });
    await queuesIdle(co.companyId);
    const after = (await messagesOf(co.adminToken, ticketId)).filter((m) => !m.fromMe);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ body: 'Meu pedido 123 não chegou' });
    expect(after[0]!.undecryptable).toBeUndefined();
    expect(await received(co.companyId, w.id)).toEqual(['Bem-vindo!']);

    const untouched = await messagesOf(other.adminToken, otherTicket.id);
    expect(untouched).toHaveLength(1);
    expect(untouched[0]).toMatchObject({ wid, undecryptable: true, body: '' });
    rt.close();
  });
});
