import { describe, it, expect } from 'vitest';
import { api, checkSessionHealth, newCompany, realtimeClient, sleep, type TestCompany } from './helpers';
import { connectedWhatsapp, eventually, phone, sim } from './whatsapp-sim';
import { createContact, createTicket, createUser, randomNumber } from './fixtures';

/**
 * Session health monitor (issue 15): per connection the runner reports the last inbound, outbound
 * and ack times, a periodic round-trip probe, the reconnects, and why the socket last closed; a
 * "connected but silent" socket is restarted. The test stack's runner probes only when a test asks
 * (`checkSessionHealth()`), so each probe here is one the test made.
 */

interface Health {
  since: string;
  lastInboundAt?: string;
  lastOutboundAt?: string;
  lastAckAt?: string;
  lastProbeAt?: string;
  probeMs?: number;
  reconnects: number;
  zombieRestarts: number;
  lastDisconnect?: { reason: string; code?: number; at: string };
}

async function health(co: TestCompany, id: number, token = co.adminToken): Promise<Health | undefined> {
  const list = await api('GET', '/whatsapp', { token });
  expect(list.status).toBe(200);
  return (list.body as { id: number; health?: Health }[]).find((w) => w.id === id)?.health;
}

/** Waits until the connection's health passes `check` and returns it. */
const healthWhere = (co: TestCompany, id: number, check: (h: Health) => boolean, timeoutMs = 10_000) =>
  eventually(async () => {
    const h = await health(co, id);
    return h && check(h) ? h : undefined;
  }, timeoutMs);

const isLater = (a: string | undefined, b: string | undefined) => Boolean(a && (!b || a > b));

describe('session health monitor', () => {
  it('the last inbound, outbound and ack times move with the traffic, and the probe answers', async () => {
    const co = await newCompany('hl1');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    // no probe runs on its own in the test stack
    expect((await health(co, w.id))?.lastProbeAt).toBeUndefined();
    await checkSessionHealth();
    const start = await healthWhere(co, w.id, (h) => Boolean(h.lastProbeAt));
    expect(start.probeMs).toBeGreaterThanOrEqual(0);
    expect(start.reconnects).toBe(0);

    const number = randomNumber();
    await phone(co.companyId, w.id).send({ from: number, body: 'oi' });
    const afterInbound = await healthWhere(co, w.id, (h) => isLater(h.lastInboundAt, start.lastInboundAt));

    const contact = await createContact(co.adminToken, { number: randomNumber() });
    const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: w.id });
    const sent = await api('POST', `/messages/${ticket.id}`, { token: co.adminToken, body: { body: 'olá' } });
    expect(sent.status).toBe(201);
    const afterOutbound = await healthWhere(co, w.id, (h) => isLater(h.lastOutboundAt, afterInbound.lastOutboundAt));

    await eventually(async () => (await phone(co.companyId, w.id).outbound()).find((o) => o.wid === sent.body.wid));
    await phone(co.companyId, w.id).ack(sent.body.wid as string);
    const afterAck = await healthWhere(co, w.id, (h) => isLater(h.lastAckAt, afterOutbound.lastAckAt));
    expect(afterAck.lastInboundAt).toBe(afterInbound.lastInboundAt);
  });

  it('a connected but silent socket is restarted: the reconnect count grows and the reason says "silent"', async () => {
    const co = await newCompany('hl2');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    await checkSessionHealth();
    await healthWhere(co, w.id, (h) => Boolean(h.lastProbeAt));
    await sim('POST', `/sessions/${co.companyId}/${w.id}/silent`);
    // one unanswered probe is not yet silence
    await checkSessionHealth();
    expect((await health(co, w.id))?.zombieRestarts).toBe(0);
    // the second in a row is
    await checkSessionHealth();
    const restarted = await healthWhere(co, w.id, (h) => h.zombieRestarts >= 1);
    expect(restarted.reconnects).toBeGreaterThanOrEqual(1);
    expect(restarted.lastDisconnect?.reason).toBe('silent');
    // the new socket answers again and the connection is back
    expect((await phone(co.companyId, w.id).state()).silent).toBe(false);
    await eventually(
      async () => (await api('GET', `/whatsapp/${w.id}`, { token: co.adminToken })).body.status === 'CONNECTED',
    );
    await checkSessionHealth();
    const probedAgain = await healthWhere(co, w.id, (h) => isLater(h.lastProbeAt, restarted.lastDisconnect?.at));
    expect(probedAgain.zombieRestarts).toBe(restarted.zombieRestarts);
  });

  it('a socket drop reconnects and is counted; a logout (401) says the phone logged this device out', async () => {
    const co = await newCompany('hl3');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    await checkSessionHealth();
    await healthWhere(co, w.id, (h) => Boolean(h.lastProbeAt));
    await phone(co.companyId, w.id).drop(428);
    const dropped = await healthWhere(co, w.id, (h) => h.reconnects === 1);
    expect(dropped.lastDisconnect).toMatchObject({ reason: 'connectionLost', code: 428 });
    await eventually(
      async () => (await api('GET', `/whatsapp/${w.id}`, { token: co.adminToken })).body.status === 'CONNECTED',
    );

    await phone(co.companyId, w.id).drop(401);
    const loggedOut = await healthWhere(co, w.id, (h) => h.lastDisconnect?.reason === 'loggedOut');
    expect(loggedOut.lastDisconnect?.code).toBe(401);
    // a logout is final: no reconnect counted
    expect(loggedOut.reconnects).toBe(1);
    expect((await api('GET', `/whatsapp/${w.id}`, { token: co.adminToken })).body.status).toBe('DISCONNECTED');
  });

  it('a plain user, who sees no QR code, sees no health either: not in GET /whatsapp, not on whatsappSession', async () => {
    const co = await newCompany('hl4');
    const agent = await createUser(co);
    const rt = await realtimeClient(agent.token);
    const admin = await realtimeClient(co.adminToken);
    try {
      const w = await connectedWhatsapp(co.adminToken, co.companyId);
      await checkSessionHealth();
      await healthWhere(co, w.id, (h) => Boolean(h.lastProbeAt));
      await admin.waitFor((e) => e.event.endsWith('-whatsappSession') && Boolean(e.data.session?.health));
      // the agent got the status changes, never a health payload
      await rt.waitFor((e) => e.event.endsWith('-whatsappSession') && e.data.session?.status === 'CONNECTED');
      await sleep(500);
      expect(rt.events.filter((e) => e.event.endsWith('-whatsappSession') && e.data.session?.health)).toEqual([]);

      const list = await api('GET', '/whatsapp', { token: agent.token });
      expect(list.status).toBe(200);
      const row = (list.body as { id: number; status: string; health?: unknown }[]).find((x) => x.id === w.id);
      expect(row?.status).toBe('CONNECTED');
      expect(row).not.toHaveProperty('health');
      expect((await api('GET', `/whatsapp/${w.id}`, { token: agent.token })).body).not.toHaveProperty('health');
    } finally {
      rt.close();
      admin.close();
    }
  });
});
