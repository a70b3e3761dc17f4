import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import webpush from 'web-push';
import { startPushFake, type PushFake } from './push-fake';

let fake: PushFake;
const vapid = webpush.generateVAPIDKeys();
const subject = 'mailto:ops@example.com';

/** Calls the fake's control handler as the gateway does. */
async function control(method: string, path: string, body?: unknown): Promise<any> {
  let status = 0;
  let text = '';
  const res = {
    writeHead: (s: number) => {
      status = s;
      return res;
    },
    end: (t: string) => {
      text = t;
    },
  } as unknown as ServerResponse;
  const req = { method, url: `/@push${path}` } as IncomingMessage;
  await fake.control(req, res, Buffer.from(body === undefined ? '' : JSON.stringify(body)));
  return { status, body: text ? JSON.parse(text) : undefined };
}

async function push(
  sub: { endpoint: string; keys: { p256dh: string; auth: string } },
  payload: string,
  opts: { keys?: webpush.VapidKeys; audienceOf?: string; tamper?: boolean } = {},
) {
  const keys = opts.keys ?? vapid;
  const details = webpush.generateRequestDetails({ ...sub, endpoint: opts.audienceOf ?? sub.endpoint }, payload, {
    vapidDetails: { subject, ...keys },
    TTL: 60,
    urgency: 'high',
    contentEncoding: 'aes128gcm',
  });
  const body = Buffer.from(details.body);
  if (opts.tamper) body[body.length - 1]! ^= 1;
  const headers = Object.fromEntries(
    Object.entries(details.headers)
      .filter(([k]) => k.toLowerCase() !== 'content-length')
      .map(([k, v]) => [k, String(v)]),
  );
  return fetch(sub.endpoint, { method: 'POST', headers, body: new Uint8Array(body) });
}

beforeAll(async () => {
  fake = await startPushFake();
});
afterAll(() => fake.close());

describe('local push service fake', () => {
  it('decrypts what web-push encrypted for a subscription it made, and checks the VAPID header', async () => {
    const sub = (await control('POST', '/subscriptions', { applicationServerKey: vapid.publicKey })).body;
    expect(sub.endpoint).toBe(`${fake.origin}/push/${sub.id}`);
    const res = await push(sub, JSON.stringify({ title: 'Olá', body: 'ção ✓' }));
    expect(res.status).toBe(201);
    const { messages, rejected } = (await control('GET', `/subscriptions/${sub.id}/messages`)).body;
    expect(rejected).toEqual([]);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      ttl: 60,
      urgency: 'high',
      payload: { title: 'Olá', body: 'ção ✓' },
      vapid: { aud: fake.origin, sub: subject, k: vapid.publicKey },
    });
  });

  it('refuses a tampered body, another VAPID key, a JWT for another origin; 404 unknown, 410 gone, scripted status', async () => {
    const sub = (await control('POST', '/subscriptions', { applicationServerKey: vapid.publicKey })).body;
    expect((await push(sub, 'x', { tamper: true })).status).toBe(400);
    expect((await push(sub, 'x', { keys: webpush.generateVAPIDKeys() })).status).toBe(403);
    expect((await push(sub, 'x', { audienceOf: 'http://127.0.0.1:1/push/a' })).status).toBe(403);
    const { messages, rejected } = (await control('GET', `/subscriptions/${sub.id}/messages`)).body;
    expect(messages).toEqual([]);
    expect(rejected.map((r: { reason: string }) => r.reason)).toEqual([
      'does not decrypt (wrong keys, or tampered)',
      'k is not the key the subscription was made with',
      `jwt aud http://127.0.0.1:1 is not ${fake.origin}`,
    ]);

    expect((await push({ ...sub, endpoint: `${fake.origin}/push/unknown` }, 'x')).status).toBe(404);
    await control('POST', `/subscriptions/${sub.id}/status`, { status: 503 });
    expect((await push(sub, 'x')).status).toBe(503);
    await control('POST', `/subscriptions/${sub.id}/status`, { status: null });
    expect((await push(sub, 'x')).status).toBe(201);
    await control('POST', `/subscriptions/${sub.id}/gone`);
    expect((await push(sub, 'x')).status).toBe(410);
  });

  it('a signature that does not verify under k is refused', async () => {
    // no bound key: only the signature check stands between a forged k and a delivery
    const sub = (await control('POST', '/subscriptions')).body;
    const details = webpush.generateRequestDetails(sub, 'x', {
      vapidDetails: { subject, ...vapid },
      TTL: 60,
      contentEncoding: 'aes128gcm',
    });
    const other = webpush.generateVAPIDKeys();
    const forged = String(details.headers.Authorization).replace(/k=.*$/, `k=${other.publicKey}`);
    const res = await fetch(sub.endpoint, {
      method: 'POST',
      headers: {
        ...Object.fromEntries(Object.entries(details.headers).map(([k, v]) => [k, String(v)])),
        Authorization: forged,
      },
      body: new Uint8Array(details.body),
    });
    expect(res.status).toBe(403);
  });
});
