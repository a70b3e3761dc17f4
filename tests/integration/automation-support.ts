import { expect } from 'vitest';
import { api, queuesIdle, type TestCompany } from './helpers';
import { createContact, createQueue, createUser, createWhatsapp } from './fixtures';

/** Shared set-up of the automation tests: a company with a line, two queues, an attendant, tags. */
export function ok<T = any>(res: { status: number; body: any }, expected: number, what: string): T {
  if (res.status !== expected) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

let n = 0;
export async function createTag(co: TestCompany, name = `Tag ${Date.now()}-${n++}`) {
  return ok<{ id: number; name: string }>(
    await api('POST', '/tags', { token: co.adminToken, body: { name, color: '#123456' } }),
    201,
    'tag',
  );
}

export async function automationTeam(co: TestCompany) {
  const whatsapp = await createWhatsapp(co);
  const queue = await createQueue(co.adminToken);
  const other = await createQueue(co.adminToken);
  const ana = await createUser(co, { name: 'Ana', queueIds: [queue.id, other.id] });
  return { co, whatsapp, queue, other, ana };
}
export type AutomationTeam = Awaited<ReturnType<typeof automationTeam>>;

export const rule = async (co: TestCompany, body: Record<string, unknown>) =>
  ok<{ id: number; [k: string]: any }>(
    await api('POST', '/automation-rules', { token: co.adminToken, body }),
    201,
    'rule',
  );

/** An open ticket of a new contact (POST /tickets, the admin's): `ticket_created` fires. */
export async function newTicket(tm: AutomationTeam, fields: Record<string, unknown> = {}) {
  const contact = await createContact(tm.co.adminToken, { name: 'Maria Souza' });
  const ticket = ok<{ id: number; contactId: number }>(
    await api('POST', '/tickets', {
      token: tm.co.adminToken,
      body: { status: 'open', contactId: contact.id, whatsappId: tm.whatsapp.id, queueId: tm.queue.id, ...fields },
    }),
    201,
    'ticket',
  );
  await queuesIdle(tm.co.companyId);
  return { ...ticket, contact };
}

export async function ticketNow(co: TestCompany, id: number) {
  return ok<any>(await api('GET', `/tickets/${id}`, { token: co.adminToken }), 200, 'ticket');
}

export async function runsOfTicket(co: TestCompany, id: number, token = co.adminToken) {
  const res = await api('GET', `/tickets/${id}/automation-runs`, { token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.runs as any[];
}
