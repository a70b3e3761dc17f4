import '#lib/startup';
import { z } from 'zod';
import { httpModule, route, reply } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { QueueBody, QueueUpdateBody } from '#shared/schemas/queues';
import { listQueues } from '#lib/queues/repo';
import { createQueue, deleteQueue, requireQueue, updateQueue } from '#lib/queues/service';
import { ADMIN_AREA as ADMIN } from '#lib/users/service';

const params = z.object({ id: idParam });

/** Queues (management.md "Queues" and section 7). Everyone reads them; admins change them. */
export const handler = httpModule({
  'GET /queue': route({}, async ({ auth }) => listQueues(auth.companyId)),

  'GET /queue/{id}': route({ params }, async ({ auth, params }) => requireQueue(auth.companyId, params.id)),

  'POST /queue': route({ permission: ADMIN, body: QueueBody }, async ({ auth, body }) =>
    reply(await createQueue(auth.companyId, body), 201),
  ),

  'PUT /queue/{id}': route({ permission: ADMIN, params, body: QueueUpdateBody }, async ({ auth, params, body }) =>
    updateQueue(auth.companyId, params.id, body),
  ),

  'DELETE /queue/{id}': route({ permission: ADMIN, params }, async ({ auth, params }) => {
    await deleteQueue(auth.companyId, params.id);
    return { message: 'Queue deleted' };
  }),
});
