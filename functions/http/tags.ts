import '#lib/startup';
import { z } from 'zod';
import { httpModule, reply, route } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { TagBody, TagsQuery, TagSyncBody, TagUpdateBody } from '#shared/schemas/tags';
import { requireTag } from '#lib/tags/repo';
import { allTags, createTag, deleteTag, listTags, setTicketTags, updateTag } from '#lib/tags/service';
import type { AuthContext } from '#lib/auth';

const params = z.object({ id: idParam });
const actorOf = (auth: AuthContext) => ({ userId: auth.userId, profile: auth.profile });

/** Tags and the kanban lanes (management.md "Tags", "Kanban", 7). */
export const handler = httpModule({
  'GET /tags': route({ query: TagsQuery }, async ({ auth, query }) => listTags(auth.companyId, query)),

  'GET /tags/list': route({}, async ({ auth }) => allTags(auth.companyId)),

  'GET /tags/kanban': route({ feature: 'useKanban' }, async ({ auth }) => ({
    lista: await allTags(auth.companyId, true),
  })),

  'GET /tags/{id}': route({ params }, async ({ auth, params }) => requireTag(auth.companyId, params.id)),

  'POST /tags': route({ body: TagBody }, async ({ auth, body }) =>
    reply(await createTag(auth.companyId, actorOf(auth), body), 201),
  ),

  'POST /tags/sync': route({ body: TagSyncBody }, async ({ auth, body }) => {
    const ids = body.tags.map((t) => (typeof t === 'number' ? t : t.id));
    const ticket = await setTicketTags(auth.companyId, actorOf(auth), body.ticketId, ids);
    return { tags: ticket.tags, ticket };
  }),

  'PUT /tags/{id}': route({ params, body: TagUpdateBody }, async ({ auth, params, body }) =>
    updateTag(auth.companyId, actorOf(auth), params.id, body),
  ),

  'DELETE /tags/{id}': route({ params }, async ({ auth, params }) => {
    await deleteTag(auth.companyId, actorOf(auth), params.id);
    return { message: 'Tag deleted' };
  }),
});
