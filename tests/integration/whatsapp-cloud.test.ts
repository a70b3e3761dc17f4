import { describe, it, expect } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { api, baseUrl, newCompany, queuesIdle, table, type TestCompany } from './helpers';
import { eventually } from './whatsapp-sim';

/**
 * WhatsApp Business Cloud API connections (issue 36) over HTTP against the local stack, with Meta's
 * Graph API played by infra/local/meta-fake.ts: its hooks build Meta's webhooks, sign them with the
 * number's app secret and post them to `/api/webhooks/whatsapp-cloud`.
 */

async function meta<T = any>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/@meta${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as T;
}

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');
const customer = () => `55119${digits(8)}`;

interface CloudLine {
  id: number;
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  created: Record<string, any>;
}

/** A number scripted in the fake (Meta's side), then a Cloud API connection for it. */
async function cloudLine(co: TestCompany, script: Record<string, unknown> = {}, body: Record<string, unknown> = {}) {
  const phoneNumberId = `1${digits(14)}`;
  const accessToken = `EAAG${randomBytes(24).toString('hex')}`;
  const appSecret = randomBytes(16).toString('hex');
  await meta('/_script', { phoneNumberId, accessToken, appSecret, displayPhoneNumber: '+55 11 4000-1234', ...script });
  const res = await api('POST', '/whatsapp', {
    token: co.adminToken,
    body: {
      name: 'Cloud line',
      provider: 'cloud',
      phoneNumberId,
      wabaId: `2${digits(14)}`,
      accessToken,
      appSecret,
      ...body,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return {
    id: res.body.id,
    phoneNumberId,
    accessToken,
    appSecret,
    verifyToken: res.body.verifyToken,
    created: res.body,
  } as CloudLine;
}

const inbound = (line: CloudLine, fields: Record<string, unknown>) =>
  meta<{ wamid: string; payload: any; delivered: { status: number; body: any } }>('/_inbound', {
    phoneNumberId: line.phoneNumberId,
    ...fields,
  });

/** The stored message of a WhatsApp id, found the way acks find it (the wid guard), or undefined. */
const widGuard = (co: TestCompany, wid: string) => table().get(`C#${co.companyId}#WID#${wid}`, 'WID');

async function ticketsOf(co: TestCompany) {
  const res = await api('GET', '/tickets?showAll=true&status=pending', { token: co.adminToken });
  return res.body.tickets as any[];
}

async function messagesOf(co: TestCompany, ticketId: number) {
  return (await api('GET', `/messages/${ticketId}?limit=100`, { token: co.adminToken })).body.messages as any[];
}

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
    // the mask sent back keeps the stored secrets: the connection still works
    const kept = await api('PUT', `/whatsapp/${line.id}`, {
      token: co.adminToken,
      body: { accessToken: one.accessToken, appSecret: one.appSecret },
    });
    expect(kept.body.status).toBe('CONNECTED');
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
