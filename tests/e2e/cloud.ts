import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { apiCall, baseUrl } from './browser';

/**
 * Cloud API connections in browser tests. Meta's side is the local stack's fake
 * (infra/local/meta-fake.ts): `meta` calls its hooks; `cloudConnection` scripts a number there and
 * adds the connection for it through the API, as an admin does.
 */
export async function meta<T = any>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/@meta${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json() as Promise<T>;
}

export const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');

/** A number scripted in the fake (`script`: templates, qualityRating, messagingLimit ...) and its connection "Oficial". */
export async function cloudConnection(token: string, script: Record<string, unknown> = {}) {
  const phoneNumberId = `1${digits(14)}`;
  const wabaId = `2${digits(14)}`;
  const accessToken = `EAAG${randomBytes(24).toString('hex')}`;
  const appSecret = randomBytes(16).toString('hex');
  await meta('/_script', {
    phoneNumberId,
    accessToken,
    appSecret,
    wabaId,
    displayPhoneNumber: '+55 11 4000-1234',
    ...script,
  });
  const line = await apiCall('POST', '/whatsapp', {
    token,
    body: { name: 'Oficial', provider: 'cloud', phoneNumberId, wabaId, accessToken, appSecret },
  });
  expect(line.status, JSON.stringify(line.body)).toBe(201);
  return { id: line.body.id as number, phoneNumberId, wabaId };
}
