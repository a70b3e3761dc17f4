import '#lib/startup';
import { z } from 'zod';
import { actorOf } from '#lib/audit/actor';
import { redriveDeadLetters } from '#lib/fleet/queues';
import { fleetView } from '#lib/fleet/service';
import { httpModule, route } from '#lib/http';

const params = z.object({ name: z.string().regex(/^[a-z][a-z-]{0,60}$/) });

/** The operator's view of the WhatsApp fleet (issue 23, item 6): runners, sessions, queues. Super users only. */
export const handler = httpModule({
  'GET /fleet': route({ super: true }, async () => fleetView()),
  'POST /fleet/queues/{name}/redrive': route({ super: true, params }, async ({ auth, params, clientAddress }) =>
    redriveDeadLetters(params.name, actorOf(auth, clientAddress)),
  ),
});
