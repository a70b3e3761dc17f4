import '#lib/startup';
import { z } from 'zod';
import { httpModule, route, reply } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import {
  CloudTransportBody,
  CloudTransportUpdateBody,
  WhatsappBody,
  WhatsappQuery,
  WhatsappUpdateBody,
} from '#shared/schemas/whatsapp';
import { listWhatsapps, requireWhatsapp } from '#lib/whatsapp/repo';
import {
  createWhatsapp,
  deleteWhatsapp,
  presentFor,
  publishWhatsapp,
  updateWhatsapp,
  withQueues,
} from '#lib/whatsapp/service';
import { attachCloudTransport, detachCloudTransport, updateCloudTransport } from '#lib/whatsapp-cloud/transport';
import type { Whatsapp } from '#shared/schemas/whatsapp';
import { actorOf } from '#lib/audit/actor';
import { listTemplates, syncTemplates } from '#lib/whatsapp-cloud/templates';
import { listUsage } from '#lib/whatsapp-cloud/usage';

const params = z.object({ id: idParam });
const withQr = (session: unknown) => !(session === '0' || session === false);

/** A connection changed by an edit: told to the browsers, answered as its editor may see it. */
async function changed(profile: string, w: Whatsapp) {
  await publishWhatsapp(w);
  return presentFor(profile, (await withQueues(w.companyId, [w]))[0]!);
}
const editConnection = 'connections-page:editOrDeleteConnection' as const;

/** Connections (management.md "Connections" and section 7). */
export const handler = httpModule({
  'GET /whatsapp': route({ query: WhatsappQuery }, async ({ auth, query }) => {
    const list = await withQueues(auth.companyId, await listWhatsapps(auth.companyId));
    return list.map((w) => presentFor(auth.profile, w, { withQr: withQr(query.session) }));
  }),

  'GET /whatsapp/{id}': route({ params, query: WhatsappQuery }, async ({ auth, params, query }) => {
    const [w] = await withQueues(auth.companyId, [await requireWhatsapp(auth.companyId, params.id)]);
    return presentFor(auth.profile, w!, { withQr: withQr(query.session) });
  }),

  'POST /whatsapp': route(
    { permission: 'connections-page:addConnection', body: WhatsappBody },
    async ({ auth, body }) => reply(presentFor(auth.profile, await createWhatsapp(auth.companyId, body)), 201),
  ),

  'PUT /whatsapp/{id}': route(
    { permission: 'connections-page:editOrDeleteConnection', params, body: WhatsappUpdateBody },
    async ({ auth, params, body, clientAddress }) => {
      const updated = await updateWhatsapp(auth.companyId, params.id, body, actorOf(auth, clientAddress));
      return presentFor(auth.profile, (await withQueues(auth.companyId, [updated]))[0]!);
    },
  ),

  /** a Cloud API connection's message templates (the composer's picker, the templates dialog); [] for WhatsApp Web */
  'GET /whatsapp/{id}/templates': route({ params }, async ({ auth, params }) => {
    await requireWhatsapp(auth.companyId, params.id);
    return listTemplates(auth.companyId, params.id);
  }),

  /** read them again from the WhatsApp Business Account now */
  'POST /whatsapp/{id}/templates/sync': route(
    { permission: 'connections-page:editOrDeleteConnection', params },
    async ({ auth, params }) => syncTemplates(auth.companyId, params.id),
  ),

  /** (admins) a Cloud API connection's messages Meta priced, by month and category; [] for WhatsApp Web */
  'GET /whatsapp/{id}/usage': route(
    { permission: 'connections-page:actionButtons', params },
    async ({ auth, params }) => {
      await requireWhatsapp(auth.companyId, params.id);
      return listUsage(auth.companyId, params.id);
    },
  ),

  /** one number, two transports: the Cloud API credentials of the WhatsApp Web connection's own number */
  'POST /whatsapp/{id}/cloud-transport': route(
    { permission: editConnection, params, body: CloudTransportBody },
    async ({ auth, params, body, clientAddress }) =>
      reply(
        await changed(
          auth.profile,
          await attachCloudTransport(auth.companyId, params.id, body, actorOf(auth, clientAddress)),
        ),
        201,
      ),
  ),

  /** the preferred transport, or rotated credentials */
  'PUT /whatsapp/{id}/cloud-transport': route(
    { permission: editConnection, params, body: CloudTransportUpdateBody },
    async ({ auth, params, body, clientAddress }) =>
      changed(auth.profile, await updateCloudTransport(auth.companyId, params.id, body, actorOf(auth, clientAddress))),
  ),

  'DELETE /whatsapp/{id}/cloud-transport': route(
    { permission: editConnection, params },
    async ({ auth, params, clientAddress }) =>
      changed(auth.profile, await detachCloudTransport(auth.companyId, params.id, actorOf(auth, clientAddress))),
  ),

  'DELETE /whatsapp/{id}': route(
    { permission: 'connections-page:editOrDeleteConnection', params },
    async ({ auth, params }) => {
      await deleteWhatsapp(auth.companyId, params.id);
      return { message: 'Whatsapp deleted.' };
    },
  ),
});
