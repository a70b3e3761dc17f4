import { describe, it, expect } from 'vitest';
import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { INBOUND_QUEUE, inboundGroupId, type InboundEvent } from '../../shared/whatsapp-protocol';
import { api, baseUrl, newCompany, realtimeClient, table, queuesIdle } from './helpers';
import { connectedWhatsapp, eventually, phone, sim } from './whatsapp-sim';

const pad = (n: number) => String(n).padStart(10, '0');
const appMessages = (rt: Awaited<ReturnType<typeof realtimeClient>>, companyId: number, action = 'create') =>
  rt.events.filter((e) => e.event === `company-${companyId}-appMessage` && e.data.action === action);

/**
 * Puts an event on the inbound FIFO queue as the session runner does (same message group), but with
 * a deduplication id of the caller's: a copy the queue does not recognise as a repeat (a provider
 * reporting the message again after the queue's 5-minute dedupe window, a runner restarted mid-send).
 */
async function enqueueInbound(event: Extract<InboundEvent, { type: 'message' }>, deduplicationId: string) {
  const sqs = new SQSClient({
    endpoint: baseUrl(),
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: `${baseUrl()}/@sqs/${INBOUND_QUEUE}`,
      MessageBody: JSON.stringify(event),
      MessageGroupId: inboundGroupId(event.companyId, event.whatsappId, event.message.chatJid),
      MessageDeduplicationId: deduplicationId,
    }),
  );
}

