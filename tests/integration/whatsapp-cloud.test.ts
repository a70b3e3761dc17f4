import { describe, it, expect } from 'vitest';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  ADMIN,
  api,
  baseUrl,
  login,
  newCompany,
  queuesIdle,
  holdTimer,
  runTimer,
  table,
  type TestCompany,
  usesTimers,
} from './helpers';
import { eventually, rawTable } from './whatsapp-sim';
import { createContact, createTicket, createUser } from './fixtures';
import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import { CLOUD_COMMAND_QUEUE } from '../../shared/whatsapp-protocol';
import {
  cloudLine,
  conversation,
  customer,
  inbound,
  messagesOf,
  meta,
  sendText,
  sendsTo,
  storedMessage,
  ticketsOf,
  type CloudLine,
} from './cloud-fixtures';

// company-cleanup (shared with platform-admin.test.ts) is held only by the test that deletes a company
usesTimers('cloud-status');

/**
 * WhatsApp Business Cloud API connections (issue 36) over HTTP against the local stack, with Meta's
 * Graph API played by infra/local/meta-fake.ts: its hooks build Meta's webhooks, sign them with the
 * number's app secret and post them to `/api/webhooks/whatsapp-cloud`.
 */

/** The stored message of a WhatsApp id, found the way acks find it (the wid guard), or undefined. */
const widGuard = (co: TestCompany, wid: string) => table().get(`C#${co.companyId}#WID#${wid}`, 'WID');

