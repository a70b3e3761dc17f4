import { describe, expect, it } from 'vitest';
import { api, newCompany, sleep, useStackFromWorker } from './helpers';
import {
  attendanceCompany,
  createContact,
  createPendingTicket,
  createTicket,
  createUser,
  createWhatsapp,
} from './fixtures';
import { phone } from './whatsapp-sim';

/** The index's lag budget (issue 27): what is written is found within this. */
const LAG_MS = 5000;

const search = (token: string, q: string, params: Record<string, string | number> = {}) =>
  api(
    'GET',
    `/search?${new URLSearchParams({ q, ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) })}`,
    {
      token,
    },
  );

/** Polls until the search's ids satisfy `done`, within the lag budget; returns the last answer. */
async function searchUntil(token: string, q: string, done: (ids: string[]) => boolean, params = {}) {
  const deadline = Date.now() + LAG_MS;
  for (;;) {
    const res = await search(token, q, params);
    expect(res.status).toBe(200);
    const ids = res.body.results.map((r: { id: string }) => r.id);
    if (done(ids)) return res.body as { results: any[]; hasMore: boolean; cursor?: string };
    if (Date.now() > deadline) throw new Error(`search "${q}" not settled within ${LAG_MS} ms: ${JSON.stringify(ids)}`);
    await sleep(50);
  }
}
const ids = async (token: string, q: string, params: Record<string, string | number> = {}) => {
  const res = await search(token, q, params);
  expect(res.status).toBe(200);
  return res.body.results.map((r: { id: string }) => r.id) as string[];
};

async function send(token: string, ticketId: number, body: string) {
  const res = await api('POST', `/messages/${ticketId}`, { token, body: { body } });
  expect(res.status).toBe(201);
  return res.body as { id: string; createdAt: string };
}