describe('inbound pipeline (simulator)', () => {
  it('an inbound text opens a pending ticket with unread 1 and publishes appMessage and ticket events', async () => {
    const co = await newCompany('inb');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const rt = await realtimeClient(co.adminToken);
    await rt.join('joinTickets', 'pending');
    const { wid } = await phone(co.companyId, w.id).send({
      from: '5511988880001',
      pushName: 'Maria Silva',
      body: 'Olá, preciso de ajuda',
      profilePicUrl: 'https://pps.whatsapp.net/v/maria.jpg',
    });
    const created = await rt.waitFor(
      (e) => e.event === `company-${co.companyId}-appMessage` && e.data.message?.wid === wid,
      8000,
    );
    expect(created.data.message).toMatchObject({
      body: 'Olá, preciso de ajuda',
      fromMe: false,
      ack: 0,
      mediaType: 'chat',
    });
    expect(created.data.ticket).toMatchObject({ status: 'pending', unreadMessages: 1, whatsappId: w.id, userId: null });
    expect(created.data.ticket.contact).toMatchObject({
      name: 'Maria Silva',
      number: '5511988880001',
      profilePicUrl: 'https://pps.whatsapp.net/v/maria.jpg',
    });
    await rt.waitFor(
      (e) => e.event === `company-${co.companyId}-ticket` && e.data.ticket?.id === created.data.ticket.id,
    );
    rt.close();
  });

  it('a redelivered message (same WhatsApp id) is stored once and counted unread once', async () => {
    const co = await newCompany('redeliver');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const rt = await realtimeClient(co.adminToken);
    const p = phone(co.companyId, w.id);
    await p.send({ from: '5511988880002', body: 'first', wid: 'DUPWID0001' });
    await p.send({ from: '5511988880002', body: 'first', wid: 'DUPWID0001' });
    await p.send({ from: '5511988880002', body: 'second', wid: 'DUPWID0002' });
    const both = await eventually(async () => {
      const list = appMessages(rt, co.companyId);
      return list.length >= 2 && list;
    });
    await queuesIdle();
    expect(
      appMessages(rt, co.companyId)
        .map((e) => e.data.message.wid)
        .sort(),
    ).toEqual(['DUPWID0001', 'DUPWID0002']);
    const ticketId = both[1]!.data.ticket.id;
    const ticket = await table().get(`C#${co.companyId}`, `TICKET#${pad(ticketId)}`);
    expect(ticket!.unreadMessages).toBe(2);
    expect(both[0]!.data.ticket.id).toBe(ticketId);
    rt.close();
  });

  it('a message delivered twice past the queue dedupe (same WhatsApp id) is stored once by the wid guard and counted unread once', async () => {
    const co = await newCompany('wid-guard');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const rt = await realtimeClient(co.adminToken);
    const wid = `GUARDWID${Date.now()}`;
    const event: Extract<InboundEvent, { type: 'message' }> = {
      type: 'message',
      companyId: co.companyId,
      whatsappId: w.id,
      message: {
        wid,
        chatJid: '5511988880012@s.whatsapp.net',
        fromMe: false,
        isGroup: false,
        pushName: 'Joana Lima',
        body: 'uma vez só',
        mediaType: 'chat',
        timestamp: Math.floor(Date.now() / 1000),
      },
    };
    // two deduplication ids: the FIFO queue hands both copies to the consumer
    await enqueueInbound(event, `${wid}:first`);
    await enqueueInbound(event, `${wid}:again`);
    const created = await rt.waitFor(
      (e) => e.event === `company-${co.companyId}-appMessage` && e.data.message?.wid === wid,
      8000,
    );
    await queuesIdle();
    const ticketId = created.data.ticket.id as number;
    const tickets = await api('GET', '/tickets?status=pending&showAll=true', { token: co.adminToken });
    expect(tickets.body.tickets.map((t: { id: number }) => t.id)).toEqual([ticketId]);
    // before the messages are listed: reading them marks the ticket read
    const ticket = await api('GET', `/tickets/${ticketId}`, { token: co.adminToken });
    expect(ticket.body.unreadMessages).toBe(1);
    expect(appMessages(rt, co.companyId).filter((e) => e.data.message.wid === wid)).toHaveLength(1);
    const list = await api('GET', `/messages/${ticketId}?limit=100`, { token: co.adminToken });
    expect(list.status).toBe(200);
    expect(list.body.messages.filter((m: { wid: string }) => m.wid === wid)).toHaveLength(1);
    rt.close();
  });

  it('the same customer writing as @lid and as number is one contact and one ticket', async () => {
    const co = await newCompany('lid');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const rt = await realtimeClient(co.adminToken);
    const p = phone(co.companyId, w.id);
    await p.send({ from: '5511988880003', body: 'by number' });
    await p.send({ from: '5511988880003', lid: '99887766554433@lid', body: 'by lid' });
    const list = await eventually(
      async () => appMessages(rt, co.companyId).length === 2 && appMessages(rt, co.companyId),
    );
    expect(new Set(list.map((e) => e.data.ticket.id)).size).toBe(1);
    expect(new Set(list.map((e) => e.data.ticket.contactId)).size).toBe(1);
    rt.close();
  });

  it('media lands in S3 under the company prefix; a failed download keeps the message with ERR_WAPP_DOWNLOAD_MEDIA', async () => {
    const co = await newCompany('media');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const rt = await realtimeClient(co.adminToken);
    const bytes = Buffer.from('%PDF-1.4 fake invoice body');
    const p = phone(co.companyId, w.id);
    const ok = await p.send({
      from: '5511988880004',
      body: 'invoice',
      media: { data: bytes.toString('base64'), mimetype: 'application/pdf', fileName: 'invoice.pdf' },
    });
    const failed = await p.send({
      from: '5511988880004',
      body: 'photo',
      media: { data: bytes.toString('base64'), mimetype: 'image/jpeg', fileName: 'p.jpg' },
      failMedia: true,
    });
    const stored = await rt.waitFor(
      (e) => e.event === `company-${co.companyId}-appMessage` && e.data.message?.wid === ok.wid,
      8000,
    );
    expect(stored.data.message.mediaType).toBe('document');
    const url = stored.data.message.mediaUrl as string;
    // a presigned URL of an object under the company's prefix
    expect(decodeURIComponent(new URL(url).pathname)).toContain(`/company${co.companyId}/media/`);
    const download = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(download).toEqual(bytes);
    const broken = await rt.waitFor(
      (e) => e.event === `company-${co.companyId}-appMessage` && e.data.message?.wid === failed.wid,
      8000,
    );
    expect(broken.data.message).toMatchObject({ error: 'ERR_WAPP_DOWNLOAD_MEDIA', mediaType: 'image', body: 'photo' });
    rt.close();
  });

  it('messages typed on the phone (fromMe) appear in the ticket and get no bot answer', async () => {
    const co = await newCompany('fromme');
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { greetingMessage: 'Hello!' });
    const rt = await realtimeClient(co.adminToken);
    const { wid } = await phone(co.companyId, w.id).send({
      from: '5511988880005',
      body: 'sent from the phone',
      fromMe: true,
    });
    const e = await rt.waitFor(
      (x) => x.event === `company-${co.companyId}-appMessage` && x.data.message?.wid === wid,
      8000,
    );
    expect(e.data.message.fromMe).toBe(true);
    await queuesIdle();
    expect(await phone(co.companyId, w.id).outbound()).toEqual([]);
    rt.close();
  });

  it('a reply from the API reaches the simulated phone and its ack moves 1 -> 2 -> 3 on the message', async () => {
    const co = await newCompany('reply');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const rt = await realtimeClient(co.adminToken);
    const p = phone(co.companyId, w.id);
    await p.send({ from: '5511988880006', body: 'hello?' });
    const res = await api('POST', '/messages/send', {
      headers: { authorization: `Bearer ${w.token}` },
      body: { number: '5511988880006', body: 'Hello from the company' },
    });
    expect(res.status).toBe(200);
    const out = await eventually(async () => (await p.outbound()).find((o) => o.body === 'Hello from the company'));
    expect(out.to).toBe('5511988880006@s.whatsapp.net');
    const sent = await rt.waitFor(
      (e) =>
        e.event === `company-${co.companyId}-appMessage` &&
        e.data.action === 'update' &&
        e.data.message?.wid === out.wid,
      8000,
    );
    expect(sent.data.message).toMatchObject({ ack: 1, fromMe: true, body: 'Hello from the company' });
    expect((await p.ack(out.wid)).ack).toBe(2);
    expect((await p.ack(out.wid)).ack).toBe(3);
    await rt.waitFor(
      (e) =>
        e.event === `company-${co.companyId}-appMessage` && e.data.message?.wid === out.wid && e.data.message.ack === 3,
      8000,
    );
    // the inbound message and the reply share one ticket
    const tickets = new Set(appMessages(rt, co.companyId).map((e) => e.data.ticket.id));
    expect(tickets.size).toBe(1);
    rt.close();
  });

  it('edits and deletions by the contact update the stored message; a quoted reply points at the quoted message', async () => {
    const co = await newCompany('edit');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const rt = await realtimeClient(co.adminToken);
    const p = phone(co.companyId, w.id);
    const first = await p.send({ from: '5511988880007', body: 'my order is 123' });
    await p.send({ from: '5511988880007', body: 'this one', quotedWid: first.wid });
    const quoted = await rt.waitFor(
      (e) => e.event === `company-${co.companyId}-appMessage` && e.data.message?.body === 'this one',
      8000,
    );
    expect(quoted.data.message.quotedMsg).toMatchObject({ body: 'my order is 123', fromMe: false });
    await sim('POST', `/sessions/${co.companyId}/${w.id}/edit`, {
      wid: first.wid,
      chatJid: first.chatJid,
      body: 'my order is 124',
    });
    const edited = await rt.waitFor(
      (e) =>
        e.event === `company-${co.companyId}-appMessage` &&
        e.data.action === 'update' &&
        e.data.message?.wid === first.wid &&
        e.data.message.isEdited,
      8000,
    );
    expect(edited.data.message.body).toBe('my order is 124');
    await sim('POST', `/sessions/${co.companyId}/${w.id}/revoke`, { wid: first.wid, chatJid: first.chatJid });
    await rt.waitFor(
      (e) =>
        e.event === `company-${co.companyId}-appMessage` &&
        e.data.message?.wid === first.wid &&
        e.data.message.isDeleted === true,
      8000,
    );
    rt.close();
  });

  it("a contact's edit or revoke changes only its own messages: never the company's, nor another contact's", async () => {
    const co = await newCompany('m4');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const p = phone(co.companyId, w.id);
    const edit = (body: Record<string, unknown>) => sim('POST', `/sessions/${co.companyId}/${w.id}/edit`, body);
    const revoke = (body: Record<string, unknown>) => sim('POST', `/sessions/${co.companyId}/${w.id}/revoke`, body);
    const stored = async (ticketId: number, wid: string) =>
      (await api('GET', `/messages/${ticketId}`, { token: co.adminToken })).body.messages.find(
        (m: any) => m.wid === wid,
      );

    const rt = await realtimeClient(co.adminToken);
    const fromA = await p.send({ from: '5511988880101', body: 'A: hello' });
    const fromB = await p.send({ from: '5511988880102', body: 'B: hello' });
    const ticketOf = async (wid: string) =>
      (await rt.waitFor((e) => e.event === `company-${co.companyId}-appMessage` && e.data.message?.wid === wid, 8000))
        .data.ticket.id as number;
    const ticketA = await ticketOf(fromA.wid);
    const ticketB = await ticketOf(fromB.wid);
    rt.close();
    expect(ticketA).not.toBe(ticketB);
    const reply = await api('POST', `/messages/${ticketA}`, {
      token: co.adminToken,
      body: { body: 'Company: your order' },
    });
    expect(reply.status).toBe(201);
    const ours = await eventually(async () => (await p.outbound()).find((o: any) => o.body === 'Company: your order'));
    await eventually(async () => (await stored(ticketA, ours.wid))?.ack >= 1);

    // contact B, in its own chat, names the company's message and A's message
    await edit({ wid: ours.wid, chatJid: fromB.chatJid, body: 'Company: pay to account 123-EVIL' });
    await edit({ wid: fromA.wid, chatJid: fromB.chatJid, body: 'A: forged' });
    await revoke({ wid: ours.wid, chatJid: fromB.chatJid });
    await revoke({ wid: fromA.wid, chatJid: fromB.chatJid });
    // contact A, in the chat the company's message lives in, is still not its sender
    await edit({ wid: ours.wid, chatJid: fromA.chatJid, body: 'Company: pay to account 123-EVIL' });
    await revoke({ wid: ours.wid, chatJid: fromA.chatJid });
    // the contact's own edit still applies
    await edit({ wid: fromB.wid, chatJid: fromB.chatJid, body: 'B: hello again' });
    await queuesIdle();

    expect(await stored(ticketA, ours.wid)).toMatchObject({
      body: 'Company: your order',
      fromMe: true,
      isEdited: false,
      isDeleted: false,
    });
    expect(await stored(ticketA, fromA.wid)).toMatchObject({ body: 'A: hello', isEdited: false, isDeleted: false });
    expect(await stored(ticketB, fromB.wid)).toMatchObject({ body: 'B: hello again', isEdited: true });

    // an edit made on the company's own phone (fromMe) applies to the company's message
    await edit({ wid: ours.wid, chatJid: fromA.chatJid, body: 'Company: your order #2', fromMe: true });
    await eventually(async () => (await stored(ticketA, ours.wid))?.body === 'Company: your order #2');
    // ... but not to a contact's message
    await revoke({ wid: fromA.wid, chatJid: fromA.chatJid, fromMe: true });
    await queuesIdle();
    expect(await stored(ticketA, fromA.wid)).toMatchObject({ isDeleted: false });
  });

  it("in a group, a participant's revoke deletes only that participant's messages", async () => {
    const co = await newCompany('m4g');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    expect(
      (await api('PUT', '/settings/CheckMsgIsGroup', { token: co.adminToken, body: { value: 'disabled' } })).status,
    ).toBe(200);
    const rt = await realtimeClient(co.adminToken);
    const p = phone(co.companyId, w.id);
    const group = { jid: '120363000000000077@g.us', name: 'Clients group' };
    const rui = await p.send({ from: '5511988880201', pushName: 'Rui', body: 'Rui here', group });
    const ana = await p.send({ from: '5511988880202', pushName: 'Ana', body: 'Ana here', group });
    const e = await rt.waitFor(
      (x) => x.event === `company-${co.companyId}-appMessage` && x.data.message?.wid === ana.wid,
      8000,
    );
    const ticketId = e.data.ticket.id as number;
    const revoke = (body: Record<string, unknown>) => sim('POST', `/sessions/${co.companyId}/${w.id}/revoke`, body);
    await revoke({ wid: rui.wid, chatJid: group.jid, participantJid: '5511988880202@s.whatsapp.net' });
    await revoke({ wid: ana.wid, chatJid: group.jid, participantJid: '5511988880202@s.whatsapp.net' });
    await queuesIdle();
    const messages = (await api('GET', `/messages/${ticketId}`, { token: co.adminToken })).body.messages;
    expect(messages.find((m: any) => m.wid === rui.wid)).toMatchObject({ isDeleted: false });
    expect(messages.find((m: any) => m.wid === ana.wid)).toMatchObject({ isDeleted: true });
    rt.close();
  });

  it('group messages are ignored with CheckMsgIsGroup enabled (default) and land in a group ticket when disabled', async () => {
    const co = await newCompany('group');
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { greetingMessage: 'Hello!' });
    const rt = await realtimeClient(co.adminToken);
    const p = phone(co.companyId, w.id);
    const group = { jid: '120363000000000001@g.us', name: 'Clients group' };
    await p.send({ from: '5511988880008', pushName: 'Rui', body: 'ignored', group });
    await queuesIdle();
    expect(appMessages(rt, co.companyId)).toEqual([]);
    expect(
      (await api('PUT', '/settings/CheckMsgIsGroup', { token: co.adminToken, body: { value: 'disabled' } })).status,
    ).toBe(200);
    await p.send({ from: '5511988880008', pushName: 'Rui', body: 'hello group', group });
    const e = await rt.waitFor((x) => x.event === `company-${co.companyId}-appMessage`, 8000);
    expect(e.data.ticket).toMatchObject({ isGroup: true });
    expect(e.data.message.contact.name).toBe('Rui');
    await queuesIdle();
    // the bot never speaks in groups
    expect(await p.outbound()).toEqual([]);
    rt.close();
  });
});