describe('Cloud API connections', () => {
  it('a cloud connection is CONNECTED when the Graph API reports its number usable, with no QR code and no runner', async () => {
    const co = await newCompany('cloud');
    const line = await cloudLine(co);
    expect(line.created).toMatchObject({ provider: 'cloud', status: 'CONNECTED', number: '551140001234', qrcode: '' });
    expect(line.created.statusReason).toBeUndefined();
    const requests = await meta<any[]>('/_requests');
    expect(requests.some((r) => r.method === 'GET' && r.path.endsWith(`/${line.phoneNumberId}`))).toBe(true);
  });

  it('its access token and app secret are sealed and never appear unmasked in any answer', async () => {
    const co = await newCompany('cloudmask');
    const line = await cloudLine(co);
    const answers = [
      line.created,
      (await api('GET', `/whatsapp/${line.id}`, { token: co.adminToken })).body,
      (await api('GET', '/whatsapp', { token: co.adminToken })).body,
      (await api('GET', '/whatsapp?session=0', { token: co.adminToken })).body,
      (await api('PUT', `/whatsapp/${line.id}`, { token: co.adminToken, body: { name: 'Cloud renamed' } })).body,
    ];
    for (const answer of answers) {
      const text = JSON.stringify(answer);
      expect(text).not.toContain(line.accessToken);
      expect(text).not.toContain(line.appSecret);
    }
    const one = answers[1];
    expect(one.accessToken).toBe(`********${line.accessToken.slice(-4)}`);
    expect(one.appSecret).toBe(`********${line.appSecret.slice(-4)}`);
    const item = await table().get(`C#${co.companyId}`, `WHATSAPP#${String(line.id).padStart(10, '0')}`);
    expect(JSON.stringify(item)).not.toContain(line.accessToken);
    expect(JSON.stringify(item)).not.toContain(line.appSecret);
    expect(item?.accessTokenSealed).toMatch(/^v1\./);
    // an attendant sees the connection, never its credentials or verify token
    const agent = await createUser(co);
    const seen = (await api('GET', `/whatsapp/${line.id}`, { token: agent.token })).body;
    expect(seen).toMatchObject({ id: line.id, status: 'CONNECTED' });
    expect(seen.verifyToken).toBeUndefined();
    expect(seen.accessToken).toBeUndefined();
    expect(seen.appSecret).toBeUndefined();
    expect(one.verifyToken).toBe(line.verifyToken);
    // the mask sent back keeps the stored secrets: the connection still works
    const kept = await api('PUT', `/whatsapp/${line.id}`, {
      token: co.adminToken,
      body: { accessToken: one.accessToken, appSecret: one.appSecret },
    });
    expect(kept.body.status).toBe('CONNECTED');
  });

  it('a change of its credentials is on the audit trail by name, never by value', async () => {
    const co = await newCompany('cloudaudit');
    const line = await cloudLine(co);
    const trail = async () =>
      (await api('GET', '/audit?action=connection.credentials_changed', { token: co.adminToken })).body
        .entries as any[];
    // a rename, or the masks sent back as the form shows them, changes no credential
    const shown = (await api('GET', `/whatsapp/${line.id}`, { token: co.adminToken })).body;
    await api('PUT', `/whatsapp/${line.id}`, {
      token: co.adminToken,
      body: { name: 'Cloud renamed', accessToken: shown.accessToken, appSecret: shown.appSecret },
    });
    expect(await trail()).toEqual([]);
    const accessToken = `EAAG${randomBytes(24).toString('hex')}`;
    const appSecret = randomBytes(16).toString('hex');
    await meta('/_script', { phoneNumberId: line.phoneNumberId, accessToken, appSecret });
    const res = await api('PUT', `/whatsapp/${line.id}`, { token: co.adminToken, body: { accessToken, appSecret } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const entries = await trail();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorId: co.admin.id,
      target: { type: 'connection', id: line.id, name: 'Cloud renamed' },
      changes: { changedFields: ['accessToken', 'appSecret'] },
    });
    const stored = JSON.stringify(await table().query(`C#${co.companyId}#AUDIT`));
    for (const secret of [accessToken, appSecret, line.accessToken, line.appSecret]) {
      expect(JSON.stringify(entries)).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
  });

  it('a token Meta no longer accepts, a number not registered or a restricted account leave it DISCONNECTED with the reason', async () => {
    const co = await newCompany('cloudreason');
    const expired = await cloudLine(co, { tokenExpired: true });
    expect(expired.created).toMatchObject({ status: 'DISCONNECTED', statusReason: 'tokenExpired' });
    const pending = await cloudLine(co, { status: 'PENDING' });
    expect(pending.created).toMatchObject({ status: 'DISCONNECTED', statusReason: 'numberNotRegistered' });
    const restricted = await cloudLine(co, { status: 'RESTRICTED' });
    expect(restricted.created).toMatchObject({ status: 'DISCONNECTED', statusReason: 'accountRestricted' });
    // a new token (Meta's side renewed too) connects it on the edit, and the reason goes
    const token = `EAAG${randomBytes(24).toString('hex')}`;
    await meta('/_script', { phoneNumberId: expired.phoneNumberId, accessToken: token, tokenExpired: false });
    const fixed = await api('PUT', `/whatsapp/${expired.id}`, { token: co.adminToken, body: { accessToken: token } });
    expect(fixed.body.status).toBe('CONNECTED');
    expect(fixed.body.statusReason).toBeUndefined();
  });

  it('a phone-number id is one connection across the platform: a second claim is ERR_CLOUD_NUMBER_IN_USE', async () => {
    const a = await newCompany('cloudown');
    const b = await newCompany('cloudthief');
    const line = await cloudLine(a);
    const claim = await api('POST', '/whatsapp', {
      token: b.adminToken,
      body: {
        name: 'Mine now',
        provider: 'cloud',
        phoneNumberId: line.phoneNumberId,
        wabaId: '200000000000001',
        accessToken: 'EAAGsomeoneelse1234',
        appSecret: 'anothersecret1234',
      },
    });
    expect(claim.status).toBe(409);
    expect(claim.body.error).toBe('ERR_CLOUD_NUMBER_IN_USE');
    expect((await api('GET', '/whatsapp', { token: b.adminToken })).body).toEqual([]);
    // once its connection is deleted the number may be added again (another line takes the default first)
    const second = await cloudLine(a);
    await api('PUT', `/whatsapp/${second.id}`, { token: a.adminToken, body: { isDefault: true } });
    expect((await api('DELETE', `/whatsapp/${line.id}`, { token: a.adminToken })).status).toBe(200);
    const again = await api('POST', '/whatsapp', {
      token: b.adminToken,
      body: {
        name: 'Now mine',
        provider: 'cloud',
        phoneNumberId: line.phoneNumberId,
        wabaId: '200000000000001',
        accessToken: line.accessToken,
        appSecret: line.appSecret,
      },
    });
    expect(again.status).toBe(201);
    expect(second.id).toBeGreaterThan(0);
  });

  it('a cloud connection needs its four credentials', async () => {
    const co = await newCompany('cloudreq');
    const res = await api('POST', '/whatsapp', {
      token: co.adminToken,
      body: { name: 'Half', provider: 'cloud', phoneNumberId: '123456789012345' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
  });

  it('another company cannot read, edit or delete the cloud connection', async () => {
    const a = await newCompany('cloudiso');
    const b = await newCompany('cloudspy');
    const line = await cloudLine(a);
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { name: 'Hijacked', accessToken: 'EAAGattacker1234567' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await api(method, `/whatsapp/${line.id}`, { token: b.adminToken, body });
      expect(res.status, method).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain(line.phoneNumberId);
    }
    for (const path of ['/whatsappsession/', '/whatsappsession/']) {
      const res = await api('POST', `${path}${line.id}`, { token: b.adminToken });
      expect(res.status).toBe(404);
    }
    const own = await api('GET', `/whatsapp/${line.id}`, { token: a.adminToken });
    expect(own.body).toMatchObject({
      name: 'Cloud line',
      status: 'CONNECTED',
      accessToken: `********${line.accessToken.slice(-4)}`,
    });
  });

  it('what a cloud number cannot do is refused with ERR_NOT_SUPPORTED_BY_CLOUD', async () => {
    const co = await newCompany('cloudrefuse');
    const line = await cloudLine(co);
    const calls: [string, string, unknown?][] = [
      ['POST', `/whatsappsession/${line.id}`],
      ['PUT', `/whatsappsession/${line.id}`],
      ['DELETE', `/whatsappsession/${line.id}`],
      ['POST', '/contacts/import', { whatsappId: line.id }],
    ];
    for (const [method, path, body] of calls) {
      const res = await api(method, path, { token: co.adminToken, body });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error, `${method} ${path}`).toBe('ERR_NOT_SUPPORTED_BY_CLOUD');
    }
    const after = await api('GET', `/whatsapp/${line.id}`, { token: co.adminToken });
    expect(after.body.status).toBe('CONNECTED');
  });
});

describe('the status re-check (timer cloud-status)', () => {
  /** The connection's one wake-up, in its shard (`CLOUDCHECK#<(cid + id) % 2>`). */
  const wakeUps = async (co: TestCompany, line: CloudLine) =>
    (await rawTable().query(`CLOUDCHECK#${(co.companyId + line.id) % 2}`)).filter(
      (i) => i.companyId === co.companyId && i.whatsappId === line.id,
    );

  it('a token that expires later shows on the connection at the next check, and the check is armed again', async () => {
    const co = await newCompany('cloudrecheck');
    const line = await cloudLine(co);
    const [armed] = await wakeUps(co, line);
    expect(Date.parse(armed!.dueAt) - Date.now()).toBeGreaterThan(50 * 60_000);
    await meta('/_script', { phoneNumberId: line.phoneNumberId, tokenExpired: true });
    // due now instead of in an hour
    const dueAt = '2000-01-01T00:00:00.000Z';
    await rawTable().del(armed!.pk, armed!.sk);
    await rawTable().put({ ...armed, dueAt, sk: `${dueAt}#${co.companyId}#${line.id}` });
    await runTimer('cloud-status');
    const after = (await api('GET', `/whatsapp/${line.id}`, { token: co.adminToken })).body;
    expect(after).toMatchObject({ status: 'DISCONNECTED', statusReason: 'tokenExpired' });
    const next = await wakeUps(co, line);
    expect(next).toHaveLength(1);
    expect(Date.parse(next[0]!.dueAt)).toBeGreaterThan(Date.now());
  });

  it("a deleted connection's wake-up is dropped when it comes due", async () => {
    const co = await newCompany('cloudrecheck2');
    const first = await cloudLine(co);
    const line = await cloudLine(co);
    const [armed] = await wakeUps(co, line);
    expect((await api('DELETE', `/whatsapp/${line.id}`, { token: co.adminToken })).status).toBe(200);
    const dueAt = '2000-01-01T00:00:00.000Z';
    await rawTable().del(armed!.pk, armed!.sk);
    await rawTable().put({ ...armed, dueAt, sk: `${dueAt}#${co.companyId}#${line.id}` });
    await runTimer('cloud-status');
    expect(await wakeUps(co, line)).toEqual([]);
    expect(await wakeUps(co, first)).toHaveLength(1);
  });
});

describe('Meta webhook verification (GET /webhooks/whatsapp-cloud)', () => {
  it("echoes hub.challenge as text for a cloud connection's verify token, and 403 otherwise", async () => {
    const co = await newCompany('cloudverify');
    const line = await cloudLine(co);
    const challenge = `${Math.floor(Math.random() * 1e9)}`;
    const query = (mode: string, token: string) =>
      `${baseUrl()}/api/webhooks/whatsapp-cloud?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=${challenge}`;
    const ok = await fetch(query('subscribe', line.verifyToken));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await ok.text()).toBe(challenge);
    for (const url of [
      query('subscribe', `${line.verifyToken}x`),
      query('subscribe', ''),
      query('unsubscribe', line.verifyToken),
      `${baseUrl()}/api/webhooks/whatsapp-cloud`,
    ]) {
      const refused = await fetch(url);
      expect(refused.status, url).toBe(403);
      expect(await refused.text()).not.toContain(challenge);
    }
  });

  it('a verify token chosen by the admin works, and a deleted connection no longer verifies', async () => {
    const co = await newCompany('cloudverify2');
    const verifyToken = `my-verify-${randomUUID()}`;
    const line = await cloudLine(co, {}, { verifyToken });
    const url = `${baseUrl()}/api/webhooks/whatsapp-cloud?hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=42`;
    expect((await fetch(url)).status).toBe(200);
    // the first connection is the default: another takes the flag before it goes
    const other = await cloudLine(co);
    await api('PUT', `/whatsapp/${other.id}`, { token: co.adminToken, body: { isDefault: true } });
    expect((await api('DELETE', `/whatsapp/${line.id}`, { token: co.adminToken })).status).toBe(200);
    expect((await fetch(url)).status).toBe(403);
  });
});

describe('Meta webhook notifications (POST /webhooks/whatsapp-cloud)', () => {
  it('a signed text opens a ticket for the customer with their profile name as push name', async () => {
    const co = await newCompany('cloudin');
    const line = await cloudLine(co);
    const from = customer();
    const sent = await inbound(line, { from, name: 'Joana Cloud', text: 'Bom dia, tudo bem?' });
    expect(sent.delivered.status).toBe(200);
    const [ticket] = await eventually(async () => {
      const list = await ticketsOf(co);
      return list.length ? list : undefined;
    });
    expect(ticket).toMatchObject({ whatsappId: line.id, status: 'pending', unreadMessages: 1 });
    expect(ticket.contact).toMatchObject({ name: 'Joana Cloud', number: from });
    const messages = await messagesOf(co, ticket.id);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      wid: sent.wamid,
      body: 'Bom dia, tudo bem?',
      fromMe: false,
      mediaType: 'chat',
    });
  });

  it('a wrong or missing signature is 401 and stores nothing', async () => {
    const co = await newCompany('cloudsig');
    const line = await cloudLine(co);
    for (const signature of ['wrong', 'none']) {
      const sent = await inbound(line, { from: customer(), name: 'Mallory', text: 'forged', signature });
      expect(sent.delivered.status, signature).toBe(401);
      expect(sent.delivered.body.error).toBe('ERR_INVALID_WEBHOOK_SIGNATURE');
      await queuesIdle();
      expect(await widGuard(co, sent.wamid)).toBeUndefined();
    }
    // signed with another connection's app secret: not this number's app
    const other = await cloudLine(await newCompany('cloudsig2'));
    const raw = JSON.stringify((await inbound(line, { from: customer(), text: 'x', signature: 'none' })).payload);
    const crossed = await meta('/_deliver', { phoneNumberId: other.phoneNumberId, raw });
    expect(crossed.delivered.status).toBe(401);
    await queuesIdle();
    expect(await ticketsOf(co)).toEqual([]);
  });

  it('emoji and accents are verified over the raw bytes, as Meta escapes them or as plain UTF-8, or base64-encoded', async () => {
    const co = await newCompany('cloudutf');
    const line = await cloudLine(co);
    const text = 'Olá, ação não é fácil 😀👍🏽 — “aspas” ñ ü 中文';
    const variants = [{}, { utf8: true }, { contentType: 'application/octet-stream' }];
    const wamids: string[] = [];
    for (const variant of variants) {
      const sent = await inbound(line, { from: customer(), name: 'Zoë Çelik 🌸', text, ...variant });
      expect(sent.delivered.status, JSON.stringify(variant)).toBe(200);
      wamids.push(sent.wamid);
    }
    const tickets = await eventually(async () => {
      const list = await ticketsOf(co);
      return list.length === variants.length ? list : undefined;
    });
    for (const ticket of tickets) {
      expect(ticket.contact.name).toBe('Zoë Çelik 🌸');
      const [message] = await messagesOf(co, ticket.id);
      expect(message.body).toBe(text);
      expect(wamids).toContain(message.wid);
    }
  });

  it('the same webhook delivered twice stores one message', async () => {
    const co = await newCompany('clouddup');
    const line = await cloudLine(co);
    const from = customer();
    const first = await inbound(line, { from, name: 'Rui', text: 'só uma vez' });
    const raw = JSON.stringify(first.payload);
    const again = await meta('/_deliver', { phoneNumberId: line.phoneNumberId, raw });
    expect(again.delivered.status).toBe(200);
    const [ticket] = await eventually(async () => {
      const list = await ticketsOf(co);
      return list.length ? list : undefined;
    });
    await queuesIdle();
    expect(await messagesOf(co, ticket.id)).toHaveLength(1);
    expect(await ticketsOf(co)).toHaveLength(1);
  });
});

