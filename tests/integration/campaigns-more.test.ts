import { describe, it, expect } from 'vitest';
import * as XLSX from '@e965/xlsx';
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
import { connectedWhatsapp, eventually, phone, sim } from './whatsapp-sim';
import { createContact, createTicket } from './fixtures';
import { whatsappKeys } from '../../functions/lib/whatsapp/repo';

usesTimers('campaigns');

/** Campaign media, file lists in campaigns, tag audiences, number checks of list items, lost chains, today's count. */

let seq = 0;
const numberOf = (co: TestCompany) => `55218${String(co.companyId).padStart(4, '0')}${String(++seq).padStart(4, '0')}`;
const pad = (n: number) => String(n).padStart(10, '0');
const PNG = Buffer.from('\x89PNG\r\n\x1a\nrest of a png', 'latin1');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF', 'latin1');

async function addItems(co: TestCompany, listId: number, count: number) {
  const numbers: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = numberOf(co);
    numbers.push(n);
    const res = await api('POST', '/contact-list-items', {
      token: co.adminToken,
      body: { name: `Cliente ${i}`, number: n, contactListId: listId },
    });
    expect(res.status).toBe(201);
  }
  return numbers;
}

async function setup(label: string, count = 3, messageInterval = 5) {
  const co = await newCompany(label);
  const whatsapp = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Campaign line' });
  const list = (await api('POST', '/contact-lists', { token: co.adminToken, body: { name: 'Clientes' } })).body;
  const numbers = await addItems(co, list.id, count);
  await api('POST', '/campaign-settings', {
    token: co.adminToken,
    body: { settings: { messageInterval, longerIntervalAfter: 0, greaterInterval: 0 } },
  });
  return { co, whatsapp, list, numbers };
}

const get = async (co: TestCompany, id: number) =>
  (await api('GET', `/campaigns/${id}`, { token: co.adminToken })).body;

const create = (co: TestCompany, body: Record<string, unknown>) =>
  api('POST', '/campaigns', { token: co.adminToken, body: { name: 'Promo', message1: 'Oi {{firstName}}', ...body } });

/** Makes a campaign due now and runs the due timer (the start of a PROGRAMADA campaign). */
async function startNow(co: TestCompany, id: number, whatsappId: number, audience: Record<string, unknown>) {
  const res = await api('PUT', `/campaigns/${id}`, {
    token: co.adminToken,
    body: {
      ...(await get(co, id)),
      ...audience,
      whatsappId,
      contactList: undefined,
      whatsapp: undefined,
      scheduledAt: new Date(Date.now() + 2 * 3600_000).toISOString(),
    },
  });
  expect(res.status).toBe(200);
  await table().set(`C#${co.companyId}`, `CAMPAIGN#${pad(id)}`, {
    scheduledAt: new Date(Date.now() - 1000).toISOString(),
    gsi4sk: `${new Date(Date.now() - 1000).toISOString()}#${pad(co.companyId)}#${pad(id)}`,
  });
  await runTimer('campaigns');
}

const finished = (co: TestCompany, id: number) =>
  eventually(async () => {
    const c = await get(co, id);
    return c.status === 'FINALIZADA' ? c : undefined;
  }, 20_000);

const sentTo = async (co: TestCompany, whatsappId: number) =>
  (await phone(co.companyId, whatsappId).outbound()).filter((o: any) => !o.deleted);

const file = (data: Buffer, type: string) => new Blob([new Uint8Array(data)], { type });

