import '#lib/startup';
import { z } from 'zod';
import { httpModule, route } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { disconnectSession, requestNewQr, startSession } from '#lib/whatsapp/service';

const params = z.object({ id: idParam });

/** Session buttons of the Connections page (management.md section 2): retry, new QR, disconnect. */
export const handler = httpModule({
  'POST /whatsappsession/{id}': route(
    { permission: 'connections-page:actionButtons', params },
    async ({ auth, params }) => {
      await startSession(auth.companyId, params.id);
      return { message: 'Starting session.' };
    },
  ),

  'PUT /whatsappsession/{id}': route(
    { permission: 'connections-page:actionButtons', params },
    async ({ auth, params }) => {
      await requestNewQr(auth.companyId, params.id);
      return { message: 'Starting session.' };
    },
  ),

  'DELETE /whatsappsession/{id}': route(
    { permission: 'connections-page:actionButtons', params },
    async ({ auth, params }) => {
      await disconnectSession(auth.companyId, params.id);
      return { message: 'Session disconnected.' };
    },
  ),
});
