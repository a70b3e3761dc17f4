import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
// the failover check is also called in this process, as its Lambda does
import '../../functions/lib/startup';
import { api, baseUrl, newCompany, queuesIdle, table, type TestCompany } from './helpers';
import { acceptedConversation, connectedWhatsapp, eventually, phone } from './whatsapp-sim';
import { digits, meta, messagesOf, sendsTo, type CloudLine } from './cloud-fixtures';
import { failOver, type SendCommand } from '../../functions/lib/messages/failover';
import { enqueue } from '../../functions/lib/queue';
import { COMMAND_QUEUE, commandGroupId } from '../../shared/whatsapp-protocol';
import { wamidOf } from '../../shared/wamid';

/**
 * One number, two transports (issue 36, item 6) over HTTP against the local stack: a WhatsApp Web
 * connection (the simulated phone) takes the Cloud API credentials of its own number (Meta's fake),
 * only after the Graph API confirmed the same number; each message goes through one transport,
 * shown on it; a customer's message told by both sides is one message; a reply WhatsApp Web did
 * not take moves to the Cloud API, and none is lost or sent twice across the switch.
 */

/** A paired WhatsApp Web connection, and its number scripted on Meta's side (or another number). */
async function webLineWithCloudNumber(co: TestCompany, opts: { displayPhoneNumber?: string } = {}) {
  const w = await connectedWhatsapp(co.adminToken, co.companyId);
  const number = (await api('GET', `/whatsapp/${w.id}`, { token: co.adminToken })).body.number as string;
  const line = {
    id: w.id,
    phoneNumberId: `1${digits(14)}`,
    accessToken: `EAAG${randomBytes(24).toString('hex')}`,
    appSecret: randomBytes(16).toString('hex'),
    wabaId: `2${digits(14)}`,
    verifyToken: '',
    created: {},
  };
  await meta('/_script', { ...line, displayPhoneNumber: opts.displayPhoneNumber ?? `+${number}` });
  return { w, number, line: line as CloudLine & { wabaId: string } };
}

const attach = (co: TestCompany, line: CloudLine & { wabaId: string }, extra: Record<string, unknown> = {}) =>
  api('POST', `/whatsapp/${line.id}/cloud-transport`, {
    token: co.adminToken,
    body: {
      phoneNumberId: line.phoneNumberId,
      wabaId: line.wabaId,
      accessToken: line.accessToken,
      appSecret: line.appSecret,
      ...extra,
    },
  });

/** A connection with both transports and an open ticket of a customer who wrote just now (through WhatsApp Web). */
async function dualConversation(label: string, preferredTransport?: 'web' | 'cloud') {
  const co = await newCompany(label);
  const { w, number, line } = await webLineWithCloudNumber(co);
  const attached = await attach(co, line, preferredTransport ? { preferredTransport } : {});
  expect(attached.status, JSON.stringify(attached.body)).toBe(201);
  const customer = `55119${digits(8)}`;
  const { first, ticket } = await acceptedConversation(co, w.id, customer);
  return { co, w, number, line, customer, p: phone(co.companyId, w.id), ticket, first };
}

