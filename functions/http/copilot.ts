import '#lib/startup';
import { z } from 'zod';
import { httpModule, route } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { CopilotRewriteBody, CopilotSummaryBody, CopilotTranslateBody } from '#shared/schemas/copilot';
import { rewriteDraft, suggestReply, summarizeTicket, translateDraft } from '#lib/knowledge/copilot';
import type { AuthContext } from '#lib/auth';

const params = z.object({ ticketId: idParam });
const feature = 'useOpenAi' as const;
const actorOf = (auth: AuthContext) => ({ userId: auth.userId, profile: auth.profile });

/**
 * The attendant's copilot in a ticket (issue 39 item 5), for plans with useOpenAi and users who may
 * see the ticket. Each answers a text for the composer or a dialog; nothing is sent to the customer.
 */
export const handler = httpModule({
  'POST /copilot/{ticketId}/suggest': route({ feature, params }, async ({ auth, params }) =>
    suggestReply(auth.companyId, actorOf(auth), params.ticketId),
  ),

  'POST /copilot/{ticketId}/summary': route(
    { feature, params, body: CopilotSummaryBody },
    async ({ auth, params, body }) => summarizeTicket(auth.companyId, actorOf(auth), params.ticketId, body.language),
  ),

  'POST /copilot/{ticketId}/rewrite': route(
    { feature, params, body: CopilotRewriteBody },
    async ({ auth, params, body }) =>
      rewriteDraft(auth.companyId, actorOf(auth), params.ticketId, body.text, body.style),
  ),

  'POST /copilot/{ticketId}/translate': route(
    { feature, params, body: CopilotTranslateBody },
    async ({ auth, params, body }) =>
      translateDraft(auth.companyId, actorOf(auth), params.ticketId, body.text, body.to),
  ),
});
