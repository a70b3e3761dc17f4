import { describe, expect, it } from 'vitest';
import { api, baseUrl, newCompany, queuesIdle, realtimeClient, runTimer, table, usesTimers } from './helpers';
import { createUser } from './fixtures';
import { eventually, rawTable } from './whatsapp-sim';
import { cloudLine, conversation, meta, sendText, storedMessage, type CloudLine } from './cloud-fixtures';
import { messageKeysOfId } from '../../functions/lib/messages/repo';
import type { TestCompany } from './helpers';

usesTimers('cloud-status');

/**
 * What a Cloud API number costs and how healthy it is (issue 36, item 7) over HTTP against the local
 * stack: Meta's per-message pricing counted once per message by month and category; the number's
 * quality events and messaging limit from Meta's webhook and the hourly check; the company's admins
 * told (Web Push, through the push service fake) when the number's health gets worse.
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

/** A device subscribed before `connectionAlert` existed: only the four older preferences are sent. */
async function device(token: string, preferences: Record<string, boolean> = {}) {
  const { publicKey } = (await api('GET', '/push/config', { token })).body;
  const sub = await pushService<{ id: string; endpoint: string; keys: object }>('POST', '/subscriptions', {
    applicationServerKey: publicKey,
  });
  const res = await api('POST', '/push/subscriptions', {
    token,
    body: {
      endpoint: sub.endpoint,
      keys: sub.keys,
      device: 'Phone',
      preferences: { pendingTicket: true, ticketMessage: true, chatMention: true, slaBreach: true, ...preferences },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return sub;
}
const received = async (d: { id: string }) =>
  (await pushService<{ messages: any[] }>('GET', `/subscriptions/${d.id}/messages`)).messages.filter(
    (m) => m.payload?.kind === 'connectionAlert',
  );

const connection = async (co: TestCompany, line: CloudLine) =>
  (await api('GET', `/whatsapp/${line.id}`, { token: co.adminToken })).body as Record<string, any>;
const usage = (co: TestCompany, line: CloudLine, token = co.adminToken) =>
  api('GET', `/whatsapp/${line.id}/usage`, { token });
const quality = (line: CloudLine, fields: Record<string, unknown>) =>
  meta('/_qualityUpdate', { phoneNumberId: line.phoneNumberId, ...fields });

describe("a Cloud API number's cost and health", () => {
  it("counts each message Meta prices once, by month and category, charged or free; only the company's admins read it", async () => {
    const { co, line, number, ticket } = await conversation('cloudusage');
    const first = await sendText(co, ticket.id, 'primeira');
    const second = await sendText(co, ticket.id, 'segunda');
    const wamidOf = (id: string) =>
      eventually(async () => (await storedMessage(co, ticket.id, id))?.wid as string | undefined);
    const [w1, w2] = [await wamidOf(first.id), await wamidOf(second.id)];
    const status = (wamid: string, s: string, pricing: Record<string, unknown>) =>
      meta('/_status', { phoneNumberId: line.phoneNumberId, wamid, recipient: number, status: s, pricing });
    // Meta prices each status of a message: sent, delivered, read, and redelivers some
    const service = { category: 'service', type: 'free_customer_service' };
    for (const s of ['sent', 'delivered', 'read', 'delivered']) await status(w1, s, service);
    const marketing = { category: 'marketing', type: 'regular' };
    for (const s of ['sent', 'sent', 'read']) await status(w2, s, marketing);
    await queuesIdle();
    const month = new Date().toISOString().slice(0, 7);
    const answer = await usage(co, line);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { month, charged: { marketing: 1 }, free: { service: 1 }, totalCharged: 1, totalFree: 1 },
    ]);
    // the message keeps what it was priced as (and acks still moved forward)
    const keys = messageKeysOfId(co.companyId, second.id)!;
    expect(await table().get(keys.pk, keys.sk)).toMatchObject({
      pricing: { category: 'marketing', charged: true },
      ack: 3,
    });

    const attendant = await createUser(co);
    expect((await usage(co, line, attendant.token)).status).toBe(403);
    const stranger = await newCompany('cloudusage-other');
    const foreign = await usage(co, line, stranger.adminToken);
    expect([foreign.status, foreign.body.error]).toEqual([404, 'ERR_NO_WAPP_FOUND']);
  });

  it("Meta's quality webhook lands on the connection (never an older event over a newer), moves the campaign cap, and tells admins when it gets worse", async () => {
    const co = await newCompany('cloudquality');
    const admin = await device(co.adminToken);
    const mutedAdmin = await createUser(co, { profile: 'admin' });
    const muted = await device(mutedAdmin.token, { connectionAlert: false });
    const attendant = await createUser(co);
    const attendantDevice = await device(attendant.token);
    const line = await cloudLine(co, { messagingLimit: 'TIER_10K' });
    expect(await connection(co, line)).toMatchObject({ cloudMessagingLimit: 10_000, cloudQuality: 'GREEN' });
    const ws = await realtimeClient(co.adminToken);

    const t = Math.floor(Date.now() / 1000);
    await quality(line, { event: 'FLAGGED', time: t });
    const live = await ws.waitFor(
      (e) => e.event === `company-${co.companyId}-whatsapp` && e.data.whatsapp?.cloudQualityEvent === 'FLAGGED',
    );
    expect(live.data.whatsapp.id).toBe(line.id);
    const [told] = await eventually(async () => {
      const got = await received(admin);
      return got.length ? got : undefined;
    });
    expect(told.payload).toMatchObject({ kind: 'connectionAlert', url: '/connections' });
    expect(told.payload.title).toContain('Cloud line');
    // an older event arriving late changes nothing
    await quality(line, { event: 'UNFLAGGED', time: t - 100 });
    await queuesIdle();
    expect(await connection(co, line)).toMatchObject({ cloudQualityEvent: 'FLAGGED' });

    // the portfolio's limit falls: the campaign cap follows, the admins hear of it
    await quality(line, { event: 'DOWNGRADE', limit: 'TIER_2K', time: t + 10 });
    await queuesIdle();
    expect(await connection(co, line)).toMatchObject({ cloudQualityEvent: 'DOWNGRADE', cloudMessagingLimit: 2000 });
    const limits = (await api('GET', '/campaigns/limits', { token: co.adminToken })).body;
    expect(limits.find((l: any) => l.whatsappId === line.id).dailyCap).toBe(2000);
    await eventually(async () => (await received(admin)).length === 2);
    // a rise is good news: nobody is woken for it
    await quality(line, { event: 'UPGRADE', limit: 'TIER_UNLIMITED', time: t + 20 });
    await queuesIdle();
    expect(await connection(co, line)).toMatchObject({ cloudMessagingLimit: -1 });
    expect((await api('GET', '/campaigns/limits', { token: co.adminToken })).body[0].dailyCap).toBeNull();
    expect(await received(admin)).toHaveLength(2);
    expect(await received(muted)).toEqual([]);
    expect(await received(attendantDevice)).toEqual([]);
    ws.close();
  });

  it("the hourly check reads the number's quality rating: a fall is told to the admins, a rise is not", async () => {
    const co = await newCompany('cloudrating');
    const admin = await device(co.adminToken);
    const line = await cloudLine(co);
    const check = async () => {
      const [armed] = (await rawTable().query(`CLOUDCHECK#${(co.companyId + line.id) % 2}`)).filter(
        (i) => i.companyId === co.companyId && i.whatsappId === line.id,
      );
      const dueAt = '2000-01-01T00:00:00.000Z';
      await rawTable().del(armed!.pk, armed!.sk);
      await rawTable().put({ ...armed, dueAt, sk: `${dueAt}#${co.companyId}#${line.id}` });
      await runTimer('cloud-status');
      await queuesIdle();
    };
    await meta('/_script', { phoneNumberId: line.phoneNumberId, qualityRating: 'YELLOW' });
    await check();
    expect(await connection(co, line)).toMatchObject({ cloudQuality: 'YELLOW', status: 'CONNECTED' });
    const [told] = await eventually(async () => {
      const got = await received(admin);
      return got.length ? got : undefined;
    });
    expect(told.payload.body).toMatch(/média/);
    await meta('/_script', { phoneNumberId: line.phoneNumberId, qualityRating: 'GREEN' });
    await check();
    expect(await connection(co, line)).toMatchObject({ cloudQuality: 'GREEN' });
    expect(await received(admin)).toHaveLength(1);
  });
});
