import { describe, it, expect } from 'vitest';
import { api, newCompany, queuesIdle, runTimer, sleep, type TestCompany, usesTimers } from './helpers';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';

usesTimers('schedules');

/** "Cancel if the customer writes first": a schedule that asks for it is not sent once the contact wrote. */

let seq = 0;
const numberOf = (co: TestCompany) => `55317${String(co.companyId).padStart(4, '0')}${String(++seq).padStart(4, '0')}`;

async function contactByNumber(co: TestCompany, number: string) {
  return eventually(async () => {
    const res = await api('GET', `/contacts?searchParam=${number}`, { token: co.adminToken });
    return res.body.contacts?.find((c: any) => c.number === number) as { id: number } | undefined;
  });
}

async function addContact(co: TestCompany, name: string) {
  const res = await api('POST', '/contacts', { token: co.adminToken, body: { name, number: numberOf(co) } });
  expect(res.status).toBe(201);
  return res.body as { id: number; number: string };
}

async function addSchedule(co: TestCompany, contactId: number, body: string, extra: Record<string, unknown> = {}) {
  const res = await api('POST', '/schedules', {
    token: co.adminToken,
    body: { body, contactId, sendAt: new Date(Date.now() - 1000).toISOString(), ...extra },
  });
  expect(res.status).toBe(201);
  return res.body;
}

const getSchedule = async (co: TestCompany, id: number) =>
  (await api('GET', `/schedules/${id}`, { token: co.adminToken })).body;

async function tick() {
  await runTimer('schedules');
  await queuesIdle();
}

const bodiesSent = async (co: TestCompany, whatsappId: number) =>
  (await phone(co.companyId, whatsappId).outbound()).map((o: any) => o.body as string);

describe('schedules: cancel if the customer writes first', () => {
  it('is off by default and must be a boolean (ERR_VALIDATION)', async () => {
    const co = await newCompany('scc-valid');
    const contact = await addContact(co, 'Ana Paula');
    const plain = await addSchedule(co, contact.id, 'Plain reminder');
    expect(plain.cancelIfCustomerWrites).toBe(false);
    const bad = await api('POST', '/schedules', {
      token: co.adminToken,
      body: { body: 'Some reminder', contactId: contact.id, sendAt: plain.sendAt, cancelIfCustomerWrites: 'yes' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    const edited = await api('PUT', `/schedules/${plain.id}`, {
      token: co.adminToken,
      body: { cancelIfCustomerWrites: true },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.cancelIfCustomerWrites).toBe(true);
  });

  it('a contact who writes after the schedule was saved cancels it (CANCELADA, reason customerWrote); others are sent', async () => {
    const co = await newCompany('scc-run');
    const line = await connectedWhatsapp(co.adminToken, co.companyId);
    const customer = numberOf(co);
    // an earlier conversation: written before the schedules exist, it cancels nothing
    await phone(co.companyId, line.id).send({ from: customer, pushName: 'Bruna', body: 'Oi, tudo bem?' });
    const contact = await contactByNumber(co, customer);
    const quiet = await addContact(co, 'Carlos Quieto');
    await sleep(1100);
    const guarded = await addSchedule(co, contact.id, 'Guarded reminder', { cancelIfCustomerWrites: true });
    const unguarded = await addSchedule(co, contact.id, 'Unguarded reminder');
    const notAnswered = await addSchedule(co, quiet.id, 'Reminder nobody answered', { cancelIfCustomerWrites: true });
    await sleep(1100);
    await phone(co.companyId, line.id).send({ from: customer, pushName: 'Bruna', body: 'Já resolvi, obrigada' });
    await queuesIdle();
    await tick();

    const canceled = await getSchedule(co, guarded.id);
    expect(canceled.status).toBe('CANCELADA');
    expect(canceled.cancelReason).toBe('customerWrote');
    expect(canceled.canceledAt).toBeTruthy();
    expect(canceled.sentAt).toBeNull();
    expect((await getSchedule(co, unguarded.id)).status).toBe('ENVIADA');
    expect((await getSchedule(co, notAnswered.id)).status).toBe('ENVIADA');
    const sent = await bodiesSent(co, line.id);
    expect(sent).toContain('Unguarded reminder');
    expect(sent).toContain('Reminder nobody answered');
    expect(sent).not.toContain('Guarded reminder');

    // saving a canceled schedule arms it again from now: the earlier message no longer cancels it
    await sleep(1100);
    const rearmed = await api('PUT', `/schedules/${guarded.id}`, {
      token: co.adminToken,
      body: { sendAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(rearmed.status).toBe(200);
    expect(rearmed.body.status).toBe('PENDENTE');
    expect(rearmed.body.cancelReason ?? null).toBeNull();
    await tick();
    expect((await getSchedule(co, guarded.id)).status).toBe('ENVIADA');
    expect(await bodiesSent(co, line.id)).toContain('Guarded reminder');
  });

  it("our own messages to the contact do not cancel it, only the contact's", async () => {
    const co = await newCompany('scc-own');
    const line = await connectedWhatsapp(co.adminToken, co.companyId);
    const contact = await addContact(co, 'Daniel Souza');
    const first = await addSchedule(co, contact.id, 'First reminder');
    const guarded = await addSchedule(co, contact.id, 'Second reminder', { cancelIfCustomerWrites: true });
    // both due now: the first one's send is a message from us in the same conversation
    await tick();
    expect((await getSchedule(co, first.id)).status).toBe('ENVIADA');
    expect((await getSchedule(co, guarded.id)).status).toBe('ENVIADA');
    expect(await bodiesSent(co, line.id)).toEqual(expect.arrayContaining(['First reminder', 'Second reminder']));
  });
});
