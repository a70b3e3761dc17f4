import { describe, expect, it } from 'vitest';
import { api, newCompany, queuesIdle, runTimer, table, type TestCompany, usesTimers } from './helpers';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';

usesTimers('schedules');

/**
 * A claimed schedule (AGENDADA) whose queue job was lost — a consumer timeout or throttling sent it
 * to the dead-letter queue without the last-attempt branch running — must not stay AGENDADA forever.
 */
const pad = (n: number) => String(n).padStart(10, '0');
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

let contactSeq = 0;
async function claimedAndLost(co: TestCompany, fields: Record<string, unknown> = {}) {
  const number = `55118${String(co.companyId).padStart(4, '0')}${String(++contactSeq).padStart(4, '0')}`;
  const contact = (await api('POST', '/contacts', { token: co.adminToken, body: { name: 'Ana', number } })).body;
  const s = (
    await api('POST', '/schedules', {
      token: co.adminToken,
      body: { body: 'Lembrete da consulta', contactId: contact.id, sendAt: ago(30) },
    })
  ).body;
  // What a claim leaves when its job never completes: AGENDADA, on the due index at a recheck time now past.
  await table().set(`C#${co.companyId}`, `SCHEDULE#${pad(s.id)}`, {
    status: 'AGENDADA',
    gsi4pk: `SCHEDULE_DUE#${(co.companyId + s.id) % 4}`,
    gsi4sk: `${ago(1)}#${pad(co.companyId)}#${pad(s.id)}`,
    ...fields,
  });
  return s.id as number;
}

const getSchedule = async (co: TestCompany, id: number) =>
  (await api('GET', `/schedules/${id}`, { token: co.adminToken })).body;

async function tick() {
  await runTimer('schedules');
  await queuesIdle();
}

describe('schedules whose job was lost', () => {
  it('are enqueued again by the timer and sent once; the sent schedule leaves the due index', async () => {
    const co = await newCompany('sr-lost');
    const wapp = await connectedWhatsapp(co.adminToken, co.companyId);
    const id = await claimedAndLost(co);
    await tick();
    await eventually(async () => (await getSchedule(co, id)).status === 'ENVIADA');
    expect(await phone(co.companyId, wapp.id).outbound()).toHaveLength(1);
    const stored = await table().get(`C#${co.companyId}`, `SCHEDULE#${pad(id)}`);
    expect(stored?.gsi4pk).toBeUndefined();
    expect(stored?.requeues).toBe(1);
    await tick();
    expect(await phone(co.companyId, wapp.id).outbound()).toHaveLength(1);
  });

  it('end as ERRO (never sent) after the requeue budget, and when a send had already started', async () => {
    const co = await newCompany('sr-giveup');
    const wapp = await connectedWhatsapp(co.adminToken, co.companyId);
    const exhausted = await claimedAndLost(co, { requeues: 2 });
    await tick();
    expect(await getSchedule(co, exhausted)).toMatchObject({ status: 'ERRO', error: 'ERR_SENDING_WAPP_MSG' });

    const started = await claimedAndLost(co, { sendingAt: ago(20) });
    await tick();
    expect(await getSchedule(co, started)).toMatchObject({ status: 'ERRO', sentAt: null });
    expect(await phone(co.companyId, wapp.id).outbound()).toHaveLength(0);
    expect((await table().get(`C#${co.companyId}`, `SCHEDULE#${pad(started)}`))?.gsi4pk).toBeUndefined();
  });

  it('a schedule claimed a moment ago is not taken for lost', async () => {
    const co = await newCompany('sr-fresh');
    await connectedWhatsapp(co.adminToken, co.companyId);
    const id = await claimedAndLost(co);
    const future = new Date(Date.now() + 10 * 60_000).toISOString();
    await table().set(`C#${co.companyId}`, `SCHEDULE#${pad(id)}`, {
      gsi4sk: `${future}#${pad(co.companyId)}#${pad(id)}`,
    });
    await tick();
    expect((await getSchedule(co, id)).status).toBe('AGENDADA');
  });
});
