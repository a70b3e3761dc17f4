import '#lib/startup';
import { z } from 'zod';
import { httpModule, route } from '#lib/http';
import { actorOf } from '#lib/audit/actor';
import { cursorQuery } from '#shared/schemas/common';
import { KnowledgeBenchBody } from '#shared/schemas/knowledge';
import { dismissUnanswered, draftFromUnanswered, listUnanswered, runBench } from '#lib/knowledge/learn';
import { ADMIN_AREA as ADMIN } from '#lib/users/service';

const feature = 'useOpenAi' as const;
const params = z.object({ id: z.string().trim().min(1).max(64) });

/** Learning before and after going live (issue 39 item 4): unanswered questions and the test bench; admins, useOpenAi. */
export const handler = httpModule({
  'GET /knowledge/unanswered': route({ feature, permission: ADMIN, query: cursorQuery }, async ({ auth, query }) =>
    listUnanswered(auth.companyId, query),
  ),

  'DELETE /knowledge/unanswered/{id}': route({ feature, permission: ADMIN, params }, async ({ auth, params }) =>
    dismissUnanswered(auth.companyId, params.id),
  ),

  'POST /knowledge/unanswered/{id}/draft': route(
    { feature, permission: ADMIN, params },
    async ({ auth, params, clientAddress }) =>
      draftFromUnanswered(auth.companyId, params.id, actorOf(auth, clientAddress)),
  ),

  'POST /knowledge/test-bench': route(
    { feature, permission: ADMIN, body: KnowledgeBenchBody },
    async ({ auth, body }) => runBench(auth.companyId, body),
  ),
});
