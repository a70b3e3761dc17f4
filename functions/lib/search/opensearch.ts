import { createHash, createHmac } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider, SourceData } from '@smithy/types';
import { can } from '#shared/permissions';
import type { TicketViewer } from '#shared/visibility';
import type { QueryTerm } from './query';
import type { Range, SearchDoc, SearchHit, SearchPage, SearchPort, SearchRequest, TicketFacts } from './port';

/**
 * The OpenSearch adapter (AWS): one index for every company, each document carrying its company and
 * its ticket's facts; requests signed with SigV4 (service `es`, an OpenSearch Service domain). The
 * index folds case and accents like normalize.ts (`lowercase` + `asciifolding`), a query is a bool of
 * the company, the filters, the viewer's visibility (shared/visibility.ts as a filter) and one clause
 * per word or phrase over the text and the contact's name and number; newest first, paged with
 * `search_after`. A ticket's change is applied to its documents with `_update_by_query`.
 */
export interface OpenSearchOptions {
  /** https://<domain endpoint> */
  endpoint: string;
  index: string;
  region: string;
  credentials: AwsCredentialIdentity | AwsCredentialIdentityProvider;
  /** `es` (OpenSearch Service) */
  service?: string;
}

/** node:crypto behind the checksum interface the signer takes (sha256, or HMAC-sha256 with a key). */
const bytes = (data: SourceData) =>
  typeof data === 'string'
    ? data
    : ArrayBuffer.isView(data)
      ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : new Uint8Array(data);

class Sha256 {
  private hash;
  constructor(secret?: SourceData) {
    this.hash = secret ? createHmac('sha256', bytes(secret)) : createHash('sha256');
  }
  update(data: SourceData) {
    this.hash.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
  reset() {}
}

const FOLDED = 'folded';
const TAG_OPEN = '\u0001';
const TAG_CLOSE = '\u0002';

/** The index's settings and mappings (created by `ensureIndex`, also by the reindex command). */
export const INDEX_BODY = {
  settings: {
    analysis: {
      analyzer: { [FOLDED]: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] } },
    },
  },
  mappings: {
    dynamic: 'strict',
    properties: {
      docId: { type: 'keyword' },
      companyId: { type: 'integer' },
      kind: { type: 'keyword' },
      sourceId: { type: 'keyword' },
      text: { type: 'text', analyzer: FOLDED },
      createdAt: { type: 'date' },
      ticketId: { type: 'integer' },
      uuid: { type: 'keyword' },
      status: { type: 'keyword' },
      queueId: { type: 'integer' },
      userId: { type: 'integer' },
      whatsappId: { type: 'integer' },
      tagIds: { type: 'integer' },
      contactId: { type: 'integer' },
      contactName: { type: 'text', analyzer: FOLDED },
      contactNumber: { type: 'text', analyzer: FOLDED },
    },
  },
};

const FIELDS = ['text', 'contactName', 'contactNumber'];

function termClause(words: QueryTerm[]) {
  const query = words.map((w) => w.word).join(' ');
  const last = words[words.length - 1]!;
  if (words.length === 1 && !last.prefix) return { multi_match: { query, fields: FIELDS } };
  return { multi_match: { query, fields: FIELDS, type: last.prefix ? 'phrase_prefix' : 'phrase' } };
}

/** shared/visibility.ts's canSeeTicket as a filter. */
export function visibilityFilter(viewer: TicketViewer) {
  if (can(viewer.profile, 'tickets-manager:showall')) return undefined;
  const should: unknown[] = [{ term: { userId: viewer.userId } }];
  if (viewer.queueIds.length) should.push({ terms: { queueId: viewer.queueIds } });
  if (viewer.showNoQueue || viewer.allTicket === 'enabled')
    should.push({ bool: { must_not: { exists: { field: 'queueId' } } } });
  return { bool: { should, minimum_should_match: 1 } };
}

export function searchBody(r: SearchRequest) {
  const f = r.filters;
  const filter: unknown[] = [{ term: { companyId: r.companyId } }];
  if (f.from || f.to)
    filter.push({ range: { createdAt: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lte: f.to } : {}) } } });
  if (f.queueIds?.length) filter.push({ terms: { queueId: f.queueIds } });
  if (f.userIds?.length) filter.push({ terms: { userId: f.userIds } });
  if (f.whatsappIds?.length) filter.push({ terms: { whatsappId: f.whatsappIds } });
  if (f.tagIds?.length) filter.push({ terms: { tagIds: f.tagIds } });
  if (f.statuses?.length) filter.push({ terms: { status: f.statuses } });
  if (f.kind) filter.push({ term: { kind: f.kind } });
  const visibility = visibilityFilter(r.viewer);
  if (visibility) filter.push(visibility);
  const inPhrase = new Set(r.query.phrases.flat());
  const must = [
    ...r.query.phrases.map(termClause),
    ...r.query.terms.filter((t) => !inPhrase.has(t)).map((t) => termClause([t])),
  ];
  return {
    size: r.limit + 1,
    query: { bool: { filter, must } },
    sort: [{ createdAt: 'desc' }, { docId: 'desc' }],
    ...(r.after ? { search_after: JSON.parse(r.after) } : {}),
    highlight: {
      pre_tags: [TAG_OPEN],
      post_tags: [TAG_CLOSE],
      number_of_fragments: 0,
      fields: Object.fromEntries(FIELDS.map((f) => [f, {}])),
    },
  };
}

