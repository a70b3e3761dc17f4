import '#lib/startup';
import { z } from 'zod';
import { httpModule, route, reply } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { HelpBody, HelpUpdateBody, HelpsQuery } from '#shared/schemas/billing';
import { createHelp, deleteHelp, listHelps, updateHelp } from '#lib/helps/service';

const params = z.object({ id: idParam });

/** Helps (management.md 7): every signed-in user reads them; only the super user changes them. */
export const handler = httpModule({
  'GET /helps': route({ query: HelpsQuery }, async ({ query }) => listHelps(query.searchParam)),
  'GET /helps/list': route({}, async () => listHelps()),
  'POST /helps': route({ super: true, body: HelpBody }, async ({ body }) => reply(await createHelp(body), 201)),
  'PUT /helps/{id}': route({ super: true, params, body: HelpUpdateBody }, async ({ params, body }) =>
    updateHelp(params.id, body),
  ),
  'DELETE /helps/{id}': route({ super: true, params }, async ({ params }) => {
    await deleteHelp(params.id);
    return { message: 'Help deleted' };
  }),
});
