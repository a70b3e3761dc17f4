import { expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import { api, baseUrl, newCompany, type TestCompany } from './helpers';
import { eventually } from './whatsapp-sim';

/**
 * Cloud API connections in integration tests: Meta's side is infra/local/meta-fake.ts (scripted
 * numbers, signed webhooks, the Graph calls it answered), our side the HTTP API.
 */

export async function meta<T = any>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}/@meta${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as T;
}

export const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');
export const customer = () => `55119${digits(8)}`;

export interface CloudLine {
  id: number;
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  created: Record<string, any>;
}

/** A number scripted in the fake (Meta's side), then a Cloud API connection for it. */
export async function cloudLine(
  co: TestCompany,
  script: Record<string, unknown> = {},
  body: Record<string, unknown> = {},
) {
  const phoneNumberId = `1${digits(14)}`;
  const accessToken = `EAAG${randomBytes(24).toString('hex')}`;
  const appSecret = randomBytes(16).toString('hex');
  // Meta's side and ours name the same business account (its templates are listed by it)
  const wabaId = String(body.wabaId ?? script.wabaId ?? `2${digits(14)}`);
  await meta('/_script', {
    phoneNumberId,
    accessToken,
    appSecret,
    wabaId,
    displayPhoneNumber: '+55 11 4000-1234',
    ...script,
  });
  const res = await api('POST', '/whatsapp', {
    token: co.adminToken,
    body: {
      name: 'Cloud line',
      provider: 'cloud',
      phoneNumberId,
      wabaId,
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

export const inbound = (line: CloudLine, fields: Record<string, unknown>) =>
  meta<{ wamid: string; payload: any; delivered: { status: number; body: any } }>('/_inbound', {
    phoneNumberId: line.phoneNumberId,
    ...fields,
  });

export async function ticketsOf(co: TestCompany) {
  const res = await api('GET', '/tickets?showAll=true&status=pending', { token: co.adminToken });
  return res.body.tickets as any[];
}

export async function messagesOf(co: TestCompany, ticketId: number) {
  return (await api('GET', `/messages/${ticketId}?limit=100`, { token: co.adminToken })).body.messages as any[];
}

/** A cloud line with an open ticket (the admin's) for a customer of a known number. */
export async function conversation(label: string, script: Record<string, unknown> = {}) {
  const co = await newCompany(label);
  const line = await cloudLine(co, script);
  const number = customer();
  // the customer writes first: the sends below need their 24-hour window open
  await inbound(line, { from: number, text: 'oi' });
  const [pending] = await eventually(async () => {
    const list = await ticketsOf(co);
    return list.length ? list : undefined;
  });
  const accepted = await api('PUT', `/tickets/${pending.id}`, {
    token: co.adminToken,
    body: { status: 'open', userId: co.admin.id },
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  return { co, line, number, ticket: { id: pending.id as number } };
}

export async function sendText(co: TestCompany, ticketId: number, body: string) {
  const res = await api('POST', `/messages/${ticketId}`, { token: co.adminToken, body: { body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; wid: string };
}

export const sendsTo = async (line: CloudLine) =>
  (await meta<any[]>('/_requests')).filter(
    (r) => r.method === 'POST' && r.path.endsWith(`/${line.phoneNumberId}/messages`),
  );

export const storedMessage = async (co: TestCompany, ticketId: number, id: string) =>
  (await messagesOf(co, ticketId)).find((m) => m.id === id);
