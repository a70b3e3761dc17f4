import { describe, expect, it } from 'vitest';
import { api, baseUrl, login, newCompany, queuesIdle, sleep } from './helpers';
import { createQueue, createUser } from './fixtures';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';
import { MAX_PUSH_DEVICES_PER_USER } from '#shared/constants';

/**
 * Web Push (issue 25) against the local push service fake (infra/local/push-fake.ts): every message
 * counted here was decrypted by the fake with the device's own keys and carried a VAPID JWT that
 * verified under the server's public key.
 */
async function pushService<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/@push${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = await res.json();
  if (!res.ok) throw new Error(`push fake ${method} ${path}: ${res.status} ${JSON.stringify(parsed)}`);
  return parsed as T;
}

interface FakeDevice {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

const ALL = { pendingTicket: true, ticketMessage: true, chatMention: true, slaBreach: true };

/** A browser subscribed at the fake push service (bound to the server's VAPID key), then to the API. */
async function device(token: string, preferences: Partial<typeof ALL> = {}, name = 'Phone') {
  const { publicKey } = (await api('GET', '/push/config', { token })).body;
  const sub = await pushService<FakeDevice>('POST', '/subscriptions', { applicationServerKey: publicKey });
  const res = await api('POST', '/push/subscriptions', {
    token,
    body: { endpoint: sub.endpoint, keys: sub.keys, device: name, preferences: { ...ALL, ...preferences } },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...sub, subscriptionId: res.body.id as string, publicKey: publicKey as string };
}

const received = async (d: { id: string }) =>
  (await pushService<{ messages: any[]; rejected: any[] }>('GET', `/subscriptions/${d.id}/messages`)).messages;

async function pendingTicketOf(token: string, contactNumber: string) {
  return eventually(async () => {
    const list = await api('GET', '/tickets?status=pending&showAll=true', { token });
    return list.body.tickets.find((t: any) => t.contact.number === contactNumber);
  });
}

describe('push notifications (Web Push)', () => {
  it('GET /push/config gives the VAPID public key; the same endpoint again updates its device', async () => {
    const co = await newCompany('push-cfg');
    const { publicKey } = (await api('GET', '/push/config', { token: co.adminToken })).body;
    expect(publicKey).toMatch(/^B[A-Za-z0-9_-]{86}$/);
    expect((await api('GET', '/push/config')).status).toBe(401);

    const d = await device(co.adminToken, {}, 'Pixel');
    const again = await api('POST', '/push/subscriptions', {
      token: co.adminToken,
      body: { endpoint: d.endpoint, keys: d.keys, device: 'Pixel 8', preferences: { ...ALL, slaBreach: false } },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: d.subscriptionId, device: 'Pixel 8', preferences: { slaBreach: false } });
    const mine = (await api('GET', '/push/subscriptions', { token: co.adminToken })).body;
    expect(mine).toHaveLength(1);
    expect(mine[0]).not.toHaveProperty('keys');
  });

  it('past MAX_PUSH_DEVICES_PER_USER a new device replaces the stalest one, never locking the user out', async () => {
    const co = await newCompany('push-cap');
    const { token } = await createUser(co, { name: 'Agente Cap' });
    const devices = [];
    for (let i = 0; i < MAX_PUSH_DEVICES_PER_USER; i++) devices.push(await device(token, {}, `Phone ${i}`));
    const ids = async () =>
      ((await api('GET', '/push/subscriptions', { token })).body as { id: string }[]).map((d) => d.id).sort();
    expect(await ids()).toEqual(devices.map((d) => d.subscriptionId).sort());

    // the first device is renamed (used again), so the second is now the stalest
    const [first, second] = devices as [(typeof devices)[0], (typeof devices)[0]];
    expect(
      (await api('PUT', `/push/subscriptions/${first.subscriptionId}`, { token, body: { device: 'Phone 0 (again)' } }))
        .status,
    ).toBe(200);
    // the same endpoint again at the cap is an update: nothing is replaced
    const again = await api('POST', '/push/subscriptions', {
      token,
      body: { endpoint: first.endpoint, keys: first.keys, device: 'Phone 0', preferences: ALL },
    });
    expect(again.status).toBe(200);
    expect(await ids()).toHaveLength(MAX_PUSH_DEVICES_PER_USER);

    const newest = await device(token, {}, 'Reinstalled phone');
    const after = await ids();
    expect(after).toHaveLength(MAX_PUSH_DEVICES_PER_USER);
    expect(after).toContain(newest.subscriptionId);
    expect(after).toContain(first.subscriptionId);
    expect(after).not.toContain(second.subscriptionId);
    expect((await api('DELETE', `/push/subscriptions/${second.subscriptionId}`, { token })).status).toBe(404);
  });

  it('a customer message on my ticket is pushed, decrypted, to my device with its url; not to a device that turned it off', async () => {
    const co = await newCompany('push-msg');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const agent = await createUser(co, { name: 'Agente Push' });
    const from = '5511977770001';
    await phone(co.companyId, w.id).send({ from, pushName: 'Cliente Push', body: 'oi' });
    const ticket = await pendingTicketOf(co.adminToken, from);
    const taken = await api('PUT', `/tickets/${ticket.id}`, {
      token: co.adminToken,
      body: { status: 'open', userId: agent.id },
    });
    expect(taken.status).toBe(200);

    const on = await device(agent.token, {}, 'Phone');
    const off = await device(agent.token, {}, 'Laptop');
    const changed = await api('PUT', `/push/subscriptions/${off.subscriptionId}`, {
      token: agent.token,
      body: { preferences: { ticketMessage: false } },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.preferences).toEqual({ ...ALL, ticketMessage: false });

    await phone(co.companyId, w.id).send({ from, pushName: 'Cliente Push', body: 'Preciso de ajuda com o pedido' });
    const [message] = await eventually(async () => {
      const got = await received(on);
      return got.length > 0 && got;
    });
    await queuesIdle();
    expect(await received(on)).toHaveLength(1);
    expect(message.payload).toEqual({
      kind: 'ticketMessage',
      title: 'Cliente Push',
      body: 'Preciso de ajuda com o pedido',
      url: `/tickets/${ticket.uuid}`,
      tag: `ticket-${ticket.uuid}`,
    });
    expect(message.urgency).toBe('high');
    expect(message.ttl).toBeGreaterThan(0);
    expect(message.vapid.k).toBe(on.publicKey);
    expect(await received(off)).toEqual([]);
  });

  it("a new pending ticket in a queue is pushed to the queue's users, not to users of other queues", async () => {
    const co = await newCompany('push-pend');
    const sales = await createQueue(co.adminToken, { name: `Vendas ${Date.now()}` });
    const support = await createQueue(co.adminToken, { name: `Suporte ${Date.now()}` });
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { queueIds: [sales.id] });
    const seller = await createUser(co, { name: 'Vendedor', queueIds: [sales.id] });
    const helper = await createUser(co, { name: 'Suporte', queueIds: [support.id] });
    const sellerDevice = await device(seller.token);
    const helperDevice = await device(helper.token);

    const from = '5511977770002';
    await phone(co.companyId, w.id).send({ from, pushName: 'Novo Cliente', body: 'quero comprar' });
    const ticket = await pendingTicketOf(co.adminToken, from);
    const [message] = await eventually(async () => {
      const got = await received(sellerDevice);
      return got.length > 0 && got;
    });
    expect(message.payload).toEqual({
      kind: 'pendingTicket',
      title: 'Novo ticket pendente',
      body: `Novo Cliente · ${sales.name}`,
      url: `/tickets/${ticket.uuid}`,
      tag: `ticket-${ticket.uuid}`,
    });
    await queuesIdle();
    expect(await received(sellerDevice)).toHaveLength(1);
    expect(await received(helperDevice)).toEqual([]);
  });

  it('an @mention in internal chat is pushed to the mentioned member only', async () => {
    const co = await newCompany('push-chat');
    const ana = await createUser(co, { name: 'Ana Lima' });
    const bruno = await createUser(co, { name: 'Bruno' });
    const chat = (
      await api('POST', '/chats', { token: co.adminToken, body: { title: 'Equipe', users: [ana.id, bruno.id] } })
    ).body;
    const anaDevice = await device(ana.token);
    const brunoDevice = await device(bruno.token);
    const ownerDevice = await device(co.adminToken);

    await api('POST', `/chats/${chat.id}/messages`, { token: co.adminToken, body: { message: 'bom dia a todos' } });
    const sent = await api('POST', `/chats/${chat.id}/messages`, {
      token: co.adminToken,
      body: { message: '@ana lima pode ver o ticket 42?' },
    });
    expect(sent.status).toBe(201);
    const [message] = await eventually(async () => {
      const got = await received(anaDevice);
      return got.length > 0 && got;
    });
    expect(message.payload).toEqual({
      kind: 'chatMention',
      title: 'Owner mencionou você em Equipe',
      body: '@ana lima pode ver o ticket 42?',
      url: `/chats/${chat.uuid}`,
      tag: `chat-${chat.uuid}`,
    });
    await queuesIdle();
    expect(await received(anaDevice)).toHaveLength(1);
    expect(await received(brunoDevice)).toEqual([]);
    expect(await received(ownerDevice)).toEqual([]);
  });

  it('a subscription the push service answers 410 (gone) is removed', async () => {
    const co = await newCompany('push-gone');
    const ana = await createUser(co, { name: 'Ana' });
    const chat = (await api('POST', '/chats', { token: co.adminToken, body: { title: 'Avisos', users: [ana.id] } }))
      .body;
    const gone = await device(ana.token, {}, 'Old phone');
    const kept = await device(ana.token, {}, 'New phone');
    await pushService('POST', `/subscriptions/${gone.id}/gone`);

    await api('POST', `/chats/${chat.id}/messages`, { token: co.adminToken, body: { message: '@Ana reunião às 10' } });
    await eventually(async () => (await received(kept)).length > 0);
    const listed = await eventually(async () => {
      const mine = (await api('GET', '/push/subscriptions', { token: ana.token })).body as { id: string }[];
      return mine.length === 1 && mine;
    });
    expect(listed.map((d) => d.id)).toEqual([kept.subscriptionId]);
    const { rejected } = await pushService('GET', `/subscriptions/${gone.id}/messages`);
    expect(rejected.map((r: { status: number }) => r.status)).toEqual([410]);
  });

  it('a delivery the push service refuses for now (503) is retried by the queue until it gets through', async () => {
    const co = await newCompany('push-retry');
    const ana = await createUser(co, { name: 'Ana' });
    const chat = (await api('POST', '/chats', { token: co.adminToken, body: { title: 'Plantão', users: [ana.id] } }))
      .body;
    const d = await device(ana.token);
    await pushService('POST', `/subscriptions/${d.id}/status`, { status: 503 });
    await api('POST', `/chats/${chat.id}/messages`, { token: co.adminToken, body: { message: '@Ana urgente' } });
    // watched without waiting for the queues: the retry is already waiting on the queue
    for (let tries = 0; !(await pushService('GET', `/subscriptions/${d.id}/messages`)).rejected.length; tries++) {
      if (tries > 200) throw new Error('the push service was never called');
      await sleep(25);
    }
    await pushService('POST', `/subscriptions/${d.id}/status`, { status: null });
    const got = await eventually(async () => {
      const list = await received(d);
      return list.length > 0 && list;
    }, 25_000);
    expect(got.map((m: any) => m.payload.body)).toEqual(['@Ana urgente']);
    expect((await api('GET', '/push/subscriptions', { token: ana.token })).body).toHaveLength(1);
  }, 40_000);

  it('SSRF: an endpoint that is not https on a known push service is refused with 400', async () => {
    const co = await newCompany('push-ssrf');
    const real = await pushService<FakeDevice>('POST', '/subscriptions');
    const fakeOrigin = new URL(real.endpoint).origin;
    for (const endpoint of [
      'https://example.com/push/1',
      'https://169.254.169.254/latest/meta-data/',
      `${baseUrl()}/api/tickets`,
      `${baseUrl()}/push/1`,
      `${fakeOrigin}/not-push/1`,
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com.attacker.dev/fcm/send/abc',
      'not a url',
    ]) {
      const res = await api('POST', '/push/subscriptions', {
        token: co.adminToken,
        body: { endpoint, keys: real.keys, preferences: ALL },
      });
      expect(res.status, endpoint).toBe(400);
      expect(res.body.error, endpoint).toBe('ERR_PUSH_ENDPOINT_NOT_ALLOWED');
    }
    const badKeys = await api('POST', '/push/subscriptions', {
      token: co.adminToken,
      body: { endpoint: real.endpoint, keys: { p256dh: 'abc', auth: real.keys.auth }, preferences: ALL },
    });
    expect(badKeys.status).toBe(400);
    expect(badKeys.body.error).toBe('ERR_VALIDATION');
    expect((await api('GET', '/push/subscriptions', { token: co.adminToken })).body).toEqual([]);
  });

  it("a user reaches only their own subscriptions: another user's or another company's id is 404", async () => {
    const co = await newCompany('push-iso');
    const other = await newCompany('push-iso2');
    const ana = await createUser(co, { name: 'Ana' });
    const bruno = await createUser(co, { name: 'Bruno' });
    const d = await device(ana.token, { chatMention: true });
    const path = `/push/subscriptions/${d.subscriptionId}`;

    for (const token of [bruno.token, co.adminToken, other.adminToken]) {
      const put = await api('PUT', path, { token, body: { preferences: { chatMention: false } } });
      expect(put.status).toBe(404);
      expect(put.body.error).toBe('ERR_PUSH_SUBSCRIPTION_NOT_FOUND');
      expect((await api('DELETE', path, { token })).status).toBe(404);
      expect((await api('GET', '/push/subscriptions', { token })).body).toEqual([]);
    }
    const unknown = await api('DELETE', `/push/subscriptions/${'0'.repeat(32)}`, { token: ana.token });
    expect(unknown.status).toBe(404);
    expect((await api('DELETE', '/push/subscriptions/not-an-id', { token: ana.token })).status).toBe(400);

    const mine = (await api('GET', '/push/subscriptions', { token: ana.token })).body;
    expect(mine).toEqual([expect.objectContaining({ id: d.subscriptionId, preferences: ALL })]);
    expect((await api('DELETE', path, { token: ana.token })).status).toBe(200);
    expect((await api('GET', '/push/subscriptions', { token: ana.token })).body).toEqual([]);
  });

  it('a browser belongs to the last user who subscribed it, in any company', async () => {
    const co = await newCompany('push-shared');
    const other = await newCompany('push-shared2');
    const ana = await createUser(co, { name: 'Ana' });
    const d = await device(ana.token);
    const body = { endpoint: d.endpoint, keys: d.keys, preferences: ALL };
    expect((await api('POST', '/push/subscriptions', { token: co.adminToken, body })).status).toBe(201);
    expect((await api('GET', '/push/subscriptions', { token: ana.token })).body).toEqual([]);
    expect((await api('POST', '/push/subscriptions', { token: other.adminToken, body })).status).toBe(201);
    expect((await api('GET', '/push/subscriptions', { token: co.adminToken })).body).toEqual([]);
    expect((await api('GET', '/push/subscriptions', { token: other.adminToken })).body).toHaveLength(1);
  });

  it("logout with this browser's endpoint removes this device's subscription, only this one, only the user's own", async () => {
    const co = await newCompany('push-logout');
    const session = await login(co.admin.email, co.admin.password);
    const phoneDevice = await device(session.token, {}, 'Phone');
    const laptop = await device(co.adminToken, {}, 'Laptop');
    const names = async () =>
      ((await api('GET', '/push/subscriptions', { token: co.adminToken })).body as { device: string }[])
        .map((d) => d.device)
        .sort();
    expect(await names()).toEqual(['Laptop', 'Phone']);

    // someone else signing out with this endpoint (another company's user) leaves it alone
    const stranger = await newCompany('push-logout-other');
    const strangerSession = await login(stranger.admin.email, stranger.admin.password);
    const foreign = await api('DELETE', '/auth/logout', {
      cookie: strangerSession.cookie,
      body: { pushEndpoint: phoneDevice.endpoint },
    });
    expect(foreign.status).toBe(204);
    expect(await names()).toEqual(['Laptop', 'Phone']);

    const bad = await api('DELETE', '/auth/logout', {
      cookie: session.cookie,
      body: { pushEndpoint: 'x'.repeat(3000) },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');

    const out = await api('DELETE', '/auth/logout', {
      cookie: session.cookie,
      body: { pushEndpoint: phoneDevice.endpoint },
    });
    expect(out.status).toBe(204);
    expect((await api('GET', '/auth/me', { token: session.token })).status).toBe(401);
    // the phone is gone, the laptop (another session's device) keeps receiving
    expect(await names()).toEqual(['Laptop']);
    expect(laptop.subscriptionId).not.toBe(phoneDevice.subscriptionId);

    // a logout without an endpoint (an API client, a browser without push) removes no device
    const again = await login(co.admin.email, co.admin.password);
    expect((await api('DELETE', '/auth/logout', { cookie: again.cookie })).status).toBe(204);
    expect(await names()).toEqual(['Laptop']);
  });
});
