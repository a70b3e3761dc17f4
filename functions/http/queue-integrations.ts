import '#lib/startup';
import { z } from 'zod';
import { httpModule, reply, route } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import {
  QueueIntegrationBody,
  QueueIntegrationUpdateBody,
  QueueIntegrationsQuery,
  TestSessionBody,
} from '#shared/schemas/integrations';
import {
  createIntegration,
  deleteIntegration,
  getIntegration,
  listIntegrations,
  testSession,
  updateIntegration,
} from '#lib/integrations/service';
import { ADMIN_AREA as ADMIN, isAdmin } from '#lib/users/service';

const params = z.object({ id: idParam });
const feature = 'useIntegrations' as const;

/** Queue integrations (management.md "Queue integrations", 7), for plans with useIntegrations. */
export const handler = httpModule({
  // the webhook signing secret only for admins (who copy it into the receiver)
  'GET /queueIntegration': route({ feature, query: QueueIntegrationsQuery }, async ({ auth, query }) =>
    listIntegrations(auth.companyId, query, { withSecret: isAdmin(auth) }),
  ),

  'GET /queueIntegration/{id}': route({ feature, params }, async ({ auth, params }) =>
    getIntegration(auth.companyId, params.id, { withSecret: isAdmin(auth) }),
  ),

  'POST /queueIntegration': route(
    { feature, permission: ADMIN, body: QueueIntegrationBody },
    async ({ auth, body, clientAddress }) =>
      reply(await createIntegration(auth.companyId, body, { actorId: auth.userId, address: clientAddress }), 201),
  ),

  'PUT /queueIntegration/{id}': route(
    { feature, permission: ADMIN, params, body: QueueIntegrationUpdateBody },
    async ({ auth, params, body, clientAddress }) =>
      updateIntegration(auth.companyId, params.id, body, { actorId: auth.userId, address: clientAddress }),
  ),

  'DELETE /queueIntegration/{id}': route({ feature, permission: ADMIN, params }, async ({ auth, params }) =>
    deleteIntegration(auth.companyId, params.id),
  ),

  'POST /queueIntegration/testSession': route(
    { feature, permission: ADMIN, body: TestSessionBody },
    async ({ auth, body }) => testSession(auth.companyId, body),
  ),
});
