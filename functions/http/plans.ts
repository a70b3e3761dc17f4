import '#lib/startup';
import { z } from 'zod';
import { httpModule, route, reply } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { PlanBody, PlanUpdateBody } from '#shared/schemas/billing';
import { createPlan, deletePlan, listPlans, requirePlan, updatePlan } from '#lib/accounts/plans';
import { actorOf } from '#lib/audit/actor';

const params = z.object({ id: idParam });

/** Plans (management.md 7): the signup lists them publicly; only the super user manages them. */
export const handler = httpModule({
  'GET /plans/list': route({ public: true }, async () => listPlans()),
  'GET /plans/all': route({ super: true }, async () => listPlans()),
  'GET /plans/{id}': route({ super: true, params }, async ({ params }) => requirePlan(params.id)),
  'POST /plans': route({ super: true, body: PlanBody }, async ({ auth, body, clientAddress }) =>
    reply(await createPlan(body, actorOf(auth, clientAddress)), 201),
  ),
  'PUT /plans/{id}': route(
    { super: true, params, body: PlanUpdateBody },
    async ({ auth, params, body, clientAddress }) => updatePlan(params.id, body, actorOf(auth, clientAddress)),
  ),
  'DELETE /plans/{id}': route({ super: true, params }, async ({ auth, params, clientAddress }) => {
    await deletePlan(params.id, actorOf(auth, clientAddress));
    return { message: 'Plan deleted' };
  }),
});
