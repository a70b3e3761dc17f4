import '#lib/startup';
import { z } from 'zod';
import { actorOf } from '#lib/audit/actor';
import { httpModule, reply, route } from '#lib/http';
import {
  createArticle,
  deleteArticle,
  getArticle,
  listArticles,
  searchKnowledge,
  updateArticle,
} from '#lib/knowledge/service';
import { ADMIN_AREA as ADMIN } from '#lib/users/service';
import { idParam } from '#shared/schemas/common';
import { KnowledgeBody, KnowledgeQuery, KnowledgeSearchBody, KnowledgeUpdateBody } from '#shared/schemas/knowledge';

const params = z.object({ id: idParam });
const feature = 'useOpenAi' as const;
/** the knowledge base is the admins', on plans with AI (useOpenAi) */
const admins = { feature, permission: ADMIN };

/** The company's knowledge base (issue 39): articles and documents the AI agent answers from. */
export const handler = httpModule({
  'GET /knowledge': route({ ...admins, query: KnowledgeQuery }, async ({ auth, query }) =>
    listArticles(auth.companyId, query),
  ),

  'GET /knowledge/{id}': route({ ...admins, params }, async ({ auth, params }) =>
    getArticle(auth.companyId, params.id),
  ),

  'POST /knowledge': route({ ...admins, body: KnowledgeBody }, async ({ auth, body, clientAddress }) =>
    reply(await createArticle(auth.companyId, body, actorOf(auth, clientAddress)), 201),
  ),

  'PUT /knowledge/{id}': route(
    { ...admins, params, body: KnowledgeUpdateBody },
    async ({ auth, params, body, clientAddress }) =>
      updateArticle(auth.companyId, params.id, body, actorOf(auth, clientAddress)),
  ),

  'DELETE /knowledge/{id}': route({ ...admins, params }, async ({ auth, params, clientAddress }) =>
    deleteArticle(auth.companyId, params.id, actorOf(auth, clientAddress)),
  ),

  'POST /knowledge/search': route({ ...admins, body: KnowledgeSearchBody }, async ({ auth, body }) =>
    searchKnowledge(auth.companyId, body),
  ),
});
