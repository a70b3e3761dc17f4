import type { SearchQuery, SearchResponse, SearchResult } from '#shared/schemas/search';
import { AppError } from '../errors';
import { decodeCursor, encodeCursor } from '../cursor';
import { PAGE_SIZE } from '#shared/constants';
import type { Viewer } from '../tickets/viewer';
import { searchEnabled, searchPort } from './index';
import { parseQuery } from './query';
import type { SearchFilters, SearchHit } from './port';

const SCOPE = 'search';

const dayStart = (v: string) => (v.length === 10 ? `${v}T00:00:00.000Z` : new Date(v).toISOString());
const dayEnd = (v: string) => (v.length === 10 ? `${v}T23:59:59.999Z` : new Date(v).toISOString());

export const ticketViewer = (viewer: Viewer) => ({
  ...viewer.user,
  userId: viewer.user.id,
  profile: viewer.profile,
});

function present(hit: SearchHit): SearchResult {
  const d = hit.doc;
  return {
    id: d.sourceId,
    kind: d.kind,
    text: d.text,
    createdAt: d.createdAt,
    ticket: {
      id: d.ticketId,
      uuid: d.uuid,
      status: d.status,
      queueId: d.queueId,
      userId: d.userId,
      whatsappId: d.whatsappId,
    },
    contact: { id: d.contactId, name: d.contactName, number: d.contactNumber },
    highlights: hit.highlights,
  };
}

/** GET /search: the messages and notes the viewer may see that hold the query's words, newest first. */
export async function searchMessages(companyId: number, viewer: Viewer, q: SearchQuery): Promise<SearchResponse> {
  if (!searchEnabled()) throw new AppError('ERR_SEARCH_DISABLED');
  const query = parseQuery(q.q);
  if (!query.terms.length) throw new AppError('ERR_VALIDATION', 400, [{ path: ['q'], message: 'invalid' }]);
  const filters: SearchFilters = {
    ...(q.from ? { from: dayStart(q.from) } : {}),
    ...(q.to ? { to: dayEnd(q.to) } : {}),
    queueIds: q.queueId,
    userIds: q.userId,
    whatsappIds: q.whatsappId,
    tagIds: q.tagId,
    statuses: q.status,
    kind: q.kind,
  };
  const state = (await decodeCursor(companyId, q.cursor, SCOPE)) as { after?: string } | undefined;
  const page = await searchPort().search({
    companyId,
    query,
    filters,
    viewer: ticketViewer(viewer),
    limit: q.limit ?? PAGE_SIZE,
    after: state?.after,
  });
  return {
    results: page.hits.map(present),
    hasMore: Boolean(page.next),
    cursor: page.next ? await encodeCursor(companyId, { after: page.next }, SCOPE) : undefined,
  };
}

/** The tickets (ids, newest match first) whose messages or notes hold the words: the tickets page's search. */
export async function ticketsByWords(companyId: number, viewer: Viewer, words: string, limit: number) {
  if (!searchEnabled()) return [];
  const query = parseQuery(words);
  if (!query.terms.length) return [];
  const ids = new Set<number>();
  let after: string | undefined;
  // a few pages at most: one ticket's many matching messages must not hide the others for long
  for (let round = 0; round < 3 && ids.size < limit; round++) {
    const page = await searchPort().search({
      companyId,
      query,
      filters: {},
      viewer: ticketViewer(viewer),
      limit: 100,
      after,
    });
    for (const hit of page.hits) ids.add(hit.doc.ticketId);
    if (!page.next) break;
    after = page.next;
  }
  return [...ids].slice(0, limit);
}