const reply = async (co: TestCompany, ticketId: number, body: string) => {
  const res = await api('POST', `/messages/${ticketId}`, { token: co.adminToken, body: { body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; wid: string; transport?: string };
};

/** The send command of one of our messages in the conversation, as the API queued it for WhatsApp Web. */
const webSendOf = (
  c: Awaited<ReturnType<typeof dualConversation>>,
  m: { id: string; wid: string },
  body: string,
  commandId: string,
): SendCommand => ({
  type: 'send',
  commandId,
  companyId: c.co.companyId,
  whatsappId: c.w.id,
  messageId: m.id,
  wid: m.wid,
  ticketId: c.ticket.id,
  to: `${c.customer}@s.whatsapp.net`,
  body,
  fallback: true,
});

const releaseFailoverChecks = async () => {
  const res = await fetch(`${baseUrl()}/@queues/release-delayed?queue=transport-failover`, { method: 'POST' });
  expect(res.status).toBe(200);
  await queuesIdle();
};

/** How many times each text reached the customer, through either transport. */
async function deliveries(c: Awaited<ReturnType<typeof dualConversation>>, texts: string[]) {
  const web = (await c.p.outbound()).filter((m: { to: string }) => m.to.startsWith(c.customer));
  const cloud = await sendsTo(c.line);
  return texts.map((text) => ({
    text,
    web: web.filter((m: { body: string }) => m.body === text).length,
    cloud: cloud.filter((r: any) => r.body?.text?.body === text).length,
  }));
}

describe('attaching the Cloud API to a WhatsApp Web connection', () => {
  it('only the same number is attached: another number, an unpaired session, a Cloud API connection and another company are refused, and nothing is stored', {
    timeout: 120_000,
  }, async () => {
    const co = await newCompany('dual-attach');
    const other = await webLineWithCloudNumber(co, { displayPhoneNumber: '+55 21 3333-4444' });
    const mismatch = await attach(co, other.line);
    expect(mismatch.status).toBe(409);
    expect(mismatch.body).toMatchObject({ error: 'ERR_TRANSPORT_NUMBER_MISMATCH', details: { cloud: '…4444' } });
    expect((await api('GET', `/whatsapp/${other.w.id}`, { token: co.adminToken })).body.cloudTransport).toBeUndefined();
    // nothing routes the refused number's webhooks to the connection
    const webhook = await meta('/_inbound', {
      phoneNumberId: other.line.phoneNumberId,
      from: '5511987650000',
      text: 'x',
    });
    expect(webhook.delivered.status).toBe(401);

    const unpaired = await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Sem QR' } });
    const refused = await attach(co, { ...other.line, id: unpaired.body.id });
    expect(refused.body.error).toBe('ERR_TRANSPORT_NUMBER_UNKNOWN');

    const { w, number, line } = await webLineWithCloudNumber(co);
    const stranger = await newCompany('dual-attach-other');
    const foreign = await api('POST', `/whatsapp/${w.id}/cloud-transport`, {
      token: stranger.adminToken,
      body: {
        phoneNumberId: line.phoneNumberId,
        wabaId: line.wabaId,
        accessToken: line.accessToken,
        appSecret: line.appSecret,
      },
    });
    expect(foreign.status).toBe(404);

    const attached = await attach(co, line);
    expect(attached.status, JSON.stringify(attached.body)).toBe(201);
    expect(attached.body).toMatchObject({
      provider: expect.not.stringMatching(/^cloud$/),
      status: 'CONNECTED',
      number,
      cloudTransport: { status: 'CONNECTED' },
      preferredTransport: 'web',
      phoneNumberId: line.phoneNumberId,
      accessToken: `********${line.accessToken.slice(-4)}`,
    });
    const item = await table().get(`C#${co.companyId}`, `WHATSAPP#${String(w.id).padStart(10, '0')}`);
    expect(JSON.stringify(item)).not.toContain(line.accessToken);
    expect((await attach(co, line)).body.error).toBe('ERR_TRANSPORT_ATTACHED');

    const cloudOnly = await api('POST', `/whatsapp/${w.id}/cloud-transport`, { token: co.adminToken, body: {} });
    expect(cloudOnly.status).toBe(400);

    // detached: the webhooks of the number reach nobody again, and it may be attached again
    const detached = await api('DELETE', `/whatsapp/${w.id}/cloud-transport`, { token: co.adminToken });
    expect(detached.status).toBe(200);
    expect(detached.body.cloudTransport).toBeUndefined();
    expect(detached.body.phoneNumberId).toBeUndefined();
    expect(
      (await meta('/_inbound', { phoneNumberId: line.phoneNumberId, from: '5511987650001', text: 'y' })).delivered
        .status,
    ).toBe(401);
    expect((await attach(co, line)).status).toBe(201);
    // deleting the connection frees its number's guards too (it may be attached elsewhere)
    expect((await api('DELETE', `/whatsapp/${w.id}`, { token: co.adminToken })).status).toBe(200);
    expect(await table().get(`WCLOUD#${line.phoneNumberId}`, 'WCLOUD')).toBeUndefined();
  });
});

describe('one conversation over two transports', () => {
  it("a customer's message told by both sides is stored once, in the one ticket, and an echo of our own reply is no new message", {
    timeout: 120_000,
  }, async () => {
    const c = await dualConversation('dual-one');
    // the same message through the Cloud API webhook: Meta's wamid carries the device id WhatsApp Web saw
    const again = await meta('/_inbound', {
      phoneNumberId: c.line.phoneNumberId,
      from: c.customer,
      text: 'oi, tudo bem?',
      deviceId: c.first.wid,
    });
    expect(again.delivered.status).toBe(200);
    // a new message only through the Cloud API lands in the same ticket
    await meta('/_inbound', { phoneNumberId: c.line.phoneNumberId, from: c.customer, text: 'só pela API' });
    const sent = await reply(c.co, c.ticket.id, 'resposta pelo web');
    await eventually(async () => (await c.p.outbound()).some((m: { body: string }) => m.body === 'resposta pelo web'));
    // Meta echoes what the linked device sent (Coexistence), in its wamid shape
    await meta('/_inbound', {
      phoneNumberId: c.line.phoneNumberId,
      from: c.customer,
      text: 'resposta pelo web',
      echo: true,
      wamid: wamidOf({ chat: c.customer, fromMe: true, id: sent.wid }),
    });
    await queuesIdle();
    const messages = await messagesOf(c.co, c.ticket.id);
    expect(messages.map((m) => m.body).sort()).toEqual(['oi, tudo bem?', 'resposta pelo web', 'só pela API'].sort());
    expect(messages.find((m) => m.body === 'só pela API')).toMatchObject({ transport: 'cloud', fromMe: false });
    const tickets = (await api('GET', '/tickets?showAll=true&status=open', { token: c.co.adminToken })).body.tickets;
    expect(tickets.map((t: { id: number }) => t.id)).toEqual([c.ticket.id]);
  });

  it('in-window replies go through the preferred transport, shown on the message; with the preferred one down, through the other', {
    timeout: 120_000,
  }, async () => {
    const c = await dualConversation('dual-route', 'cloud');
    const viaCloud = await reply(c.co, c.ticket.id, 'pela API oficial');
    expect(viaCloud.transport).toBe('cloud');
    await eventually(async () => (await messagesOf(c.co, c.ticket.id)).find((m) => m.id === viaCloud.id && m.ack >= 1));

    const prefer = await api('PUT', `/whatsapp/${c.w.id}/cloud-transport`, {
      token: c.co.adminToken,
      body: { preferredTransport: 'web' },
    });
    expect(prefer.body.preferredTransport).toBe('web');
    const viaWeb = await reply(c.co, c.ticket.id, 'pelo WhatsApp Web');
    expect(viaWeb.transport).toBe('web');
    await eventually(async () => (await messagesOf(c.co, c.ticket.id)).find((m) => m.id === viaWeb.id && m.ack >= 1));

    // Meta says the token expired: the Cloud API transport is down, the session's status is untouched
    await meta('/_script', { phoneNumberId: c.line.phoneNumberId, tokenExpired: true });
    await api('PUT', `/whatsapp/${c.w.id}/cloud-transport`, {
      token: c.co.adminToken,
      body: { accessToken: `EAAG${randomBytes(24).toString('hex')}`, preferredTransport: 'cloud' },
    });
    const down = (await api('GET', `/whatsapp/${c.w.id}`, { token: c.co.adminToken })).body;
    expect(down).toMatchObject({
      status: 'CONNECTED',
      cloudTransport: { status: 'DISCONNECTED', statusReason: 'tokenExpired' },
    });
    const fallback = await reply(c.co, c.ticket.id, 'API fora: pelo web');
    expect(fallback.transport).toBe('web');
    await queuesIdle();
    expect(await deliveries(c, ['pela API oficial', 'pelo WhatsApp Web', 'API fora: pelo web'])).toEqual([
      { text: 'pela API oficial', web: 0, cloud: 1 },
      { text: 'pelo WhatsApp Web', web: 1, cloud: 0 },
      { text: 'API fora: pelo web', web: 1, cloud: 0 },
    ]);
  });

  it('a reply Meta refuses on the preferred Cloud API goes through WhatsApp Web instead, once', {
    timeout: 120_000,
  }, async () => {
    const c = await dualConversation('dual-refused', 'cloud');
    await meta('/_script', {
      phoneNumberId: c.line.phoneNumberId,
      sendErrors: [{ code: 131026, title: 'Message undeliverable', httpStatus: 400 }],
    });
    const m = await reply(c.co, c.ticket.id, 'a Meta recusou: vai pelo web');
    expect(m.transport).toBe('cloud');
    const sent = await eventually(async () => {
      const found = (await messagesOf(c.co, c.ticket.id)).find((x) => x.id === m.id);
      return found?.ack >= 1 ? found : undefined;
    });
    expect(sent).toMatchObject({ transport: 'web', failedOver: true, error: null });
    await queuesIdle();
    const onPhone = (await c.p.outbound()).filter((o: { body: string }) => o.body === 'a Meta recusou: vai pelo web');
    expect(onPhone).toHaveLength(1);
    // the one attempt Meta refused, never tried there again
    expect(
      (await sendsTo(c.line)).filter((r: any) => r.body?.text?.body === 'a Meta recusou: vai pelo web'),
    ).toHaveLength(1);
  });

  it('WhatsApp Web dies mid-conversation: replies it did not take go through the Cloud API, and after it heals nothing is lost or sent twice', {
    timeout: 120_000,
  }, async () => {
    const c = await dualConversation('dual-failover');
    const before = ['antes 1', 'antes 2', 'antes 3'];
    for (const text of before) await reply(c.co, c.ticket.id, text);
    await eventually(
      async () => (await messagesOf(c.co, c.ticket.id)).filter((m) => m.fromMe && m.ack >= 1).length === 3,
    );

    // the WhatsApp Web side dies; the table still says CONNECTED, as a killed runner leaves it
    await c.p.drop(401);
    const key = { pk: `C#${c.co.companyId}`, sk: `WHATSAPP#${String(c.w.id).padStart(10, '0')}` };
    await eventually(async () => (await table().get(key.pk, key.sk))?.status === 'DISCONNECTED');
    await table().set(key.pk, key.sk, { status: 'CONNECTED' });
    const during = ['durante 1', 'durante 2', 'durante 3', 'durante 4', 'durante 5'];
    const stuck = [];
    for (const text of during) stuck.push(await reply(c.co, c.ticket.id, text));
    expect(stuck.every((m) => m.transport === 'web')).toBe(true);
    await queuesIdle();
    // FAILOVER_AFTER_SECONDS later (the queue's delay, moved on here): through the Cloud API
    await releaseFailoverChecks();
    const moved = await eventually(async () => {
      const all = await messagesOf(c.co, c.ticket.id);
      const these = all.filter((m) => during.includes(m.body));
      return these.every((m) => m.ack >= 1) ? these : undefined;
    });
    expect(moved.every((m) => m.transport === 'cloud' && m.failedOver === true && !m.error)).toBe(true);

    // the runner's commands for them come back after the heal (a redelivery): the claim keeps them from going twice
    await api('PUT', `/whatsappsession/${c.w.id}`, { token: c.co.adminToken });
    await eventually(
      async () => (await api('GET', `/whatsapp/${c.w.id}`, { token: c.co.adminToken })).body.status === 'qrcode',
    );
    await c.p.scan(c.number);
    await eventually(
      async () => (await api('GET', `/whatsapp/${c.w.id}`, { token: c.co.adminToken })).body.status === 'CONNECTED',
    );
    for (const m of stuck) {
      const body = (moved.find((x) => x.id === m.id) as { body: string }).body;
      const command = webSendOf(c, m, body, `redelivered-${m.id}`);
      await enqueue(COMMAND_QUEUE, command, {
        groupId: commandGroupId(c.co.companyId, c.w.id),
        dedupId: command.commandId,
      });
    }
    const after = ['depois 1', 'depois 2'];
    for (const text of after) await reply(c.co, c.ticket.id, text);
    await eventually(
      async () =>
        (await messagesOf(c.co, c.ticket.id)).filter((m) => after.includes(m.body) && m.ack >= 1).length === 2,
    );
    // the checks of the replies WhatsApp Web sent come due too: nothing more goes
    await releaseFailoverChecks();

    const counted = await deliveries(c, [...before, ...during, ...after]);
    const lost = counted.filter((d) => d.web + d.cloud === 0).map((d) => d.text);
    const doubled = counted.filter((d) => d.web + d.cloud > 1).map((d) => d.text);
    expect({ lost, doubled }).toEqual({ lost: [], doubled: [] });
    expect(counted.filter((d) => d.cloud === 1).map((d) => d.text)).toEqual(during);
    const tickets = (await api('GET', '/tickets?showAll=true&status=open', { token: c.co.adminToken })).body.tickets;
    expect(tickets.map((t: { id: number }) => t.id)).toEqual([c.ticket.id]);
  });

  it("a send a runner claimed first stays the runner's: the failover check leaves it, whatever its outcome", {
    timeout: 120_000,
  }, async () => {
    const c = await dualConversation('dual-claimed');
    await c.p.drop(401);
    const key = { pk: `C#${c.co.companyId}`, sk: `WHATSAPP#${String(c.w.id).padStart(10, '0')}` };
    await eventually(async () => (await table().get(key.pk, key.sk))?.status === 'DISCONNECTED');
    await table().set(key.pk, key.sk, { status: 'CONNECTED' });
    const m = await reply(c.co, c.ticket.id, 'o runner pegou e morreu');
    await queuesIdle();
    // a runner claimed it and died before telling how the send ended
    await table().set(`C#${c.co.companyId}#WSENT`, m.wid, { sendingAt: Date.now() });
    const command = webSendOf(c, m, 'o runner pegou e morreu', 'x');
    expect(await failOver(command)).toBe('claimedByRunner');
    await releaseFailoverChecks();
    expect(await deliveries(c, ['o runner pegou e morreu'])).toEqual([
      { text: 'o runner pegou e morreu', web: 0, cloud: 0 },
    ]);
    expect((await messagesOf(c.co, c.ticket.id)).find((x) => x.id === m.id)).toMatchObject({
      transport: 'web',
      ack: 0,
    });
  });
});
