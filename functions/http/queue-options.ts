import '#lib/startup';
import { z } from 'zod';
import { httpModule, route, reply } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { QueueOptionBody, QueueOptionUpdateBody, QueueOptionsQuery } from '#shared/schemas/queues';
import { createOption, deleteOption, listOptions, updateOption } from '#lib/queues/service';
import { ADMIN_AREA as ADMIN } from '#lib/users/service';

const params = z.object({ id: idParam });

/** A queue's chatbot option tree (management.md "Queues and options"); parentId -1 is the top level. */
export const handler = httpModule({
  'GET /queue-options': route({ query: QueueOptionsQuery }, async ({ auth, query }) =>
    listOptions(auth.companyId, query.queueId, query.parentId ?? null),
  ),

  'POST /queue-options': route({ permission: ADMIN, body: QueueOptionBody }, async ({ auth, body }) =>
    reply(await createOption(auth.companyId, body), 201),
  ),

  'PUT /queue-options/{id}': route(
    { permission: ADMIN, params, body: QueueOptionUpdateBody },
    async ({ auth, params, body }) => updateOption(auth.companyId, params.id, body),
  ),

  'DELETE /queue-options/{id}': route({ permission: ADMIN, params }, async ({ auth, params }) => ({
    deleted: await deleteOption(auth.companyId, params.id),
  })),
});