describe('full-text search (GET /search)', () => {
  it('finds a new message within the lag, whatever its case and accents, in pt, en and es; prefixes, phrases, highlights', async () => {
    const co = await newCompany('srch1');
    const whatsapp = await createWhatsapp(co);
    const contact = await createContact(co.adminToken, { name: 'Conceição Araújo' });
    const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id });
    const pt = await send(co.adminToken, ticket.id, 'A emissão da NOTA FISCAL está atrasada, Conceição');
    const en = await send(co.adminToken, ticket.id, 'Your Résumé was RECEIVED yesterday');
    const es = await send(co.adminToken, ticket.id, 'El niño pidió una canción en español');

    // the three may reach the index in different batches: each is found within the lag
    await searchUntil(co.adminToken, 'resume ', (r) => r.includes(en.id));
    await searchUntil(co.adminToken, 'nino ', (r) => r.includes(es.id));
    const found = await searchUntil(co.adminToken, 'emissao ', (r) => r.includes(pt.id));
    expect(found.results[0]).toMatchObject({
      id: pt.id,
      kind: 'message',
      ticket: { id: ticket.id, uuid: ticket.uuid, status: 'open' },
      contact: { id: contact.id, name: 'Conceição Araújo', number: contact.number },
      highlights: { text: [[2, 9]] },
    });
    const text: string = found.results[0].text;
    expect(text.slice(2, 9)).toBe('emissão');

    expect(await ids(co.adminToken, 'NOTA fiscal ')).toEqual([pt.id]);
    expect(await ids(co.adminToken, 'resume received ')).toEqual([en.id]);
    expect(await ids(co.adminToken, 'NINO CANCION ')).toEqual([es.id]);
    expect(await ids(co.adminToken, 'Español ')).toEqual([es.id]);
    // the last word is a prefix; `word*` anywhere
    expect(await ids(co.adminToken, 'atras')).toEqual([pt.id]);
    expect(await ids(co.adminToken, 'pidi* espanol ')).toEqual([es.id]);
    expect(await ids(co.adminToken, 'atras ')).toEqual([]);
    // phrases: together and in order
    expect(await ids(co.adminToken, '"nota fiscal"')).toEqual([pt.id]);
    expect(await ids(co.adminToken, '"fiscal nota"')).toEqual([]);
    // the contact's name and number find the contact's messages, and are highlighted
    const byName = (await search(co.adminToken, 'araujo nino ')).body.results;
    expect(byName.map((r: any) => r.id)).toEqual([es.id]);
    expect(byName[0].highlights.contactName).toEqual([[10, 16]]);
    expect(await ids(co.adminToken, `fiscal ${contact.number.slice(0, 6)}`)).toEqual([pt.id]);
  });

  it('finds captions, file names and internal notes; a deleted message and a deleted note leave the index', async () => {
    const co = await newCompany('srch2');
    const whatsapp = await createWhatsapp(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id });
    const form = new FormData();
    form.append(
      'medias',
      new Blob([Buffer.from('%PDF-1.4 small')], { type: 'application/pdf' }),
      'contrato-aluguel.pdf',
    );
    form.append('body', 'segue o documento assinado');
    const media = await api('POST', `/messages/${ticket.id}`, { token: co.adminToken, body: form });
    expect(media.status).toBe(201);
    const note = await api('POST', '/ticket-notes', {
      token: co.adminToken,
      body: { note: 'Cliente pediu reembolso parcial', ticketId: ticket.id, contactId: contact.id },
    });
    expect(note.status).toBe(201);
    const gone = await send(co.adminToken, ticket.id, 'mensagem apagavel');

    await searchUntil(co.adminToken, 'documento assinado ', (r) => r.includes(media.body.id));
    expect(await ids(co.adminToken, 'aluguel ')).toEqual([media.body.id]);
    const notes = await searchUntil(co.adminToken, 'reembolso ', (r) => r.includes(String(note.body.id)));
    expect(notes.results[0]).toMatchObject({ kind: 'note', ticket: { id: ticket.id } });
    expect(await ids(co.adminToken, 'reembolso ', { kind: 'message' })).toEqual([]);
    await searchUntil(co.adminToken, 'apagavel ', (r) => r.includes(gone.id));

    expect((await api('DELETE', `/messages/${gone.id}`, { token: co.adminToken })).status).toBe(200);
    await searchUntil(co.adminToken, 'apagavel ', (r) => r.length === 0);
    expect((await api('DELETE', `/ticket-notes/${note.body.id}`, { token: co.adminToken })).status).toBe(200);
    await searchUntil(co.adminToken, 'reembolso ', (r) => r.length === 0);
  });

  it('filters by period, queue, attendant, connection, tag and status, following the ticket as it changes', async () => {
    const co = await newCompany('srch3');
    const { whatsapp, queueA, queueB, agentA } = await attendanceCompany(co);
    const otherLine = await createWhatsapp(co);
    const tag = (
      await api('POST', '/tags', { token: co.adminToken, body: { name: `t${Date.now()}`, color: '#123456' } })
    ).body;
    const t1 = await createTicket(agentA.token, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const t2 = await createTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: otherLine.id,
      queueId: queueB.id,
    });
    const m1 = await send(agentA.token, t1.id, 'orcamento da reforma');
    const m2 = await send(co.adminToken, t2.id, 'orçamento do telhado');
    await searchUntil(co.adminToken, 'orcamento ', (r) => r.length === 2);

    expect(await ids(co.adminToken, 'orcamento ', { queueId: queueA.id })).toEqual([m1.id]);
    expect(await ids(co.adminToken, 'orcamento ', { queueId: queueB.id })).toEqual([m2.id]);
    expect(await ids(co.adminToken, 'orcamento ', { userId: agentA.id })).toEqual([m1.id]);
    expect(await ids(co.adminToken, 'orcamento ', { whatsappId: otherLine.id })).toEqual([m2.id]);
    // the period: days of the messages' own time (no dependence on today's date)
    const day = m1.createdAt.slice(0, 10);
    const dayBefore = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect((await ids(co.adminToken, 'orcamento ', { from: day, to: day })).sort()).toEqual([m1.id, m2.id].sort());
    expect(await ids(co.adminToken, 'orcamento ', { to: dayBefore })).toEqual([]);

    // the ticket's later changes move its messages: a tag, then closing it
    expect((await api('PUT', `/ticket-tags/${t2.id}/${tag.id}`, { token: co.adminToken })).status).toBe(200);
    await searchUntil(co.adminToken, 'orcamento ', (r) => r.length === 1 && r[0] === m2.id, { tagId: tag.id });
    expect((await api('PUT', `/tickets/${t2.id}`, { token: co.adminToken, body: { status: 'closed' } })).status).toBe(
      200,
    );
    await searchUntil(co.adminToken, 'orcamento ', (r) => r.length === 1 && r[0] === m2.id, { status: 'closed' });
    expect(await ids(co.adminToken, 'orcamento ', { status: 'open' })).toEqual([m1.id]);
  });

  it("an attendant finds only messages of tickets they may see; another company's never", async () => {
    const co = await newCompany('srch4');
    const other = await newCompany('srch4b');
    const { whatsapp, queueA, queueB, agentA, agentB } = await attendanceCompany(co);
    const inA = await createPendingTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const inB = await createPendingTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: whatsapp.id,
      queueId: queueB.id,
    });
    const a = await send(co.adminToken, inA.id, 'confidencial fila A');
    const b = await send(co.adminToken, inB.id, 'confidencial fila B');
    const foreignLine = await createWhatsapp(other);
    const foreignTicket = await createTicket(other.adminToken, {
      contactId: (await createContact(other.adminToken)).id,
      whatsappId: foreignLine.id,
    });
    const foreign = await send(other.adminToken, foreignTicket.id, 'confidencial de fora');
    await searchUntil(other.adminToken, 'confidencial ', (r) => r.includes(foreign.id));
    await searchUntil(co.adminToken, 'confidencial ', (r) => r.length === 2);

    expect(await ids(agentA.token, 'confidencial ')).toEqual([a.id]);
    expect(await ids(agentB.token, 'confidencial ')).toEqual([b.id]);
    // a queue filter cannot widen what one may see
    expect(await ids(agentA.token, 'confidencial ', { queueId: queueB.id })).toEqual([]);
    expect(await ids(other.adminToken, 'confidencial ')).toEqual([foreign.id]);
    expect((await ids(co.adminToken, 'confidencial ')).sort()).toEqual([a.id, b.id].sort());
    // an attendant given the ticket sees it, whatever its queue
    const agentC = await createUser(co, { queueIds: [] });
    expect(await ids(agentC.token, 'confidencial ')).toEqual([]);
    expect(
      (await api('PUT', `/tickets/${inB.id}`, { token: co.adminToken, body: { userId: agentC.id, status: 'open' } }))
        .status,
    ).toBe(200);
    await searchUntil(agentC.token, 'confidencial ', (r) => r.length === 1 && r[0] === b.id);
  });

  it('pages newest first with a cursor bound to the company; bad input is refused', async () => {
    const co = await newCompany('srch5');
    const other = await newCompany('srch5b');
    const whatsapp = await createWhatsapp(co);
    const ticket = await createTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: whatsapp.id,
    });
    const sent: string[] = [];
    for (let i = 0; i < 5; i++) sent.push((await send(co.adminToken, ticket.id, `parcela numero ${i}`)).id);
    await searchUntil(co.adminToken, 'parcela ', (r) => r.length === 5);
    const first = (await search(co.adminToken, 'parcela ', { limit: 3 })).body;
    expect(first.results.map((r: any) => r.id)).toEqual(sent.slice(2).reverse());
    expect(first.hasMore).toBe(true);
    const second = (await search(co.adminToken, 'parcela ', { limit: 3, cursor: first.cursor })).body;
    expect(second.results.map((r: any) => r.id)).toEqual(sent.slice(0, 2).reverse());
    expect(second.hasMore).toBe(false);

    const stolen = await search(other.adminToken, 'parcela ', { cursor: first.cursor });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('ERR_INVALID_CURSOR');
    for (const bad of [
      {},
      { q: '' },
      { q: 'x'.repeat(201) },
      { q: 'a', from: 'yesterday' },
      { q: 'a', status: 'gone' },
    ]) {
      const res = await api('GET', `/search?${new URLSearchParams(bad as Record<string, string>)}`, {
        token: co.adminToken,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    const punctuation = await search(co.adminToken, '?!');
    expect(punctuation.status).toBe(400);
    expect((await api('GET', '/search?q=parcela')).status).toBe(401);
  });

  it("the tickets page's search finds tickets by their messages' words too, keeping name search and visibility", async () => {
    const co = await newCompany('srch6');
    const { whatsapp, queueA, queueB, agentA } = await attendanceCompany(co);
    const named = await createContact(co.adminToken, { name: 'Plantão Xavier' });
    const byName = await createTicket(co.adminToken, {
      contactId: named.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const byWord = await createPendingTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const hidden = await createPendingTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: whatsapp.id,
      queueId: queueB.id,
    });
    await send(co.adminToken, byWord.id, 'o plantao de domingo foi cancelado');
    await send(co.adminToken, hidden.id, 'plantao escondido');
    await searchUntil(co.adminToken, 'plantao ', (r) => r.length === 2);

    const list = await api('GET', '/tickets?searchParam=plantao', { token: co.adminToken });
    expect(list.status).toBe(200);
    const listed = list.body.tickets.map((t: any) => t.id);
    expect(listed).toEqual(expect.arrayContaining([byName.id, byWord.id, hidden.id]));
    expect(listed[0]).toBe(byName.id);
    const agentList = (await api('GET', '/tickets?searchParam=plantao', { token: agentA.token })).body.tickets;
    expect(agentList.map((t: any) => t.id).sort()).toEqual([byName.id, byWord.id].sort());
    const onlyWord = (await api('GET', '/tickets?searchParam=domingo', { token: co.adminToken })).body.tickets;
    expect(onlyWord.map((t: any) => t.id)).toEqual([byWord.id]);
  });

  it("a customer's inbound message is found as soon as the index takes it", async () => {
    const co = await newCompany('srch7');
    const whatsapp = await createWhatsapp(co);
    const customer = phone(co.companyId, whatsapp.id);
    await customer.send({ from: '5511987650001', body: 'Preciso da segunda via do boleto' });
    const found = await searchUntil(co.adminToken, 'segunda via ', (r) => r.length === 1);
    expect(found.results[0]).toMatchObject({ contact: { number: '5511987650001' }, ticket: { status: 'pending' } });
    const { text, highlights } = found.results[0];
    expect(highlights.text.map(([a, b]: [number, number]) => text.slice(a, b))).toEqual(['segunda', 'via']);
  });

  it('the reindex rebuilds from the table what the stream fed: messages, notes, ticket facts; deleted ones stay out', async () => {
    const co = await newCompany('srch8');
    const { whatsapp, queueA } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken, { name: 'Renata Índio' });
    const ticket = await createTicket(co.adminToken, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const kept = await send(co.adminToken, ticket.id, 'reconstruir o índice');
    const gone = await send(co.adminToken, ticket.id, 'reconstruir apagada');
    expect((await api('DELETE', `/messages/${gone.id}`, { token: co.adminToken })).status).toBe(200);
    const note = (
      await api('POST', '/ticket-notes', {
        token: co.adminToken,
        body: { note: 'reconstruir nota interna', ticketId: ticket.id, contactId: contact.id },
      })
    ).body;
    await searchUntil(co.adminToken, 'reconstruir ', (r) => r.length === 2);

    // the reindex reads the stack's table from this process, into an index of its own
    await useStackFromWorker();
    const { MemorySearch } = await import('../../functions/lib/search/memory');
    const { reindexCompany } = await import('../../functions/lib/search/reindex');
    const { parseQuery } = await import('../../functions/lib/search/query');
    const rebuilt = new MemorySearch();
    expect(await reindexCompany(rebuilt, co.companyId)).toMatchObject({ tickets: 1 });
    const admin = { profile: 'admin', userId: 1, queueIds: [], allTicket: 'enabled' };
    const page = await rebuilt.search({
      companyId: co.companyId,
      query: parseQuery('reconstruir '),
      filters: { queueIds: [queueA.id] },
      viewer: admin,
      limit: 10,
    });
    expect(page.hits.map((h) => h.doc.sourceId)).toEqual([String(note.id), kept.id]);
    expect(page.hits[1]!.doc).toMatchObject({ ticketId: ticket.id, uuid: ticket.uuid, contactName: 'Renata Índio' });
    const byName = await rebuilt.search({
      companyId: co.companyId,
      query: parseQuery('indio indice '),
      filters: {},
      viewer: admin,
      limit: 10,
    });
    expect(byName.hits.map((h) => h.doc.sourceId)).toEqual([kept.id]);
  });
});
