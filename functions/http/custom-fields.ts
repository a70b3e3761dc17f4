import '#lib/startup';
import { z } from 'zod';
import { httpModule, reply, route } from '#lib/http';
import type { AuthContext } from '#lib/auth';
import { createField, deleteField, listFields, setTicketFields, updateField } from '#lib/custom-fields/service';
import { updateContact } from '#lib/contacts/service';
import { ADMIN_AREA as ADMIN } from '#lib/users/service';
import { actorOf as auditActorOf } from '#lib/audit/actor';
import { idParam } from '#shared/schemas/common';
import {
  CustomFieldBody,
  CustomFieldsPutBody,
  CustomFieldsQuery,
  CustomFieldUpdateBody,
} from '#shared/schemas/custom-fields';

const params = z.object({ id: idParam });
const actorOf = (auth: AuthContext) => ({ userId: auth.userId, profile: auth.profile });

/**
 * Custom fields (issue 40): admins define them; every user of the company reads the definitions (the
 * drawer and the ticket show them) and sets values on the contacts and tickets they may change.
 */
export const handler = httpModule({
  'GET /custom-fields': route({ query: CustomFieldsQuery }, async ({ auth, query }) =>
    listFields(auth.companyId, query.entity),
  ),

  'POST /custom-fields': route({ permission: ADMIN, body: CustomFieldBody }, async ({ auth, body, clientAddress }) =>
    reply(await createField(auth.companyId, body, auditActorOf(auth, clientAddress)), 201),
  ),

  'PUT /custom-fields/{id}': route(
    { permission: ADMIN, params, body: CustomFieldUpdateBody },
    async ({ auth, params, body, clientAddress }) =>
      updateField(auth.companyId, params.id, body, auditActorOf(auth, clientAddress)),
  ),

  'DELETE /custom-fields/{id}': route({ permission: ADMIN, params }, async ({ auth, params, clientAddress }) =>
    deleteField(auth.companyId, params.id, auditActorOf(auth, clientAddress)),
  ),

  'PUT /contacts/{id}/custom-fields': route({ params, body: CustomFieldsPutBody }, async ({ auth, params, body }) =>
    updateContact(auth.companyId, params.id, { customFields: body.customFields }),
  ),

  'PUT /tickets/{id}/custom-fields': route({ params, body: CustomFieldsPutBody }, async ({ auth, params, body }) =>
    setTicketFields(auth.companyId, actorOf(auth), params.id, body.customFields),
  ),
});
