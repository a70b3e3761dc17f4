import { httpModule, route } from '#lib/http';
import { fleetView } from '#lib/fleet/service';

/** The operator's view of the WhatsApp fleet (issue 23, item 6): runners, sessions, queues. Super users only. */
export const handler = httpModule({
  'GET /fleet': route({ super: true }, async () => fleetView()),
});
