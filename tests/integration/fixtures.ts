import { randomUUID } from 'node:crypto';
import { api, login, type TestCompany } from './helpers';
import { connectedWhatsapp } from './whatsapp-sim';

/** Shared set-up through the API for the attendance tests (contacts, queues, users, tickets). */

const unique = () => randomUUID().slice(0, 8);
/** A fresh 12-digit number (digits only, as contacts store it). */
export const randomNumber = () => `5511${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;

function ok<T = any>(res: { status: number; body: any }, expected: number, what: string): T {
  if (res.status !== expected) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

export async function createContact(token: string, fields: Record<string, unknown> = {}) {
  return ok(
    await api('POST', '/contacts', { token, body: { name: `Contact ${unique()}`, number: randomNumber(), ...fields } }),
    201,
    'create contact',
  );
}

export async function createQueue(token: string, fields: Record<string, unknown> = {}) {
  const color = `#${Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, '0')}`;
  return ok(
    await api('POST', '/queue', { token, body: { name: `Queue ${unique()}`, color, ...fields } }),
    201,
    'create queue',
  );
}

/**
 * A connection paired with its simulated phone, so messages sent in a test are delivered and the
 * command queue drains (a send on an unpaired connection waits for the session before failing).
 */
export async function createWhatsapp(co: TestCompany, fields: Record<string, unknown> = {}) {
  return connectedWhatsapp(co.adminToken, co.companyId, { name: `Line ${unique()}`, ...fields });
}

/** A user of the company (POST /users), logged in. */
export async function createUser(co: TestCompany, fields: Record<string, unknown> = {}) {
  const body = {
    name: `Agent ${unique()}`,
    email: `agent-${unique()}@test.dev`,
    password: 'secret123',
    profile: 'user',
    ...fields,
  };
  const user = ok(await api('POST', '/users', { token: co.adminToken, body }), 201, 'create user');
  const session = await login(body.email as string, body.password as string);
  return { user, id: user.id as number, token: session.token, email: body.email as string };
}

/** A ticket opened by the token's user (POST /tickets). */
export async function createTicket(
  token: string,
  fields: { contactId: number; whatsappId: number; queueId?: number | null; userId?: number | null },
) {
  return ok(await api('POST', '/tickets', { token, body: { status: 'open', ...fields } }), 201, 'create ticket');
}

/** A pending ticket in a queue: opened, then transferred to the queue without a user. */
export async function createPendingTicket(
  token: string,
  fields: { contactId: number; whatsappId: number; queueId: number },
) {
  const opened = await createTicket(token, fields);
  return ok(
    await api('PUT', `/tickets/${opened.id}`, {
      token,
      body: { status: 'pending', userId: null, queueId: fields.queueId },
    }),
    200,
    'return ticket',
  );
}

/** A company with a connection, two queues, and an attendant in each queue. */
export async function attendanceCompany(co: TestCompany) {
  const whatsapp = await createWhatsapp(co);
  const queueA = await createQueue(co.adminToken);
  const queueB = await createQueue(co.adminToken);
  const agentA = await createUser(co, { queueIds: [queueA.id] });
  const agentB = await createUser(co, { queueIds: [queueB.id] });
  return { whatsapp, queueA, queueB, agentA, agentB };
}
