import { describe, expect, it } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { limiterDay, nextLimiterDayAt } from '../../functions/lib/campaigns/limiter';
import { CHECK_BUDGET } from '../../functions/lib/campaigns/check-budget';
import { api, newCompany, sleep, table, type TestCompany } from './helpers';
import { connectedWhatsapp, eventually, phone, sim } from './whatsapp-sim';

/**
 * The daily number-check budget of a connection (issue 37, item 4) over HTTP against the local stack:
 * checks beyond it are not sent (a single check answers 429, a list's items wait with a reason),
 * answers cached within the day are free, and WhatsApp's restrictions stop checks.
 */

let seq = 0;
const number = (co: TestCompany) => `55218${String(co.companyId).padStart(4, '0')}${String(++seq).padStart(4, '0')}`;
const send = (token: string, to: string) =>
  api('POST', '/messages/send', { headers: { authorization: `Bearer ${token}` }, body: { number: to, body: 'Olá' } });
/** The checks the connection made today, as if it had made `checked`. */
const checkedToday = (co: TestCompany, whatsappId: number, checked: number) =>
  table().set(`C#${co.companyId}#CHECKLIMIT`, `W#${whatsappId}`, {
    day: limiterDay(Date.now()),
    checkedToday: checked,
    version: 1000,
  });
const checksLeft = async (co: TestCompany, whatsappId: number) =>
  (await api('GET', '/campaigns/limits', { token: co.adminToken })).body.find((l: any) => l.whatsappId === whatsappId)
    .checksLeftToday as number;
/** The numbers the connection's phone was asked about. */
const numbersAsked = async (co: TestCompany, whatsappId: number) =>
  ((await phone(co.companyId, whatsappId).state()).checkQueries as { numbers: number }[]).reduce(
    (sum, q) => sum + q.numbers,
    0,
  );

/** A list whose `count` numbers come in one spreadsheet: checked by one job. */
async function importedList(co: TestCompany, count: number) {
  const list = (await api('POST', '/contact-lists', { token: co.adminToken, body: { name: 'Importados' } })).body;
  const book = XLSX.utils.book_new();
  const rows = [['name', 'number'], ...Array.from({ length: count }, (_, i) => [`Cliente ${i}`, number(co)])];
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Sheet1');
  const form = new FormData();
  form.append('file', new Blob([XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer]), 'list.xlsx');
  const upload = await api('POST', `/contact-lists/${list.id}/upload`, { token: co.adminToken, body: form });
  expect(upload.body.created).toBe(count);
  return list.id as number;
}

async function listWithItems(co: TestCompany, count: number) {
  const list = (await api('POST', '/contact-lists', { token: co.adminToken, body: { name: 'Clientes' } })).body;
  for (let i = 0; i < count; i++)
    await api('POST', '/contact-list-items', {
      token: co.adminToken,
      body: { name: `Cliente ${i}`, number: number(co), contactListId: list.id },
    });
  return list.id as number;
}
const items = async (co: TestCompany, listId: number) =>
  (await api('GET', `/contact-list-items?contactListId=${listId}`, { token: co.adminToken })).body.contacts as Record<
    string,
    any
  >[];
/** Waits until `check` holds, reading as it goes. */
async function polled(check: () => Promise<boolean>, timeoutMs = 3000) {
  for (const until = Date.now() + timeoutMs; !(await check()); await sleep(50))
    if (Date.now() > until) throw new Error('condition not met in time');
}
const detail = async (co: TestCompany, listId: number) =>
  (await api('GET', `/contact-lists/${listId}`, { token: co.adminToken })).body as Record<string, any>;