describe('campaigns, more', () => {
  it('GET /campaigns/limits counts every campaign send of the day on the connection that sent it', async () => {
    const { co, whatsapp, list } = await setup('cpm-limits', 6);
    const other = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Idle line' });
    const created = await create(co, { whatsappId: whatsapp.id, contactListId: list.id });
    await startNow(co, created.body.id, whatsapp.id, { contactListId: list.id });
    await finished(co, created.body.id);
    expect((await sentTo(co, whatsapp.id)).length).toBe(6);
    const limits = (await api('GET', '/campaigns/limits', { token: co.adminToken })).body;
    expect(limits.find((l: any) => l.whatsappId === whatsapp.id)).toMatchObject({ sentToday: 6, dailyCap: 100 });
    expect(limits.find((l: any) => l.whatsappId === other.id).sentToday).toBe(0);
  });

  it('campaign media: attached while editable (stored under the company prefix), sent with the message, refused once running (ERR_CAMPAIGN_NOT_EDITABLE)', async () => {
    const { co, whatsapp, list, numbers } = await setup('cpm-media', 2, 20);
    const created = (await create(co, { whatsappId: whatsapp.id, contactListId: list.id })).body;
    const form = new FormData();
    form.append('file', file(PNG, 'image/png'), 'promo.png');
    const attached = await api('POST', `/campaigns/${created.id}/media-upload`, { token: co.adminToken, body: form });
    expect(attached.status).toBe(200);
    expect(attached.body.mediaName).toBe('promo.png');
    expect(attached.body.mediaPath).toMatch(new RegExp(`^company${co.companyId}/`));
    expect((await fetch(attached.body.mediaUrl)).status).toBe(200);
    // another company cannot attach to it
    const stranger = await newCompany('cpm-media-b');
    const foreign = new FormData();
    foreign.append('file', file(PNG, 'image/png'), 'x.png');
    expect(
      (await api('POST', `/campaigns/${created.id}/media-upload`, { token: stranger.adminToken, body: foreign }))
        .status,
    ).toBe(404);

    await startNow(co, created.id, whatsapp.id, { contactListId: list.id });
    const late = new FormData();
    late.append('file', file(PNG, 'image/png'), 'late.png');
    const refused = await api('POST', `/campaigns/${created.id}/media-upload`, { token: co.adminToken, body: late });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('ERR_CAMPAIGN_NOT_EDITABLE');
    await finished(co, created.id);
    const out = await sentTo(co, whatsapp.id);
    expect(out.map((o: any) => o.to.split('@')[0]).sort()).toEqual([...numbers].sort());
    for (const o of out) expect(o.media).toMatchObject({ mimetype: 'image/png', kind: 'image' });
  });

  it("a campaign with a file list sends the list's files after the message, to each contact", async () => {
    const { co, whatsapp, list, numbers } = await setup('cpm-files', 2);
    const fileList = (
      await api('POST', '/files', {
        token: co.adminToken,
        body: {
          name: 'Catálogo',
          message: 'Veja os arquivos',
          options: [{ name: 'Tabela de preços' }, { name: 'Foto' }],
        },
      })
    ).body;
    const form = new FormData();
    form.append('id', JSON.stringify([fileList.options[0].id, fileList.options[1].id]));
    form.append('name', JSON.stringify(['Tabela de preços', 'Foto']));
    form.append('files', file(PDF, 'application/pdf'), 'precos.pdf');
    form.append('files', file(PNG, 'image/png'), 'foto.png');
    const uploaded = await api('POST', `/files/uploadList/${fileList.id}`, { token: co.adminToken, body: form });
    expect(uploaded.status).toBe(200);
    expect(uploaded.body.options.map((o: any) => [o.name, o.mediaType])).toEqual([
      ['Tabela de preços', 'application/pdf'],
      ['Foto', 'image/png'],
    ]);
    const created = (await create(co, { whatsappId: whatsapp.id, contactListId: list.id, fileListId: fileList.id }))
      .body;
    expect(created.fileListId).toBe(fileList.id);
    await startNow(co, created.id, whatsapp.id, { contactListId: list.id, fileListId: fileList.id });
    await finished(co, created.id);
    await queuesIdle();
    const out = await sentTo(co, whatsapp.id);
    for (const n of numbers) {
      const mine = out.filter((o: any) => o.to.startsWith(n));
      expect(mine.map((o: any) => o.body)).toEqual(['Oi Cliente', 'Tabela de preços', 'Foto']);
      expect(mine[1].media).toMatchObject({ mimetype: 'application/pdf' });
      expect(mine[2].media).toMatchObject({ mimetype: 'image/png' });
    }
    // the report counts contacts, not files
    expect((await get(co, created.id)).sent).toBe(2);
  });

  it("a tag audience: the contacts of the tag's tickets, once each, groups and untagged contacts left out", async () => {
    const co = await newCompany('cpm-tag');
    const whatsapp = await connectedWhatsapp(co.adminToken, co.companyId, { name: 'Tag line' });
    await api('POST', '/campaign-settings', { token: co.adminToken, body: { settings: { messageInterval: 5 } } });
    const vip = (await api('POST', '/tags', { token: co.adminToken, body: { name: 'VIP', color: '#111111' } })).body;
    const tagged: string[] = [];
    for (let i = 0; i < 3; i++) {
      const number = numberOf(co);
      const contact = await createContact(co.adminToken, { name: `Vip ${i}`, number });
      const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id });
      await api('POST', '/tags/sync', { token: co.adminToken, body: { ticketId: ticket.id, tags: [{ id: vip.id }] } });
      tagged.push(number);
    }
    const outsider = await createContact(co.adminToken, { name: 'Outsider', number: numberOf(co) });
    await createTicket(co.adminToken, { contactId: outsider.id, whatsappId: whatsapp.id });
    const created = await create(co, { whatsappId: whatsapp.id, tagListId: vip.id });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ tagId: vip.id, contactListId: null });
    // another company's tag is not an audience
    const stranger = await newCompany('cpm-tag-b');
    const line = await connectedWhatsapp(stranger.adminToken, stranger.companyId);
    expect((await create(stranger, { whatsappId: line.id, tagId: vip.id })).status).toBe(404);

    await startNow(co, created.body.id, whatsapp.id, { tagId: vip.id, contactListId: null });
    const done = await finished(co, created.body.id);
    expect(done.validContacts).toBe(3);
    const out = await sentTo(co, whatsapp.id);
    expect(out.map((o: any) => o.to.split('@')[0]).sort()).toEqual([...tagged].sort());
  });

  it('the due timer restarts the send chain of a running campaign whose job was lost; nobody gets two messages', async () => {
    const { co, whatsapp, list, numbers } = await setup('cpm-lost', 5, 20);
    const created = (await create(co, { whatsappId: whatsapp.id, contactListId: list.id })).body;
    await startNow(co, created.id, whatsapp.id, { contactListId: list.id });
    // polled without waiting for idle queues: a running campaign keeps its queue busy
    for (let i = 0; (await sentTo(co, whatsapp.id)).length < 1; i++) {
      expect(i).toBeLessThan(500);
      await sleep(10);
    }
    // lose the chain: the job in flight is for a step the campaign no longer waits for
    const key = `CAMPAIGN#${pad(created.id)}`;
    const stored = await table().get(`C#${co.companyId}`, key);
    await table().set(`C#${co.companyId}`, key, { step: stored!.step + 100 });
    await sleep(600);
    await queuesIdle();
    const stuckAt = (await sentTo(co, whatsapp.id)).length;
    await sleep(400);
    expect((await sentTo(co, whatsapp.id)).length).toBe(stuckAt);
    expect((await get(co, created.id)).status).toBe('EM_ANDAMENTO');
    expect(stuckAt).toBeLessThan(5);
    // its watch time passes: the timer finds it and starts a new chain
    await table().set(`C#${co.companyId}`, key, {
      gsi4sk: `2000-01-01T00:00:00.000Z#${pad(co.companyId)}#${pad(created.id)}`,
    });
    const result = await runTimer('campaigns');
    expect(result.result.recovered).toBe(1);
    await finished(co, created.id);
    const out = await sentTo(co, whatsapp.id);
    expect(out.map((o: any) => o.to.split('@')[0]).sort()).toEqual([...numbers].sort());
  });

  it("a list's numbers are asked of WhatsApp in batched queries, paced, in a lane of their own: a send made meanwhile goes out before the checks end", async () => {
    const co = await newCompany('cpm-batch');
    const line = await connectedWhatsapp(co.adminToken, co.companyId);
    // a connection past its warm-up: its daily check budget covers the 500 numbers
    const { pk, sk } = whatsappKeys(co.companyId, line.id);
    await table().set(pk, sk, { createdAt: new Date(Date.now() - 30 * 86_400_000).toISOString() });
    const ticket = await createTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: line.id,
    });
    const list = (await api('POST', '/contact-lists', { token: co.adminToken, body: { name: 'Batched' } })).body;
    const rows: unknown[][] = [['name', 'number']];
    // 10 batches of 50: the checks last 9 intervals, long enough that a send held behind them would show
    const ROWS = 500;
    for (let i = 0; i < ROWS; i++) rows.push([`Cliente ${i}`, numberOf(co)]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Sheet1');
    const form = new FormData();
    form.append('file', new Blob([XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer]), 'list.xlsx');
    const upload = await api('POST', `/contact-lists/${list.id}/upload`, { token: co.adminToken, body: form });
    expect(upload.body.created).toBe(ROWS);
    const queries = async () =>
      (await phone(co.companyId, line.id).state()).checkQueries as { numbers: number; at: string }[];
    // polled without waiting for idle queues (they are idle only once every check is done)
    for (const until = Date.now() + 20_000; !(await queries()).length; await sleep(50))
      expect(Date.now()).toBeLessThan(until);
    const sent = await api('POST', `/messages/${ticket.id}`, { token: co.adminToken, body: { body: 'no waiting' } });
    expect(sent.status).toBe(201);
    const allItems = async () => {
      const out: any[] = [];
      for (let cursor = ''; ; ) {
        const page = await api('GET', `/contact-list-items?contactListId=${list.id}${cursor && `&cursor=${cursor}`}`, {
          token: co.adminToken,
        });
        out.push(...page.body.contacts);
        if (!page.body.hasMore) return out;
        cursor = encodeURIComponent(page.body.cursor);
      }
    };
    const items = await eventually(async () => {
      const all = await allItems();
      return all.every((c: any) => c.isWhatsappValid === true) ? all : undefined;
    }, 40_000);
    expect(items).toHaveLength(ROWS);
    const asked = await queries();
    expect(asked.map((q) => q.numbers)).toEqual(Array(ROWS / 50).fill(50));
    const at = asked.map((q) => Date.parse(q.at));
    // paced: the runner's check interval between a session's queries (global-setup sets it)
    const interval = Number(process.env.NUMBER_CHECK_INTERVAL_MS);
    expect(interval).toBeGreaterThan(0);
    // the runner books each query a full interval after the one before; the phone notes them as they
    // arrive (a loaded machine delays one more than the next), so the span is exact and each gap near it
    expect(at[at.length - 1]! - at[0]!).toBeGreaterThanOrEqual((at.length - 1) * interval - 100);
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(interval / 2);
    const out = (await phone(co.companyId, line.id).outbound()).find((o: any) => o.body === 'no waiting');
    expect(Date.parse(out.at)).toBeLessThan(at[at.length - 1]!);
  }, 90_000);

  it('list items are checked on WhatsApp in the background (isWhatsappValid, live contactListItem events); an invalid number is not planned', async () => {
    const co = await newCompany('cpm-check');
    const line = await connectedWhatsapp(co.adminToken, co.companyId);
    await api('POST', '/campaign-settings', { token: co.adminToken, body: { settings: { messageInterval: 5 } } });
    const rt = await realtimeClient(co.adminToken);
    await rt.join('joinNotification');
    const list = (await api('POST', '/contact-lists', { token: co.adminToken, body: { name: 'Checked' } })).body;
    const absent = numberOf(co);
    await sim('POST', '/absent', { number: absent });
    const [valid] = await addItems(co, list.id, 1);
    const bad = await api('POST', '/contact-list-items', {
      token: co.adminToken,
      body: { name: 'Sem WhatsApp', number: absent, contactListId: list.id },
    });
    const items = await eventually(async () => {
      const res = await api('GET', `/contact-list-items?contactListId=${list.id}`, { token: co.adminToken });
      return res.body.contacts.every((c: any) => c.isWhatsappValid !== null) ? res.body.contacts : undefined;
    });
    expect(items.find((c: any) => c.number === valid).isWhatsappValid).toBe(true);
    expect(items.find((c: any) => c.number === absent).isWhatsappValid).toBe(false);
    await rt.waitFor(
      (e) => e.event.endsWith('contactListItem') && e.data.action === 'update' && e.data.record?.id === bad.body.id,
    );
    rt.close();
    const created = (await create(co, { whatsappId: line.id, contactListId: list.id })).body;
    await startNow(co, created.id, line.id, { contactListId: list.id });
    expect((await finished(co, created.id)).validContacts).toBe(1);
    expect((await sentTo(co, line.id)).map((o: any) => o.to.split('@')[0])).toEqual([valid]);
  });

  it('items written while no connection is connected stay unchecked until a connection comes up, then are checked', async () => {
    const co = await newCompany('cpm-defer');
    const list = (await api('POST', '/contact-lists', { token: co.adminToken, body: { name: 'Waiting' } })).body;
    const numbers = await addItems(co, list.id, 3);
    await queuesIdle();
    const before = (await api('GET', `/contact-list-items?contactListId=${list.id}`, { token: co.adminToken })).body;
    expect(before.contacts.map((c: any) => c.isWhatsappValid)).toEqual([null, null, null]);
    await connectedWhatsapp(co.adminToken, co.companyId);
    const after = await eventually(async () => {
      const res = await api('GET', `/contact-list-items?contactListId=${list.id}`, { token: co.adminToken });
      return res.body.contacts.every((c: any) => c.isWhatsappValid === true) ? res.body.contacts : undefined;
    });
    expect(after.map((c: any) => c.number).sort()).toEqual([...numbers].sort());
  });
});