/** `a \u0001b\u0002 c` -> the ranges of the marked parts in the unmarked text. */
export function rangesOfHighlight(marked: string | undefined): Range[] {
  if (!marked) return [];
  const out: Range[] = [];
  let offset = 0;
  let start = -1;
  for (const ch of marked) {
    if (ch === TAG_OPEN) start = offset;
    else if (ch === TAG_CLOSE) out.push([start, offset]);
    else offset += ch.length;
  }
  return out;
}

interface Hit {
  _source: SearchDoc;
  sort: unknown[];
  highlight?: Record<string, string[]>;
}

export class OpenSearch implements SearchPort {
  private signer: SignatureV4;
  private url: URL;

  constructor(private readonly opts: OpenSearchOptions) {
    this.url = new URL(opts.endpoint);
    this.signer = new SignatureV4({
      service: opts.service ?? 'es',
      region: opts.region,
      credentials: opts.credentials,
      sha256: Sha256,
    });
  }

  private async request<T>(method: string, path: string, body?: unknown, ndjson = false): Promise<T> {
    const payload =
      body === undefined
        ? undefined
        : ndjson
          ? `${(body as unknown[]).map((l) => JSON.stringify(l)).join('\n')}\n`
          : JSON.stringify(body);
    const [pathname, search] = path.split('?');
    const signed = await this.signer.sign({
      method,
      protocol: this.url.protocol,
      hostname: this.url.hostname,
      port: this.url.port ? Number(this.url.port) : undefined,
      path: pathname!,
      query: Object.fromEntries(new URLSearchParams(search ?? '')),
      headers: {
        host: this.url.host,
        ...(payload !== undefined ? { 'content-type': ndjson ? 'application/x-ndjson' : 'application/json' } : {}),
      },
      body: payload,
    });
    const res = await fetch(new URL(path, this.url), { method, headers: signed.headers, body: payload });
    const text = await res.text();
    if (!res.ok) throw new Error(`OpenSearch ${method} ${pathname} answered ${res.status}: ${text.slice(0, 300)}`);
    const out = JSON.parse(text) as T & { errors?: boolean };
    if (ndjson && out.errors) throw new Error(`OpenSearch bulk request had errors: ${text.slice(0, 300)}`);
    return out;
  }

  private id = (companyId: number, docId: string) => `${companyId}:${docId}`;

  private ready: Promise<void> | undefined;

  /**
   * Creates the index with its analyzer and mappings when it does not exist (once per process,
   * before its first call: a bulk write would otherwise create it with default mappings).
   */
  ensureIndex(): Promise<void> {
    this.ready ??= (async () => {
      const found = await this.request<unknown[]>('GET', `/_cat/indices/${this.opts.index}?format=json`).catch(
        () => [],
      );
      if (!Array.isArray(found) || !found.length) await this.request('PUT', `/${this.opts.index}`, INDEX_BODY);
    })().catch((err) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  async index(docs: SearchDoc[]) {
    if (!docs.length) return;
    await this.ensureIndex();
    const lines = docs.flatMap((d) => [{ index: { _index: this.opts.index, _id: this.id(d.companyId, d.docId) } }, d]);
    await this.request('POST', '/_bulk?refresh=false', lines, true);
  }

  async remove(companyId: number, docIds: string[]) {
    if (!docIds.length) return;
    await this.ensureIndex();
    const lines = docIds.map((d) => ({ delete: { _index: this.opts.index, _id: this.id(companyId, d) } }));
    await this.request('POST', '/_bulk', lines, true);
  }

  async updateTicket(companyId: number, facts: TicketFacts) {
    await this.ensureIndex();
    await this.request('POST', `/${this.opts.index}/_update_by_query?conflicts=proceed`, {
      query: { bool: { filter: [{ term: { companyId } }, { term: { ticketId: facts.ticketId } }] } },
      script: {
        lang: 'painless',
        source: 'for (e in params.facts.entrySet()) { ctx._source[e.getKey()] = e.getValue(); }',
        params: { facts },
      },
    });
  }

  async clear(companyId: number) {
    await this.ensureIndex();
    await this.request('POST', `/${this.opts.index}/_delete_by_query?conflicts=proceed`, {
      query: { term: { companyId } },
    });
  }

  async search(r: SearchRequest): Promise<SearchPage> {
    await this.ensureIndex();
    const out = await this.request<{ hits: { hits: Hit[] } }>('POST', `/${this.opts.index}/_search`, searchBody(r));
    const found = out.hits.hits;
    const page = found.slice(0, r.limit);
    const hits: SearchHit[] = page.map((h) => ({
      doc: h._source,
      highlights: {
        text: rangesOfHighlight(h.highlight?.text?.[0]),
        contactName: rangesOfHighlight(h.highlight?.contactName?.[0]),
        contactNumber: rangesOfHighlight(h.highlight?.contactNumber?.[0]),
      },
    }));
    return { hits, ...(found.length > r.limit ? { next: JSON.stringify(page[page.length - 1]!.sort) } : {}) };
  }
}