/** The same command again on the sender's queue, as SQS redelivers it after the 5-minute dedup window. */
async function redeliver(command: Record<string, unknown>) {
  const sqs = new SQSClient({
    endpoint: baseUrl(),
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: `${baseUrl()}/@sqs/${CLOUD_COMMAND_QUEUE}`,
      MessageBody: JSON.stringify({ ...command, commandId: randomUUID() }),
      MessageGroupId: `company#${command.companyId}#whatsapp#${command.whatsappId}`,
      MessageDeduplicationId: randomUUID(),
    }),
  );
  await queuesIdle();
}

describe('sending through the Cloud API', () => {
  it("an attendant's text goes to Meta once and takes the wamid Meta gave; a redelivered command sends nothing", async () => {
    const { co, line, number, ticket } = await conversation('cloudsend');
    const sent = await sendText(co, ticket.id, 'Olá! Como posso ajudar? 😊');
    const message = await eventually(async () => {
      const m = await storedMessage(co, ticket.id, sent.id);
      return m?.wid.startsWith('wamid.') && m.ack === 1 ? m : undefined;
    });
    const posts = await sendsTo(line);
    expect(posts).toHaveLength(1);
    expect(posts[0].body).toMatchObject({
      messaging_product: 'whatsapp',
      to: number,
      type: 'text',
      text: { body: 'Olá! Como posso ajudar? 😊' },
    });
    expect(posts[0].token).toBe(`****${line.accessToken.slice(-4)}`);
    await redeliver({
      type: 'send',
      companyId: co.companyId,
      whatsappId: line.id,
      messageId: sent.id,
      wid: sent.wid,
      ticketId: ticket.id,
      to: `${number}@s.whatsapp.net`,
      body: 'Olá! Como posso ajudar? 😊',
    });
    expect(await sendsTo(line)).toHaveLength(1);
    expect((await storedMessage(co, ticket.id, sent.id))?.wid).toBe(message.wid);
  });

  it('statuses only move forward: read before delivered stays read, a repeated one changes nothing', async () => {
    const { co, line, number, ticket } = await conversation('cloudack');
    const sent = await sendText(co, ticket.id, 'status?');
    const { wid } = await eventually(async () => {
      const m = await storedMessage(co, ticket.id, sent.id);
      return m?.wid.startsWith('wamid.') ? m : undefined;
    });
    for (const status of ['read', 'delivered', 'sent', 'delivered']) {
      const res = await meta('/_status', { phoneNumberId: line.phoneNumberId, wamid: wid, recipient: number, status });
      expect(res.delivered.status).toBe(200);
      await queuesIdle();
      expect((await storedMessage(co, ticket.id, sent.id))?.ack, status).toBe(3);
    }
  });

  it("a failed status keeps Meta's error code and title on the message", async () => {
    const { co, line, number, ticket } = await conversation('cloudfail');
    const sent = await sendText(co, ticket.id, 'fora da janela');
    const { wid } = await eventually(async () => {
      const m = await storedMessage(co, ticket.id, sent.id);
      return m?.wid.startsWith('wamid.') ? m : undefined;
    });
    await meta('/_status', {
      phoneNumberId: line.phoneNumberId,
      wamid: wid,
      recipient: number,
      status: 'failed',
      errorCode: 131047,
      errorTitle: 'Re-engagement message',
    });
    const failed = await eventually(async () => {
      const m = await storedMessage(co, ticket.id, sent.id);
      return m?.error ? m : undefined;
    });
    expect(failed).toMatchObject({
      error: 'ERR_SENDING_WAPP_MSG',
      providerError: { code: 131047, title: 'Re-engagement message' },
    });
  });

  it("a send Meta refuses is shown with Meta's error, and one whose outcome is unknown is never sent again", async () => {
    const { co, line, number, ticket } = await conversation('cloudrefused', {
      sendErrors: [
        { code: 131047, title: 'Re-engagement message', httpStatus: 400 },
        { code: 2, title: 'Service temporarily unavailable', httpStatus: 503 },
      ],
    });
    const refused = await sendText(co, ticket.id, 'primeira');
    const shown = await eventually(async () => {
      const m = await storedMessage(co, ticket.id, refused.id);
      return m?.error ? m : undefined;
    });
    expect(shown.providerError).toEqual({ code: 131047, title: 'Re-engagement message' });
    const unknown = await sendText(co, ticket.id, 'segunda');
    await eventually(async () => (await sendsTo(line)).length === 2);
    await queuesIdle();
    await redeliver({
      type: 'send',
      companyId: co.companyId,
      whatsappId: line.id,
      messageId: unknown.id,
      wid: unknown.wid,
      ticketId: ticket.id,
      to: `${number}@s.whatsapp.net`,
      body: 'segunda',
    });
    expect(await sendsTo(line)).toHaveLength(2);
    expect(await storedMessage(co, ticket.id, unknown.id)).toMatchObject({ ack: 0, error: null, wid: unknown.wid });
  });

  it("the external messages API sends through Meta with the connection's API token, without a number check", async () => {
    const co = await newCompany('cloudxapi');
    const line = await cloudLine(co);
    // the customer wrote today: their window is open
    await inbound(line, { from: '5511966660042', text: 'Meu pedido?' });
    await eventually(async () => (await ticketsOf(co)).length === 1);
    const res = await api('POST', '/messages/send', {
      headers: { authorization: `Bearer ${line.created.token}` },
      body: { number: '+55 (11) 96666-0042', body: 'Seu pedido saiu' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await eventually(async () => (await sendsTo(line)).length === 1);
    expect((await sendsTo(line))[0].body).toMatchObject({ to: '5511966660042', text: { body: 'Seu pedido saiu' } });
  });

  it('a file is uploaded to Meta, then sent by its media id: a document with its name, an image with its caption', async () => {
    const { co, line, number, ticket } = await conversation('cloudmediaout');
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4 '), randomBytes(48)]);
    const form = new FormData();
    form.append('medias', new Blob([pdf], { type: 'application/pdf' }), 'contrato.pdf');
    const res = await api('POST', `/messages/${ticket.id}`, { token: co.adminToken, body: form });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [upload, send] = await eventually(async () => {
      const all = (await meta<any[]>('/_requests')).filter((r) => r.path.includes(`/${line.phoneNumberId}/`));
      const found = [all.find((r) => r.path.endsWith('/media')), all.find((r) => r.body?.type === 'document')];
      return found[0] && found[1] ? found : undefined;
    });
    expect(upload.body).toMatchObject({
      messaging_product: 'whatsapp',
      type: 'application/pdf',
      file: { name: 'contrato.pdf', size: pdf.length },
    });
    expect(send.body).toMatchObject({ to: number, type: 'document', document: { filename: 'contrato.pdf' } });
    expect(send.body.document.caption).toBeUndefined();
    // what Meta holds under that id is the file's bytes
    const graph = `${baseUrl()}/@meta/v23.0`;
    const auth = { authorization: `Bearer ${line.accessToken}` };
    const info = await (await fetch(`${graph}/${send.body.document.id}`, { headers: auth })).json();
    const held = Buffer.from(await (await fetch(info.url, { headers: auth })).arrayBuffer());
    expect(held.equals(pdf)).toBe(true);
    await eventually(async () => (await storedMessage(co, ticket.id, res.body.id))?.ack === 1);

    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
    const photo = new FormData();
    photo.append('medias', new Blob([png], { type: 'image/png' }), 'foto.png');
    photo.append('body', 'olha a foto 📷');
    const sent = await api('POST', `/messages/${ticket.id}`, { token: co.adminToken, body: photo });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const image = await eventually(async () => (await sendsTo(line)).find((r) => r.body.type === 'image'));
    expect(image.body.image).toMatchObject({ caption: 'olha a foto 📷' });
    expect(image.body.image.filename).toBeUndefined();
  });

  it('a token Meta stopped accepting fails the send and shows the connection DISCONNECTED with the reason', async () => {
    const { co, line, ticket } = await conversation('cloudtoken');
    await meta('/_script', { phoneNumberId: line.phoneNumberId, tokenExpired: true });
    const sent = await sendText(co, ticket.id, 'token?');
    await eventually(async () => (await storedMessage(co, ticket.id, sent.id))?.error);
    const connection = await eventually(async () => {
      const w = (await api('GET', `/whatsapp/${line.id}`, { token: co.adminToken })).body;
      return w.status === 'DISCONNECTED' ? w : undefined;
    });
    expect(connection.statusReason).toBe('tokenExpired');
  });
});

describe('the 24-hour customer service window', () => {
  const HOUR = 3_600_000;
  const ticketOf = async (co: TestCompany, id: number) =>
    (await api('GET', `/tickets/${id}`, { token: co.adminToken })).body as Record<string, any>;
  const wroteAt = (co: TestCompany, ticketId: number, at: string) =>
    table().set(`C#${co.companyId}`, `TICKET#${String(ticketId).padStart(10, '0')}`, { customerMessageAt: at });

  it("a ticket keeps when the customer last wrote; the customer's next message moves it", async () => {
    const { co, line, number, ticket } = await conversation('cloudwin');
    const first = (await ticketOf(co, ticket.id)).customerMessageAt;
    expect(Date.parse(first)).toBeGreaterThan(Date.now() - HOUR);
    await wroteAt(co, ticket.id, new Date(Date.now() - 2 * HOUR).toISOString());
    await inbound(line, { from: number, text: 'de novo' });
    await eventually(async () => Date.parse((await ticketOf(co, ticket.id)).customerMessageAt) > Date.now() - HOUR);
    // our own messages never move it
    const before = (await ticketOf(co, ticket.id)).customerMessageAt;
    await sendText(co, ticket.id, 'certo');
    expect((await ticketOf(co, ticket.id)).customerMessageAt).toBe(before);
  });

  it('outside the window a free-form send is ERR_CLOUD_WINDOW_CLOSED: nothing stored, nothing sent; the customer writing opens it again', async () => {
    const { co, line, number, ticket } = await conversation('cloudwinshut');
    const wrote = new Date(Date.now() - 25 * HOUR).toISOString();
    await wroteAt(co, ticket.id, wrote);
    const messages = (await messagesOf(co, ticket.id)).length;
    const sent = (await sendsTo(line)).length;
    const refused = await api('POST', `/messages/${ticket.id}`, { token: co.adminToken, body: { body: 'olá?' } });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: 'ERR_CLOUD_WINDOW_CLOSED',
      details: { windowEndsAt: new Date(Date.parse(wrote) + 24 * HOUR).toISOString() },
    });
    await queuesIdle(co.companyId);
    expect((await messagesOf(co, ticket.id)).length).toBe(messages);
    expect((await sendsTo(line)).length).toBe(sent);
    // one hour inside the window still sends
    await wroteAt(co, ticket.id, new Date(Date.now() - 23 * HOUR).toISOString());
    await sendText(co, ticket.id, 'ainda dá');
    await eventually(async () => (await sendsTo(line)).length === sent + 1);
    await wroteAt(co, ticket.id, wrote);
    expect((await api('POST', `/messages/${ticket.id}`, { token: co.adminToken, body: { body: 'x' } })).status).toBe(
      409,
    );
    await inbound(line, { from: number, text: 'voltei' });
    await eventually(async () => (await ticketOf(co, ticket.id)).customerMessageAt > wrote);
    await sendText(co, ticket.id, 'bem-vindo de volta');
    await eventually(async () => (await sendsTo(line)).length === sent + 2);
  });

  it("a ticket an attendant opens carries the window over from the contact's last ticket; a customer who never wrote has none", async () => {
    const { co, line, ticket } = await conversation('cloudwincarry');
    const wrote = (await ticketOf(co, ticket.id)).customerMessageAt;
    const closed = await api('PUT', `/tickets/${ticket.id}`, { token: co.adminToken, body: { status: 'closed' } });
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const contactId = (await ticketOf(co, ticket.id)).contactId;
    const again = (await createTicket(co.adminToken, { contactId, whatsappId: line.id })) as { id: number };
    expect((await ticketOf(co, again.id)).customerMessageAt).toBe(wrote);
    await sendText(co, again.id, 'retomando');

    const stranger = await createContact(co.adminToken, { number: customer() });
    const cold = (await createTicket(co.adminToken, { contactId: stranger.id, whatsappId: line.id })) as { id: number };
    expect((await ticketOf(co, cold.id)).customerMessageAt).toBeUndefined();
    const refused = await api('POST', `/messages/${cold.id}`, { token: co.adminToken, body: { body: 'oi' } });
    expect(refused.body).toEqual({ error: 'ERR_CLOUD_WINDOW_CLOSED', details: { windowEndsAt: null } });
  });

  it('a WhatsApp Web connection has no window: its sends are never refused for it', async () => {
    const co = await newCompany('cloudwinweb');
    const web = await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Web line' } });
    expect(web.status).toBe(201);
    const contact = await createContact(co.adminToken, { number: customer() });
    const t = (await createTicket(co.adminToken, { contactId: contact.id, whatsappId: web.body.id })) as { id: number };
    const res = await api('POST', `/messages/${t.id}`, { token: co.adminToken, body: { body: 'oi' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});

describe('Coexistence: messages the business sends from the WhatsApp Business app', () => {
  it("an echo is stored once as the business's own message in the customer's ticket", async () => {
    const co = await newCompany('cloudecho');
    const line = await cloudLine(co);
    const from = customer();
    await inbound(line, { from, name: 'Bia', text: 'oi' });
    const echo = await inbound(line, { from, echo: true, text: 'Respondi pelo app 📱' });
    expect(echo.delivered.status).toBe(200);
    expect(echo.payload.entry[0].changes[0].field).toBe('smb_message_echoes');
    await meta('/_deliver', { phoneNumberId: line.phoneNumberId, raw: JSON.stringify(echo.payload) });
    const [ticket] = await eventually(async () => {
      const list = await ticketsOf(co);
      return list.length ? list : undefined;
    });
    const messages = await eventually(async () => {
      const list = await messagesOf(co, ticket.id);
      return list.length >= 2 ? list : undefined;
    });
    await queuesIdle();
    expect((await messagesOf(co, ticket.id)).map((m) => [m.body, m.fromMe])).toEqual(
      expect.arrayContaining([
        ['oi', false],
        ['Respondi pelo app 📱', true],
      ]),
    );
    expect(await messagesOf(co, ticket.id)).toHaveLength(2);
    expect(messages.find((m) => m.fromMe)?.wid).toBe(echo.wamid);
  });
});

describe('inbound media through the Cloud API', () => {
  it('an image is fetched by its media id with the token, stored like any media, and shown with its caption', async () => {
    const co = await newCompany('cloudmedia');
    const line = await cloudLine(co);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
    const sent = await inbound(line, {
      from: customer(),
      name: 'Foto',
      media: { type: 'image', mimeType: 'image/png', data: png.toString('base64'), caption: 'minha foto' },
    });
    expect(sent.delivered.status).toBe(200);
    const [ticket] = await eventually(async () => {
      const list = await ticketsOf(co);
      return list.length ? list : undefined;
    });
    const [message] = await messagesOf(co, ticket.id);
    expect(message).toMatchObject({ wid: sent.wamid, mediaType: 'image', body: 'minha foto' });
    expect(message.mediaUrl).toBeTruthy();
    const bytes = Buffer.from(await (await fetch(message.mediaUrl)).arrayBuffer());
    expect(bytes.equals(png)).toBe(true);
    const mediaId = sent.payload.entry[0].changes[0].value.messages[0].image.id;
    const requests = await meta<any[]>('/_requests');
    expect(requests.some((r) => r.method === 'GET' && r.path.endsWith(`/${mediaId}`) && r.token)).toBe(true);
    expect(requests.some((r) => r.path === `/_media/${mediaId}` && r.token)).toBe(true);
  });

  it('the media URL refuses a download without the token', async () => {
    const co = await newCompany('cloudmedia401');
    const line = await cloudLine(co);
    const sent = await inbound(line, {
      from: customer(),
      media: {
        type: 'document',
        mimeType: 'application/pdf',
        data: Buffer.from('%PDF-1.4 x').toString('base64'),
        filename: 'a.pdf',
      },
    });
    const mediaId = sent.payload.entry[0].changes[0].value.messages[0].document.id;
    const res = await fetch(`${baseUrl()}/@meta/_media/${mediaId}`);
    expect(res.status).toBe(401);
    // the consumer's own fetch (with the token) still stores it
    const [ticket] = await eventually(async () => {
      const list = await ticketsOf(co);
      return list.length ? list : undefined;
    });
    expect((await messagesOf(co, ticket.id))[0]).toMatchObject({ mediaType: 'document', body: 'a.pdf' });
  });
});

describe('a deleted company and its Cloud API connection', () => {
  it("frees the number and the verify token, drops the wamid guards, and the number's webhooks are refused", async () => {
    const { co, line, number, ticket } = await conversation('cloudgone');
    const sent = await sendText(co, ticket.id, 'tchau');
    const { wid } = await eventually(async () => {
      const m = await storedMessage(co, ticket.id, sent.id);
      return m?.wid.startsWith('wamid.') ? m : undefined;
    });
    // the id we chose went when Meta's took its place
    expect(await widGuard(co, sent.wid)).toBeUndefined();
    expect(await widGuard(co, wid)).toBeDefined();
    const sup = (await login(ADMIN.email, ADMIN.password)).token;
    await holdTimer('company-cleanup');
    expect((await api('DELETE', `/companies/${co.companyId}`, { token: sup })).status).toBe(202);
    await runTimer('company-cleanup');
    await queuesIdle();
    expect(await table().get(`WCLOUD#${line.phoneNumberId}`, 'WCLOUD')).toBeUndefined();
    const verifyHash = createHash('sha256').update(line.verifyToken).digest('hex');
    expect(await table().get(`WCLOUDVT#${verifyHash}`, 'WCLOUDVT')).toBeUndefined();
    expect(await widGuard(co, wid)).toBeUndefined();
    const late = await inbound(line, { from: number, text: 'ainda aí?' });
    expect(late.delivered.status).toBe(401);
  });
});
