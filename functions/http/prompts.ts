import '#lib/startup';
import { z } from 'zod';
import { httpModule, reply, route } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { PromptBody, PromptUpdateBody } from '#shared/schemas/prompts';
import { createPrompt, deletePrompt, getPrompt, listPrompts, updatePrompt } from '#lib/prompts/service';
import { ADMIN_AREA as ADMIN } from '#lib/users/service';

const params = z.object({ id: idParam });
const feature = 'useOpenAi' as const;

/** AI prompts (management.md "AI prompts", 7), for plans with useOpenAi. Everyone reads them; admins change them. */
export const handler = httpModule({
  'GET /prompt': route({ feature }, async ({ auth }) => listPrompts(auth.companyId)),

  'GET /prompt/{id}': route({ feature, params }, async ({ auth, params }) => getPrompt(auth.companyId, params.id)),

  'POST /prompt': route({ feature, permission: ADMIN, body: PromptBody }, async ({ auth, body }) =>
    reply(await createPrompt(auth.companyId, body), 201),
  ),

  'PUT /prompt/{id}': route(
    { feature, permission: ADMIN, params, body: PromptUpdateBody },
    async ({ auth, params, body }) => updatePrompt(auth.companyId, params.id, body),
  ),

  'DELETE /prompt/{id}': route({ feature, permission: ADMIN, params }, async ({ auth, params }) =>
    deletePrompt(auth.companyId, params.id),
  ),
});
