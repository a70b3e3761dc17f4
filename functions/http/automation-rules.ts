import '#lib/startup';
import { z } from 'zod';
import { httpModule, reply, route } from '#lib/http';
import { actorOf } from '#lib/audit/actor';
import {
  createAutomationRule,
  deleteAutomationRule,
  dryRunRule,
  getAutomationRule,
  listAutomationRules,
  updateAutomationRule,
} from '#lib/automation/service';
import { listRuleRuns, listTicketRuns } from '#lib/automation/runs';
import { requireVisibleTicket } from '#lib/tickets/access';
import { ADMIN_AREA as ADMIN } from '#lib/users/service';
import { idParam } from '#shared/schemas/common';
import { AutomationRuleBody, AutomationRuleUpdateBody, DryRunBody } from '#shared/schemas/automation';

const params = z.object({ id: idParam });
const runsQuery = z.object({ cursor: z.string().max(2000).optional() });
const feature = 'useAutomation' as const;
const admins = { feature, permission: ADMIN } as const;

/**
 * Automation rules (issue 40 item 2), for plans with useAutomation: admins write and read them and
 * their runs; whoever may see a ticket reads the runs on it.
 */
export const handler = httpModule({
  'GET /automation-rules': route(admins, async ({ auth }) => listAutomationRules(auth.companyId)),

  'POST /automation-rules': route({ ...admins, body: AutomationRuleBody }, async ({ auth, body, clientAddress }) =>
    reply(await createAutomationRule(auth.companyId, body, actorOf(auth, clientAddress)), 201),
  ),

  // what a rule would do on the recent tickets, doing nothing
  'POST /automation-rules/dry-run': route({ ...admins, body: DryRunBody }, async ({ auth, body }) =>
    dryRunRule(auth.companyId, body),
  ),

  'GET /automation-rules/{id}': route({ ...admins, params }, async ({ auth, params }) =>
    getAutomationRule(auth.companyId, params.id),
  ),

  'PUT /automation-rules/{id}': route(
    { ...admins, params, body: AutomationRuleUpdateBody },
    async ({ auth, params, body, clientAddress }) =>
      updateAutomationRule(auth.companyId, params.id, body, actorOf(auth, clientAddress)),
  ),

  'DELETE /automation-rules/{id}': route({ ...admins, params }, async ({ auth, params, clientAddress }) =>
    deleteAutomationRule(auth.companyId, params.id, actorOf(auth, clientAddress)),
  ),

  'GET /automation-rules/{id}/runs': route({ ...admins, params, query: runsQuery }, async ({ auth, params, query }) => {
    await getAutomationRule(auth.companyId, params.id);
    return listRuleRuns(auth.companyId, params.id, query.cursor);
  }),

  'GET /tickets/{id}/automation-runs': route({ feature, params, query: runsQuery }, async ({ auth, params, query }) => {
    await requireVisibleTicket(auth.companyId, { userId: auth.userId, profile: auth.profile }, params.id);
    return listTicketRuns(auth.companyId, params.id, query.cursor);
  }),
});
