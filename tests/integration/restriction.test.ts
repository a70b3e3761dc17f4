import { describe, expect, it } from 'vitest';
import { ADMIN, api, login, newCompany, queuesIdle, runTimer, type TestCompany, usesTimers } from './helpers';
import type { FleetView } from '#shared/schemas/fleet';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';
import { createContact, createTicket } from './fixtures';

usesTimers('campaigns');

/**
 * WhatsApp's warnings before a ban (issue 37, item 4; R5 of whatsapp-review-3) over HTTP against the
 * local stack: the reach-out lock and the new-chat quota reach the connection, campaigns on it wait
 * until they end, and a message WhatsApp refused keeps WhatsApp's code.
 */

const HOUR = 3_600_000;
let seq = 0;
const number = (co: TestCompany) => `55219${String(co.companyId).padStart(4, '0')}${String(++seq).padStart(4, '0')}`;

async function campaignOn(co: TestCompany, whatsappId: number, contacts = 2) {
  const list = (await api('POST', '/contact-lists', { token: co.adminToken, body: { name: 'Clientes' } })).body;
  for (let i = 0; i < contacts; i++)
    await api('POST', '/contact-list-items', {
      token: co.adminToken,
      body: { name: `Cliente ${i}`, number: number(co), contactListId: list.id },
    });
  const created = await api('POST', '/campaigns', {
    token: co.adminToken,
    body: {
      name: 'Ofertas',
      message1: 'Olá!',
      whatsappId,
      contactListId: list.id,
      scheduledAt: new Date(Date.now() - 1000).toISOString(),
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await runTimer('campaigns');
  return created.body.id as number;
}
const campaign = async (co: TestCompany, id: number) =>
  (await api('GET', `/campaigns/${id}`, { token: co.adminToken })).body as Record<string, any>;
const connection = async (co: TestCompany, id: number) =>
  (await api('GET', `/whatsapp/${id}`, { token: co.adminToken })).body as Record<string, any>;

describe("WhatsApp's warnings before a ban", () => {
  it('a reach-out lock shows on the connection with its end, campaigns wait for it, and its lifting clears it', async () => {
    const co = await newCompany('reachout');
    const line = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Vendas' });
    const until = new Date(Date.now() + 2 * HOUR).toISOString();
    await phone(co.companyId, line.id).restrict({
      reachoutLock: { active: true, until, type: 'BIZ_COMMERCE_VIOLATION_DRUGS' },
    });
    await queuesIdle();
    expect(await connection(co, line.id)).toMatchObject({
      reachoutLockedUntil: until,
      reachoutType: 'BIZ_COMMERCE_VIOLATION_DRUGS',
    });
    // the operator sees it on the fleet page too
    const { token: superToken } = await login(ADMIN.email, ADMIN.password);
    const fleet = (await api<FleetView>('GET', '/fleet', { token: superToken })).body;
    const session = fleet.sessions.find((s) => s.companyId === co.companyId && s.whatsappId === line.id);
    expect(session?.reachoutLockedUntil).toBe(until);
    const id = await campaignOn(co, line.id);
    const waiting = await eventually(async () => {
      const c = await campaign(co, id);
      return c.waitReason === 'reachoutLock' ? c : undefined;
    });
    expect(waiting).toMatchObject({ status: 'EM_ANDAMENTO', resumeAt: until });
    expect(await phone(co.companyId, line.id).outbound()).toEqual([]);

    await phone(co.companyId, line.id).restrict({ reachoutLock: { active: false } });
    await queuesIdle();
    const lifted = await connection(co, line.id);
    expect(lifted.reachoutLockedUntil).toBeUndefined();
    const after = (await api<FleetView>('GET', '/fleet', { token: superToken })).body;
    expect(
      after.sessions.find((s) => s.whatsappId === line.id && s.companyId === co.companyId)?.reachoutLockedUntil,
    ).toBeNull();
    expect(lifted.reachoutType).toBeUndefined();
    await api('POST', `/campaigns/${id}/cancel`, { token: co.adminToken });
  });

  it('a reach-out lock WhatsApp lifts before its end frees the connection at once: the campaign that waited for it goes on', async () => {
    const co = await newCompany('reachout-early');
    const line = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Vendas' });
    const until = new Date(Date.now() + 2 * HOUR).toISOString();
    await phone(co.companyId, line.id).restrict({ reachoutLock: { active: true, until } });
    await queuesIdle();
    const id = await campaignOn(co, line.id, 1);
    await eventually(async () => (await campaign(co, id)).waitReason === 'reachoutLock');

    await phone(co.companyId, line.id).restrict({ reachoutLock: { active: false } });
    // not at the lock's old end (two hours on): now
    const [sent] = await eventually(async () => {
      const list = await phone(co.companyId, line.id).outbound();
      return list.length ? list : undefined;
    });
    expect(sent.body).toBe('Olá!');
    const after = await eventually(async () => {
      const c = await campaign(co, id);
      return c.status === 'FINALIZADA' ? c : undefined;
    });
    expect([after.waitReason ?? null, after.resumeAt ?? null]).toEqual([null, null]);
  });

  it('a used-up new-chat quota makes campaigns wait until the cycle ends', async () => {
    const co = await newCompany('chatquota');
    const line = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Vendas' });
    const endsAt = new Date(Date.now() + 5 * HOUR).toISOString();
    await phone(co.companyId, line.id).restrict({ newChatQuota: { total: 50, used: 50, endsAt } });
    await queuesIdle();
    expect((await connection(co, line.id)).newChatQuota).toEqual({ total: 50, used: 50, endsAt });
    const id = await campaignOn(co, line.id);
    const waiting = await eventually(async () => {
      const c = await campaign(co, id);
      return c.waitReason === 'newChatQuota' ? c : undefined;
    });
    expect(waiting.resumeAt).toBe(endsAt);
    expect(await phone(co.companyId, line.id).outbound()).toEqual([]);
    await api('POST', `/campaigns/${id}/cancel`, { token: co.adminToken });
  });

  it("a new-chat quota WhatsApp renews before the cycle's stated end lets the waiting campaign go on at once", async () => {
    const co = await newCompany('chatquota-reset');
    const line = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Vendas' });
    const endsAt = new Date(Date.now() + 5 * HOUR).toISOString();
    await phone(co.companyId, line.id).restrict({ newChatQuota: { total: 50, used: 50, endsAt } });
    await queuesIdle();
    const id = await campaignOn(co, line.id, 1);
    await eventually(async () => (await campaign(co, id)).waitReason === 'newChatQuota');

    const nextEnd = new Date(Date.now() + 29 * HOUR).toISOString();
    await phone(co.companyId, line.id).restrict({ newChatQuota: { total: 50, used: 0, endsAt: nextEnd } });
    await eventually(async () => (await phone(co.companyId, line.id).outbound()).length === 1);
    expect((await connection(co, line.id)).newChatQuota).toEqual({ total: 50, used: 0, endsAt: nextEnd });
  });

  it("a message WhatsApp refused keeps WhatsApp's code on it (463: reach-out restricted)", async () => {
    const co = await newCompany('refused463');
    const line = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Vendas' });
    const contact = await createContact(co.adminToken, { number: number(co) });
    const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: line.id });
    const sent = await api('POST', `/messages/${ticket.id}`, { token: co.adminToken, body: { body: 'oi' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const [out] = await eventually(async () => {
      const list = await phone(co.companyId, line.id).outbound();
      return list.length ? list : undefined;
    });
    await phone(co.companyId, line.id).refuse(out.wid, 463);
    const refused = await eventually(async () => {
      const list = (await api('GET', `/messages/${ticket.id}`, { token: co.adminToken })).body.messages as any[];
      const m = list.find((x) => x.id === sent.body.id);
      return m?.error ? m : undefined;
    });
    expect(refused.error).toBe('ERR_SENDING_WAPP_MSG');
    expect(refused.providerError).toMatchObject({ code: 463 });
  });

  it('while the lock holds, a first message to someone who never wrote is refused (ERR_REACHOUT_LOCKED); replies to customers who wrote go', async () => {
    const co = await newCompany('reachout-send');
    const line = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Vendas' });
    const customer = number(co);
    await phone(co.companyId, line.id).send({ from: customer, body: 'oi, tudo bem?' });
    const written = await eventually(async () => {
      const list = await api('GET', '/tickets?status=pending&showAll=true', { token: co.adminToken });
      return (list.body.tickets as any[])[0];
    });
    const until = new Date(Date.now() + HOUR).toISOString();
    await phone(co.companyId, line.id).restrict({ reachoutLock: { active: true, until } });
    await queuesIdle();

    const stranger = await createContact(co.adminToken, { number: number(co) });
    const fresh = await createTicket(co.adminToken, { contactId: stranger.id, whatsappId: line.id });
    const refused = await api('POST', `/messages/${fresh.id}`, { token: co.adminToken, body: { body: 'Olá!' } });
    expect([refused.status, refused.body.error, refused.body.details?.until]).toEqual([
      409,
      'ERR_REACHOUT_LOCKED',
      until,
    ]);
    expect((await api('GET', `/messages/${fresh.id}`, { token: co.adminToken })).body.messages).toEqual([]);

    const reply = await api('POST', `/messages/${written.id}`, { token: co.adminToken, body: { body: 'Tudo sim!' } });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    // once lifted, the new chat goes
    await phone(co.companyId, line.id).restrict({ reachoutLock: { active: false } });
    await queuesIdle();
    const after = await api('POST', `/messages/${fresh.id}`, { token: co.adminToken, body: { body: 'Olá!' } });
    expect(after.status, JSON.stringify(after.body)).toBe(201);
  });
});
