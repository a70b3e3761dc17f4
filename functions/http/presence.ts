import '#lib/startup';
import { httpModule, route } from '#lib/http';
import { listPresence } from '#lib/presence/status';

/**
 * Presence (issue 24): `GET /presence` answers the statuses the top bar shows, kept live by `presence`
 * events: every user of the company for admins, the caller alone for others.
 */
export const handler = httpModule({
  'GET /presence': route({}, async ({ auth }) => ({
    users: await listPresence(auth.companyId, auth.userId, auth.profile === 'admin'),
  })),
});
