import { describe, it, expect } from 'vitest';
import {
  api,
  newCompany,
  queuesIdle,
  realtimeClient,
  runTimer,
  sleep,
  table,
  type TestCompany,
  usesTimers,
} from './helpers';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';

usesTimers('schedules');

let contactSeq = 0;
/** A contact of the company (POST /contacts), with a number unique to the test. */
async function addContact(co: TestCompany, name = 'Maria da Silva') {
  const number = `55119${String(co.companyId).padStart(4, '0')}${String(++contactSeq).padStart(4, '0')}`;
  const res = await api('POST', '/contacts', { token: co.adminToken, body: { name, number } });
  if (res.status !== 201) throw new Error(`create contact failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id as number, name, number: res.body.number as string };
}

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

async function addSchedule(co: TestCompany, contactId: number, fields: Record<string, unknown> = {}) {
  const res = await api('POST', '/schedules', {
    token: co.adminToken,
    body: { body: 'Hello there, see you soon', contactId, sendAt: inMinutes(60), ...fields },
  });
  if (res.status !== 201) throw new Error(`create schedule failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const getSchedule = async (co: TestCompany, id: number) =>
  (await api('GET', `/schedules/${id}`, { token: co.adminToken })).body;

/** Runs the due timer and waits until every queue (schedules, session commands, inbound) is idle. */
async function tick() {
  await runTimer('schedules');
  await queuesIdle();
}

const image = (name: string, type = 'image/png') => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array([137, 80, 78, 71])], { type }), name);
  return form;
};

