import '#lib/startup';
import { httpModule, route } from '#lib/http';
import { SearchQuery } from '#shared/schemas/search';
import { viewerOf } from '#lib/tickets/viewer';
import { searchMessages } from '#lib/search/service';

/** Full-text search over the company's messages and internal notes (issue 27, docs/search.md). */
export const handler = httpModule({
  'GET /search': route({ query: SearchQuery }, async ({ auth, query }) =>
    searchMessages(auth.companyId, await viewerOf(auth), query),
  ),
});
