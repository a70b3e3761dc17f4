import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenSearch, rangesOfHighlight } from './opensearch';
import { parseQuery } from './query';
import type { SearchDoc } from './port';

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A fake OpenSearch domain: records each request, answers with what the test queued. */
let server: Server;
let seen: Seen[] = [];
let answers: unknown[] = [];
let adapter: OpenSearch;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answers.shift() ?? { errors: false }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  adapter = new OpenSearch({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    index: 'messages',
    region: 'sa-east-1',
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
  });
  answers.push([{ index: 'messages' }]);
  await adapter.ensureIndex();
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  seen = [];
  answers = [];
});

const doc: SearchDoc = {
  docId: 'm:abc',
  companyId: 7,
  kind: 'message',
  sourceId: 'abc',
  text: 'Olá, bom dia',
  createdAt: '2026-01-01T00:00:00.000Z',
  ticketId: 3,
  uuid: 'u3',
  status: 'open',
  queueId: 4,
  userId: null,
  whatsappId: 2,
  tagIds: [9],
  contactId: 5,
  contactName: 'Maria',
  contactNumber: '5511',
};

describe('OpenSearch adapter', () => {
  it('indexes with one signed bulk request, ids scoped by company', async () => {
    await adapter.index([doc]);
    const [req] = seen;
    expect(req!.method).toBe('POST');
    expect(req!.url).toBe('/_bulk?refresh=false');
    expect(req!.headers['content-type']).toBe('application/x-ndjson');
    expect(String(req!.headers.authorization)).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/sa-east-1\/es\/aws4_request/,
    );
    expect(req!.headers['x-amz-content-sha256'] ?? req!.headers['x-amz-date']).toBeTruthy();
    const lines = req!.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([{ index: { _index: 'messages', _id: '7:m:abc' } }, doc]);
  });

  it('a bulk answer with errors fails the call (the stream hands the batch again)', async () => {
    answers.push({ errors: true, items: [] });
    await expect(adapter.index([doc])).rejects.toThrow(/errors/);
  });

  it('removes by id', async () => {
    await adapter.remove(7, ['m:abc']);
    expect(JSON.parse(seen[0]!.body.trim())).toEqual({ delete: { _index: 'messages', _id: '7:m:abc' } });
  });

  it("moves a ticket's documents along with it (update by query within the company)", async () => {
    await adapter.updateTicket(7, { ...doc, status: 'closed' });
    expect(seen[0]!.url).toBe('/messages/_update_by_query?conflicts=proceed');
    const body = JSON.parse(seen[0]!.body);
    expect(body.query.bool.filter).toEqual([{ term: { companyId: 7 } }, { term: { ticketId: 3 } }]);
    expect(body.script.params.facts.status).toBe('closed');
  });

  it('searches within the company, the filters and the visibility of an attendant, newest first', async () => {
    answers.push({
      hits: {
        hits: [
          { _source: doc, sort: [1, 'm:abc'], highlight: { text: ['Olá, \u0001bom\u0002 \u0001dia\u0002'] } },
          { _source: { ...doc, docId: 'm:def' }, sort: [0, 'm:def'] },
        ],
      },
    });
    const page = await adapter.search({
      companyId: 7,
      query: parseQuery('"bom dia" olá'),
      filters: { queueIds: [4], statuses: ['open'], from: '2026-01-01T00:00:00.000Z' },
      viewer: { profile: 'user', userId: 8, queueIds: [4, 6], allTicket: 'disabled', showNoQueue: true },
      limit: 1,
      after: JSON.stringify([5, 'm:zzz']),
    });
    const body = JSON.parse(seen[0]!.body);
    expect(seen[0]!.url).toBe('/messages/_search');
    expect(body.size).toBe(2);
    expect(body.search_after).toEqual([5, 'm:zzz']);
    expect(body.sort).toEqual([{ createdAt: 'desc' }, { docId: 'desc' }]);
    expect(body.query.bool.filter).toEqual([
      { term: { companyId: 7 } },
      { range: { createdAt: { gte: '2026-01-01T00:00:00.000Z' } } },
      { terms: { queueId: [4] } },
      { terms: { status: ['open'] } },
      {
        bool: {
          should: [
            { term: { userId: 8 } },
            { terms: { queueId: [4, 6] } },
            { bool: { must_not: { exists: { field: 'queueId' } } } },
          ],
          minimum_should_match: 1,
        },
      },
    ]);
    expect(body.query.bool.must).toEqual([
      { multi_match: { query: 'bom dia', fields: ['text', 'contactName', 'contactNumber'], type: 'phrase' } },
      { multi_match: { query: 'ola', fields: ['text', 'contactName', 'contactNumber'], type: 'phrase_prefix' } },
    ]);
    expect(page.hits).toHaveLength(1);
    expect(page.hits[0]!.highlights.text).toEqual([
      [5, 8],
      [9, 12],
    ]);
    expect(JSON.parse(page.next!)).toEqual([1, 'm:abc']);
  });

  it('an admin has no visibility filter', async () => {
    answers.push({ hits: { hits: [] } });
    await adapter.search({
      companyId: 7,
      query: parseQuery('x '),
      filters: {},
      viewer: { profile: 'admin', userId: 1, queueIds: [], allTicket: 'enabled' },
      limit: 10,
    });
    expect(JSON.parse(seen[0]!.body).query.bool.filter).toEqual([{ term: { companyId: 7 } }]);
  });

  it('the index is created, folding case and accents as the embedded one does, before the first call', async () => {
    const fresh = new OpenSearch({
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      index: 'messages',
      region: 'sa-east-1',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    });
    answers.push([], { acknowledged: true }, { errors: false });
    await fresh.index([doc]);
    await fresh.index([doc]);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /_cat/indices/messages?format=json',
      'PUT /messages',
      'POST /_bulk?refresh=false',
      'POST /_bulk?refresh=false',
    ]);
    const put = seen.find((s) => s.method === 'PUT')!;
    expect(put.url).toBe('/messages');
    const body = JSON.parse(put.body);
    expect(body.settings.analysis.analyzer.folded.filter).toEqual(['lowercase', 'asciifolding']);
    expect(body.mappings.properties.text.analyzer).toBe('folded');
  });

  it('highlight marks become ranges in the unmarked text', () => {
    expect(rangesOfHighlight('a \u0001bc\u0002 d \u0001e\u0002')).toEqual([
      [2, 4],
      [7, 8],
    ]);
  });
});