describe('schedules', () => {
  it('the plan feature useSchedules gates every schedule route (ERR_PLAN_FEATURE_DISABLED)', async () => {
    const co = await newCompany('sc-plan');
    await table().set('PLAN', 'PLAN#0000000777', {
      id: 777,
      name: 'No schedules',
      users: 5,
      connections: 5,
      queues: 5,
      value: 10,
      useCampaigns: true,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
      useSchedules: false,
      useInternalChat: true,
      useExternalApi: true,
    });
    await table().set(`C#${co.companyId}`, 'COMPANY', { planId: 777 });
    for (const [method, path] of [
      ['GET', '/schedules'],
      ['GET', '/schedules/1'],
      ['POST', '/schedules'],
      ['PUT', '/schedules/1'],
      ['DELETE', '/schedules/1'],
    ] as const) {
      const res = await api(method, path, {
        token: co.adminToken,
        body: method === 'POST' || method === 'PUT' ? {} : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    }
  });

  it('validation of section 5: body at least 5 characters, contactId and sendAt required (ERR_VALIDATION)', async () => {
    const co = await newCompany('sc-valid');
    const res = await api('POST', '/schedules', { token: co.adminToken, body: { body: 'Hi!' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.details.map((d: any) => d.path[0]).sort()).toEqual(['body', 'contactId', 'sendAt']);
    const badDate = await api('POST', '/schedules', {
      token: co.adminToken,
      body: { body: 'Hello world', contactId: 1, sendAt: 'tomorrow-ish' },
    });
    expect(badDate.body.details.map((d: any) => d.path[0])).toEqual(['sendAt']);
  });

  it("the contact must be the company's own (ERR_NO_CONTACT_FOUND for another company's contact)", async () => {
    const co = await newCompany('sc-contact');
    const other = await newCompany('sc-contact-other');
    const theirs = await addContact(other);
    const res = await api('POST', '/schedules', {
      token: co.adminToken,
      body: { body: 'Hello world', contactId: theirs.id, sendAt: inMinutes(5) },
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe('ERR_NO_CONTACT_FOUND');
  });

  it('a new schedule waits (PENDENTE, no sentAt) and shows its contact; the list searches body and contact name and pages', async () => {
    const co = await newCompany('sc-list');
    const maria = await addContact(co, 'Maria Souza');
    const joao = await addContact(co, 'João Lima');
    const created = await addSchedule(co, maria.id, { body: 'Your order ships today' });
    expect(created).toMatchObject({
      status: 'PENDENTE',
      sentAt: null,
      contactId: maria.id,
      userId: co.admin.id,
      contact: { id: maria.id, name: 'Maria Souza', number: maria.number },
    });
    await addSchedule(co, joao.id, { body: 'Payment reminder for you' });
    await addSchedule(co, joao.id, { body: 'Another reminder here' });
    expect((await getSchedule(co, created.id)).contact.name).toBe('Maria Souza');
    const byBody = await api('GET', '/schedules?searchParam=REMINDER', { token: co.adminToken });
    expect(byBody.body.schedules).toHaveLength(2);
    const byContact = await api('GET', '/schedules?searchParam=maria', { token: co.adminToken });
    expect(byContact.body.schedules.map((s: any) => s.id)).toEqual([created.id]);
    const byContactId = await api('GET', `/schedules?contactId=${joao.id}`, { token: co.adminToken });
    expect(byContactId.body.schedules).toHaveLength(2);
    const first = await api('GET', '/schedules?limit=2', { token: co.adminToken });
    expect(first.body).toMatchObject({ hasMore: true });
    expect(first.body.schedules).toHaveLength(2);
    const next = await api('GET', `/schedules?limit=2&cursor=${encodeURIComponent(first.body.cursor)}`, {
      token: co.adminToken,
    });
    expect(next.body.schedules).toHaveLength(1);
  });

  it('a due schedule is sent once through the default connection with its variables filled; ENVIADA with sentAt; a future one waits', async () => {
    const co = await newCompany('sc-send');
    const wapp = await connectedWhatsapp(co.adminToken, co.companyId);
    const contact = await addContact(co, 'Maria da Silva');
    // due an hour ago: the system was "down" when it fell due
    const due = await addSchedule(co, contact.id, {
      body: 'Olá {{firstName}}! Seu pedido, {{name}}, sai hoje.',
      sendAt: inMinutes(-60),
    });
    const later = await addSchedule(co, contact.id, { sendAt: inMinutes(30) });
    await tick();
    const sent = await eventually(async () => {
      const s = await getSchedule(co, due.id);
      return s.status === 'ENVIADA' ? s : undefined;
    });
    expect(sent.sentAt).toEqual(expect.any(String));
    expect(sent.ticketId).toEqual(expect.any(Number));
    const out = await eventually(async () => {
      const list = await phone(co.companyId, wapp.id).outbound();
      return list.length ? list : undefined;
    });
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      to: `${contact.number}@s.whatsapp.net`,
      body: 'Olá Maria! Seu pedido, Maria da Silva, sai hoje.',
    });
    expect((await getSchedule(co, later.id)).status).toBe('PENDENTE');
    // more timer runs never send it again
    await tick();
    await tick();
    expect(await phone(co.companyId, wapp.id).outbound()).toHaveLength(1);
  });

  it('two timer runs at once claim a due schedule only once (never sent twice)', async () => {
    const co = await newCompany('sc-race');
    const wapp = await connectedWhatsapp(co.adminToken, co.companyId);
    const contact = await addContact(co);
    const s = await addSchedule(co, contact.id, { sendAt: inMinutes(-1) });
    await Promise.all([runTimer('schedules'), runTimer('schedules'), runTimer('schedules')]);
    await queuesIdle();
    await eventually(async () => (await getSchedule(co, s.id)).status === 'ENVIADA');
    await sleep(300);
    await queuesIdle();
    expect(await phone(co.companyId, wapp.id).outbound()).toHaveLength(1);
  });

  it('at most once: a schedule whose earlier send attempt was interrupted is marked ERRO, never sent again', async () => {
    const co = await newCompany('sc-once');
    const wapp = await connectedWhatsapp(co.adminToken, co.companyId);
    const contact = await addContact(co);
    const s = await addSchedule(co, contact.id, { sendAt: inMinutes(-1) });
    // what a sender that died between starting the send and recording it leaves behind
    await table().set(`C#${co.companyId}`, `SCHEDULE#${String(s.id).padStart(10, '0')}`, {
      sendingAt: new Date().toISOString(),
    });
    await tick();
    const failed = await eventually(async () => {
      const current = await getSchedule(co, s.id);
      return current.status === 'ERRO' ? current : undefined;
    });
    expect(failed).toMatchObject({ sentAt: null, error: 'ERR_SENDING_WAPP_MSG' });
    expect(await phone(co.companyId, wapp.id).outbound()).toHaveLength(0);
    // an edit arms it again, and then it goes out once
    await api('PUT', `/schedules/${s.id}`, { token: co.adminToken, body: { sendAt: inMinutes(-1) } });
    await tick();
    await eventually(async () => (await getSchedule(co, s.id)).status === 'ENVIADA');
    expect(await phone(co.companyId, wapp.id).outbound()).toHaveLength(1);
  });

  it('a sent schedule can no longer be edited or get media (ERR_VALIDATION on sentAt); it can be deleted', async () => {
    const co = await newCompany('sc-sent');
    await connectedWhatsapp(co.adminToken, co.companyId);
    const contact = await addContact(co);
    const s = await addSchedule(co, contact.id, { sendAt: inMinutes(-1) });
    await tick();
    await eventually(async () => (await getSchedule(co, s.id)).status === 'ENVIADA');
    const put = await api('PUT', `/schedules/${s.id}`, { token: co.adminToken, body: { body: 'Changed text here' } });
    expect(put.status).toBe(400);
    expect(put.body).toMatchObject({ error: 'ERR_VALIDATION', details: [{ path: ['sentAt'] }] });
    expect(
      (await api('POST', `/schedules/${s.id}/media-upload`, { token: co.adminToken, body: image('a.png') })).status,
    ).toBe(400);
    expect((await api('DELETE', `/schedules/${s.id}`, { token: co.adminToken })).status).toBe(200);
    expect((await api('GET', `/schedules/${s.id}`, { token: co.adminToken })).status).toBe(404);
  });

  it('a send that keeps failing ends as ERRO after the retries, without sentAt; editing it arms it again', async () => {
    const co = await newCompany('sc-error');
    // no connection at all: every attempt fails with ERR_NO_DEF_WAPP_FOUND
    const contact = await addContact(co);
    const s = await addSchedule(co, contact.id, { sendAt: inMinutes(-5) });
    await tick();
    const failed = await eventually(async () => {
      const current = await getSchedule(co, s.id);
      return current.status === 'ERRO' ? current : undefined;
    });
    expect(failed).toMatchObject({ sentAt: null, error: 'ERR_NO_DEF_WAPP_FOUND' });
    expect((await table().get(`C#${co.companyId}`, `SCHEDULE#${String(s.id).padStart(10, '0')}`))?.attempts).toBe(4);
    const edited = await api('PUT', `/schedules/${s.id}`, { token: co.adminToken, body: { sendAt: inMinutes(10) } });
    expect(edited.status).toBe(200);
    expect(edited.body.status).toBe('PENDENTE');
    expect(edited.body.error).toBeUndefined();
  });

  it('moving sendAt into the future before it is due keeps it from being sent', async () => {
    const co = await newCompany('sc-move');
    const wapp = await connectedWhatsapp(co.adminToken, co.companyId);
    const contact = await addContact(co);
    const s = await addSchedule(co, contact.id, { sendAt: inMinutes(-1) });
    const moved = await api('PUT', `/schedules/${s.id}`, {
      token: co.adminToken,
      body: { sendAt: inMinutes(120), body: 'New text, later' },
    });
    expect(moved.body).toMatchObject({ status: 'PENDENTE', body: 'New text, later' });
    await tick();
    await sleep(200);
    expect((await getSchedule(co, s.id)).status).toBe('PENDENTE');
    expect(await phone(co.companyId, wapp.id).outbound()).toHaveLength(0);
  });

  it('schedule media accepts png, jpg and jpeg only; it is sent with the message; delete removes it', async () => {
    const co = await newCompany('sc-media');
    const wapp = await connectedWhatsapp(co.adminToken, co.companyId);
    const contact = await addContact(co);
    const s = await addSchedule(co, contact.id);
    const gif = await api('POST', `/schedules/${s.id}/media-upload`, {
      token: co.adminToken,
      body: image('anim.gif', 'image/gif'),
    });
    expect(gif.status).toBe(400);
    expect(gif.body.error).toBe('ERR_VALIDATION');
    const jpg = await api('POST', `/schedules/${s.id}/media-upload`, {
      token: co.adminToken,
      body: image('photo 1.JPG', 'image/jpeg'),
    });
    expect(jpg.status).toBe(200);
    expect(jpg.body).toMatchObject({ mediaName: 'photo_1.JPG' });
    expect(jpg.body.mediaPath).toMatch(new RegExp(`^company${co.companyId}/`));
    const removed = await api('DELETE', `/schedules/${s.id}/media-upload`, { token: co.adminToken });
    expect(removed.body).toMatchObject({ mediaPath: null, mediaName: null });
    const png = await api('POST', `/schedules/${s.id}/media-upload`, { token: co.adminToken, body: image('card.png') });
    expect(png.body.mediaName).toBe('card.png');
    await api('PUT', `/schedules/${s.id}`, { token: co.adminToken, body: { sendAt: inMinutes(-1) } });
    await tick();
    const out = await eventually(async () => {
      const list = await phone(co.companyId, wapp.id).outbound();
      return list.length ? list : undefined;
    });
    expect(out[0].media).toMatchObject({ mimetype: 'image/png', fileName: 'card.png', kind: 'image' });
  });

  it('schedule events (create, update, delete) reach the own company and never another company', async () => {
    const co = await newCompany('sc-events');
    const other = await newCompany('sc-events-other');
    const mine = await realtimeClient(co.adminToken);
    const theirs = await realtimeClient(other.adminToken);
    const contact = await addContact(co);
    const s = await addSchedule(co, contact.id);
    const name = `company-${co.companyId}-schedule`;
    expect((await mine.waitFor((e) => e.event === name && e.data.action === 'create')).data.schedule.id).toBe(s.id);
    await api('PUT', `/schedules/${s.id}`, { token: co.adminToken, body: { body: 'Updated message' } });
    expect((await mine.waitFor((e) => e.event === name && e.data.action === 'update')).data.schedule.body).toBe(
      'Updated message',
    );
    await api('DELETE', `/schedules/${s.id}`, { token: co.adminToken });
    expect((await mine.waitFor((e) => e.event === name && e.data.action === 'delete')).data.scheduleId).toBe(s.id);
    await sleep(200);
    expect(theirs.events.filter((e) => e.event.endsWith('-schedule'))).toEqual([]);
    mine.close();
    theirs.close();
  });

  it("another company's schedule ids are 404 on every schedule route", async () => {
    const a = await newCompany('sc-iso-a');
    const b = await newCompany('sc-iso-b');
    const contact = await addContact(a);
    const s = await addSchedule(a, contact.id);
    expect((await api('GET', `/schedules/${s.id}`, { token: b.adminToken })).status).toBe(404);
    expect(
      (await api('PUT', `/schedules/${s.id}`, { token: b.adminToken, body: { body: 'Stolen body' } })).status,
    ).toBe(404);
    expect(
      (await api('POST', `/schedules/${s.id}/media-upload`, { token: b.adminToken, body: image('x.png') })).status,
    ).toBe(404);
    expect((await api('DELETE', `/schedules/${s.id}/media-upload`, { token: b.adminToken })).status).toBe(404);
    expect((await api('DELETE', `/schedules/${s.id}`, { token: b.adminToken })).status).toBe(404);
    expect((await api('GET', '/schedules', { token: b.adminToken })).body.schedules).toEqual([]);
    expect((await getSchedule(a, s.id)).body).toBe('Hello there, see you soon');
  });
});