describe('number-check budget', () => {
  it('a single check beyond the budget is not sent and answers 429 ERR_NUMBER_CHECK_BUDGET; a cached answer is free', async () => {
    const co = await newCompany('chk-single');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const known = number(co);
    expect((await send(w.token, known)).status).toBe(200);
    expect(await checksLeft(co, w.id)).toBe(CHECK_BUDGET.START - 1);
    // asked again within the day: answered from the cache, nothing taken
    expect((await send(w.token, known)).status).toBe(200);
    expect(await checksLeft(co, w.id)).toBe(CHECK_BUDGET.START - 1);

    await checkedToday(co, w.id, CHECK_BUDGET.START);
    expect(await checksLeft(co, w.id)).toBe(0);
    const queries = await numbersAsked(co, w.id);
    // the number answered within the day: sent without asking WhatsApp, nothing taken
    expect((await send(w.token, known)).status).toBe(200);
    const refused = await send(w.token, number(co));
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('ERR_NUMBER_CHECK_BUDGET');
    expect(await numbersAsked(co, w.id)).toBe(queries);
    expect((await table().get(`C#${co.companyId}#CHECKLIMIT`, `W#${w.id}`))?.checkedToday).toBe(CHECK_BUDGET.START);
  });

  it("a list item whose number was answered within the day is checked from the cache, even with the day's checks used up", async () => {
    const co = await newCompany('chk-cached');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const known = number(co);
    expect((await send(w.token, known)).status).toBe(200);
    await checkedToday(co, w.id, CHECK_BUDGET.START);
    const asked = await numbersAsked(co, w.id);
    const list = (await api('POST', '/contact-lists', { token: co.adminToken, body: { name: 'Conhecidos' } })).body;
    await api('POST', '/contact-list-items', {
      token: co.adminToken,
      body: { name: 'Cliente', number: known, contactListId: list.id },
    });
    await eventually(async () => (await items(co, list.id))[0]?.isWhatsappValid === true);
    expect(await numbersAsked(co, w.id)).toBe(asked);
    expect((await detail(co, list.id)).checksWaitReason).toBeUndefined();
  });

  it("another company's budget is its own", async () => {
    const a = await newCompany('chk-iso-a');
    const b = await newCompany('chk-iso-b');
    const wa = await connectedWhatsapp(a.adminToken, a.companyId);
    const wb = await connectedWhatsapp(b.adminToken, b.companyId);
    await checkedToday(a, wa.id, CHECK_BUDGET.START);
    expect((await send(wa.token, number(a))).status).toBe(429);
    expect((await send(wb.token, number(b))).status).toBe(200);
    expect(await checksLeft(b, wb.id)).toBe(CHECK_BUDGET.START - 1);
    expect(await checksLeft(a, wa.id)).toBe(0);
  });

  it("a list's checks stop when the budget runs out: the rest stay unchecked with the reason, until the next day", async () => {
    const co = await newCompany('chk-list');
    const w = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Vendas' });
    await checkedToday(co, w.id, CHECK_BUDGET.START - 2);
    const listId = await importedList(co, 5);
    const checked = await eventually(async () => {
      const all = await items(co, listId);
      return all.filter((i) => i.isWhatsappValid !== null).length === 2 ? all : undefined;
    });
    expect(checked.filter((i) => i.isWhatsappValid === null)).toHaveLength(3);
    const list = await detail(co, listId);
    expect(list).toMatchObject({
      checksWaitReason: 'checkBudget',
      checksResumeAt: new Date(nextLimiterDayAt(Date.now())).toISOString(),
      numberChecks: { whatsappId: w.id, whatsappName: 'Vendas', dailyBudget: CHECK_BUDGET.START, checksLeftToday: 0 },
    });
    // nothing more was asked of WhatsApp
    expect(await numbersAsked(co, w.id)).toBe(2);
  });

  it("a reach-out lock stops checks until it ends; the list's items are checked then", async () => {
    const co = await newCompany('chk-lock');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    // a short lock: its end is the job's SQS delay, a few real seconds
    const until = new Date(Date.now() + 4000).toISOString();
    await phone(co.companyId, w.id).restrict({ reachoutLock: { active: true, until } });
    await eventually(async () => (await checksLeft(co, w.id)) === 0);
    const refused = await send(w.token, number(co));
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('ERR_NUMBER_CHECK_RESTRICTED');
    const listId = await listWithItems(co, 2);
    // polled without waiting for the queues to go idle: they go idle only once the waiting job ran
    await polled(async () => (await detail(co, listId)).checksWaitReason === 'reachoutLock');
    expect((await detail(co, listId)).checksResumeAt).toBe(until);
    expect((await items(co, listId)).every((i) => i.isWhatsappValid === null)).toBe(true);
    // the lock ended: the waiting job checks the list's items
    await eventually(async () => (await items(co, listId)).every((i) => i.isWhatsappValid === true), 15_000);
    expect((await detail(co, listId)).checksWaitReason).toBeNull();
  });

  it("a reach-out lock WhatsApp lifts before its end lets the list's checks go on at once", async () => {
    const co = await newCompany('chk-lock-early');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const until = new Date(Date.now() + 2 * 3_600_000).toISOString();
    await phone(co.companyId, w.id).restrict({ reachoutLock: { active: true, until } });
    await eventually(async () => (await checksLeft(co, w.id)) === 0);
    const listId = await listWithItems(co, 2);
    await eventually(async () => (await detail(co, listId)).checksWaitReason === 'reachoutLock');

    await phone(co.companyId, w.id).restrict({ reachoutLock: { active: false } });
    // not at the lock's old end (two hours on): now
    await eventually(async () => (await items(co, listId)).every((i) => i.isWhatsappValid === true));
    expect(await detail(co, listId)).toMatchObject({ checksWaitReason: null, checksResumeAt: null });
    expect(await checksLeft(co, w.id)).toBe(CHECK_BUDGET.START - 2);
  });

  it("a list's numbers are checked by another connected line when the default one has no checks left, and the list names it", async () => {
    const co = await newCompany('chk-other');
    const main = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Principal' });
    const spare = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Reserva' });
    await checkedToday(co, main.id, CHECK_BUDGET.START - 1);
    const listId = await importedList(co, 3);
    // the default one checks what its budget covers, the other one the rest
    await eventually(async () => (await items(co, listId)).every((i) => i.isWhatsappValid === true));
    expect([await numbersAsked(co, main.id), await numbersAsked(co, spare.id)]).toEqual([1, 2]);
    expect(await detail(co, listId)).toMatchObject({
      numberChecks: { whatsappId: spare.id, whatsappName: 'Reserva', checksLeftToday: CHECK_BUDGET.START - 2 },
    });
    expect((await detail(co, listId)).checksWaitReason ?? null).toBeNull();

    // the default one locked: a new list goes to the other one whole
    await phone(co.companyId, main.id).restrict({
      reachoutLock: { active: true, until: new Date(Date.now() + 3_600_000).toISOString() },
    });
    await checkedToday(co, main.id, 0);
    const second = await listWithItems(co, 2);
    await eventually(async () => (await items(co, second)).every((i) => i.isWhatsappValid === true));
    expect([await numbersAsked(co, main.id), await numbersAsked(co, spare.id)]).toEqual([1, 4]);
  });

  it('a check WhatsApp refuses with a restriction stops checks for the rest of the day', async () => {
    const co = await newCompany('chk-refused');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    await sim('POST', `/sessions/${co.companyId}/${w.id}/refuse-checks`);
    const listId = await listWithItems(co, 1);
    const list = await eventually(async () => {
      const l = await detail(co, listId);
      return l.checksWaitReason === 'restricted' ? l : undefined;
    });
    expect(list.checksResumeAt).toBe(new Date(nextLimiterDayAt(Date.now())).toISOString());
    expect(list.numberChecks.checksLeftToday).toBe(0);
    expect((await items(co, listId))[0].isWhatsappValid).toBeNull();
    const refused = await send(w.token, number(co));
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('ERR_NUMBER_CHECK_RESTRICTED');
  });
});
