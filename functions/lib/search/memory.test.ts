import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TicketViewer } from '#shared/visibility';
import { MemorySearch } from './memory';
import { parseQuery } from './query';
import type { SearchDoc, SearchFilters, TicketFacts } from './port';

const admin: TicketViewer = { profile: 'admin', userId: 1, queueIds: [], allTicket: 'enabled', showNoQueue: true };
const facts = (over: Partial<TicketFacts> = {}): TicketFacts => ({
  ticketId: 1,
  uuid: 'u1',
  status: 'open',
  queueId: 10,
  userId: 2,
  whatsappId: 3,
  tagIds: [],
  contactId: 5,
  contactName: 'Maria José',
  contactNumber: '5511999990000',
  ...over,
});
let n = 0;
const doc = (text: string, over: Partial<SearchDoc> = {}): SearchDoc => {
  n++;
  return {
    ...facts(),
    docId: `m:${n}`,
    companyId: 1,
    kind: 'message',
    sourceId: String(n),
    text,
    createdAt: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z`,
    ...over,
  };
};
const find = async (s: MemorySearch, q: string, filters: SearchFilters = {}, viewer = admin, companyId = 1) =>
  (await s.search({ companyId, query: parseQuery(q), filters, viewer, limit: 20 })).hits.map((h) => h.doc.text);

describe('embedded search index', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('finds words whatever their case and accents, newest first', async () => {
    const s = new MemorySearch();
    await s.index([doc('A NOTA FISCAL chegou'), doc('sem relação'), doc('Nota fiscal atrasada')]);
    expect(await find(s, 'nota fiscal ')).toEqual(['Nota fiscal atrasada', 'A NOTA FISCAL chegou']);
    expect(await find(s, 'RELACAO ')).toEqual(['sem relação']);
  });

  it('every word must match; the last one as a prefix', async () => {
    const s = new MemorySearch();
    await s.index([doc('boleto vencido ontem'), doc('boleto pago'), doc('vencimento amanhã')]);
    expect(await find(s, 'boleto venc')).toEqual(['boleto vencido ontem']);
    expect(await find(s, 'venc')).toEqual(['vencimento amanhã', 'boleto vencido ontem']);
    expect(await find(s, 'venc ')).toEqual([]);
  });

  it('a phrase needs its words together and in order', async () => {
    const s = new MemorySearch();
    await s.index([doc('bom dia, tudo bem?'), doc('dia bom'), doc('bom, mas o dia')]);
    expect(await find(s, '"bom dia"')).toEqual(['bom dia, tudo bem?']);
  });

  it("a word of the contact's name or number finds the contact's messages", async () => {
    const s = new MemorySearch();
    await s.index([doc('olá'), doc('tchau', { ...facts({ ticketId: 2, contactName: 'Pedro' }) })]);
    expect(await find(s, 'jose ')).toEqual(['olá']);
    expect(await find(s, '551199')).toEqual(['tchau', 'olá']);
    const [hit] = (
      await s.search({ companyId: 1, query: parseQuery('jose ola'), filters: {}, viewer: admin, limit: 5 })
    ).hits;
    expect(hit!.highlights).toEqual({ text: [[0, 3]], contactName: [[6, 10]], contactNumber: [] });
  });

  it('a renamed contact is found by the new name only', async () => {
    const s = new MemorySearch();
    await s.index([doc('olá')]);
    await s.updateTicket(1, facts({ contactName: 'Joana' }));
    expect(await find(s, 'maria ')).toEqual([]);
    expect(await find(s, 'joana ')).toEqual(['olá']);
  });

  it('filters by time, queue, attendant, connection, tag, status and kind', async () => {
    const s = new MemorySearch();
    await s.index([
      doc('pedido um', { createdAt: '2026-01-01T10:00:00.000Z' }),
      doc('pedido dois', {
        ...facts({ ticketId: 2, queueId: 11, userId: 4, whatsappId: 6, tagIds: [7], status: 'closed' }),
        createdAt: '2026-01-02T10:00:00.000Z',
      }),
      doc('pedido nota', { ticketId: 1, kind: 'note', createdAt: '2026-01-03T10:00:00.000Z' }),
    ]);
    expect(await find(s, 'pedido ', { from: '2026-01-02T00:00:00.000Z', to: '2026-01-02T23:59:59.999Z' })).toEqual([
      'pedido dois',
    ]);
    expect(await find(s, 'pedido ', { queueIds: [11] })).toEqual(['pedido dois']);
    expect(await find(s, 'pedido ', { userIds: [4] })).toEqual(['pedido dois']);
    expect(await find(s, 'pedido ', { whatsappIds: [6] })).toEqual(['pedido dois']);
    expect(await find(s, 'pedido ', { tagIds: [7] })).toEqual(['pedido dois']);
    expect(await find(s, 'pedido ', { statuses: ['open'] })).toEqual(['pedido nota', 'pedido um']);
    expect(await find(s, 'pedido ', { kind: 'note' })).toEqual(['pedido nota']);
  });

  it('an attendant finds only what canSeeTicket lets them see', async () => {
    const s = new MemorySearch();
    await s.index([doc('recado fila 10'), doc('recado fila 11', facts({ ticketId: 2, queueId: 11, userId: null }))]);
    const attendant: TicketViewer = { profile: 'user', userId: 9, queueIds: [10], allTicket: 'disabled' };
    expect(await find(s, 'recado ', {}, attendant)).toEqual(['recado fila 10']);
  });

  it("another company's documents are never found", async () => {
    const s = new MemorySearch();
    await s.index([doc('segredo'), doc('segredo', { companyId: 2 })]);
    expect(await find(s, 'segredo ', {}, admin, 1)).toHaveLength(1);
    expect(await find(s, 'segredo ', {}, admin, 3)).toHaveLength(0);
  });

  it('a removed document leaves the index, an edited one is found by its new words only', async () => {
    const s = new MemorySearch();
    const a = doc('apagar isto');
    const b = doc('texto antigo');
    await s.index([a, b]);
    await s.remove(1, [a.docId]);
    await s.index([{ ...b, text: 'texto novo' }]);
    expect(await find(s, 'apagar ')).toEqual([]);
    expect(await find(s, 'antigo ')).toEqual([]);
    expect(await find(s, 'texto ')).toEqual(['texto novo']);
  });

  it('pages with a cursor, without repeats or gaps', async () => {
    const s = new MemorySearch();
    await s.index(Array.from({ length: 25 }, (_, i) => doc(`item ${i}`)));
    const seen: string[] = [];
    let after: string | undefined;
    do {
      const page = await s.search({
        companyId: 1,
        query: parseQuery('item '),
        filters: {},
        viewer: admin,
        limit: 10,
        after,
      });
      seen.push(...page.hits.map((h) => h.doc.text));
      after = page.next;
    } while (after);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `item ${24 - i}`));
  });

  it('persists under its folder: a new instance loads what the last one wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'search-'));
    dirs.push(dir);
    const s = new MemorySearch(dir);
    const gone = doc('sumiu');
    await s.index([doc('guardado no disco'), gone]);
    await s.remove(1, [gone.docId]);
    await s.updateTicket(1, facts({ status: 'closed' }));
    s.close();
    const again = new MemorySearch(dir);
    expect(await find(again, 'disco ')).toEqual(['guardado no disco']);
    expect(await find(again, 'sumiu ')).toEqual([]);
    expect(await find(again, 'disco ', { statuses: ['closed'] })).toEqual(['guardado no disco']);
    expect(again.sizeOnDisk()).toBeGreaterThan(0);
  });
});
