import type { PlanFeature } from '../../shared/plans';
import { api, baseUrl, newCompany, table, type TestCompany } from './helpers';

/** Test helpers for AI prompts and queue integrations: the local fakes' hooks and a plan without a feature. */
export async function fake<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as T;
}

const pad = (n: number) => String(n).padStart(10, '0');
let colour = 0;
export async function queue(token: string, name: string) {
  const res = await api('POST', '/queue', {
    token,
    body: {
      name: `${name} ${Math.random().toString(36).slice(2, 6)}`,
      color: `#${(0x200000 + colour++ * 7919 + Math.floor(Math.random() * 1e5)).toString(16).slice(-6)}`,
    },
  });
  if (res.status !== 201) throw new Error(`queue: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; name: string };
}

/** Moves the company to a plan of its own with `feature` off (plans are shared by the other tests). */
export async function withoutFeature(co: TestCompany, feature: PlanFeature) {
  const company = await table().get(`C#${co.companyId}`, 'COMPANY');
  const plan = await table().get('PLAN', `PLAN#${pad(company!.planId)}`);
  const planId = 900000 + Math.floor(Math.random() * 90000);
  const { pk: _pk, sk: _sk, ...fields } = plan!;
  await table().set('PLAN', `PLAN#${pad(planId)}`, {
    ...fields,
    id: planId,
    name: `No ${feature} ${planId}`,
    [feature]: false,
  });
  await table().set(`C#${co.companyId}`, 'COMPANY', { planId });
}

/** The pending ticket of a contact number, as the API lists it. */
export async function ticketOf(co: TestCompany, number: string) {
  for (const status of ['pending', 'open']) {
    const list = (await api('GET', `/tickets?status=${status}&showAll=true`, { token: co.adminToken })).body
      .tickets as any[];
    const found = list.find((t) => t.contact?.number === number);
    if (found) return found;
  }
  return undefined;
}

export async function notesOf(co: TestCompany, ticket: { id: number; contactId: number }) {
  return (
    await api('GET', `/ticket-notes/list?ticketId=${ticket.id}&contactId=${ticket.contactId}`, { token: co.adminToken })
  ).body as { note: string }[];
}

export { newCompany };
