import '#lib/startup';
import { z } from 'zod';
import { httpModule, reply, route } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import {
  ContactBody,
  ContactMergeBody,
  DuplicateDismissBody,
  DuplicatesQuery,
  ContactPhoneImportBody,
  ContactsQuery,
  ContactUpdateBody,
  ContactUploadBody,
} from '#shared/schemas/contacts';
import { requireContact } from '#lib/contacts/repo';
import { contactOptions, listContacts } from '#lib/contacts/list';
import { createContact, deleteContact, importContacts, updateContact } from '#lib/contacts/service';
import { requestPhoneImport } from '#lib/contacts/phone-import';
import { actorOf } from '#lib/audit/actor';
import { dismissDuplicate, listDuplicates } from '#lib/contacts/duplicates';
import { mergeContacts, previewMerge } from '#lib/contacts/merge';

const params = z.object({ id: idParam });
const mergeParams = z.object({ id: idParam, otherId: idParam });
/** Suggested duplicates and merges change contacts across the company: admins only. */
const ADMIN = 'drawer-admin-items:view' as const;

/** Contacts (attendance.md 2.9, 5, 7; management.md "Contacts"). */
export const handler = httpModule({
  'GET /contacts': route({ query: ContactsQuery }, async ({ auth, query, clientAddress }) =>
    listContacts(auth.companyId, query, actorOf(auth, clientAddress)),
  ),

  'GET /contacts/list': route(
    { query: z.object({ searchParam: z.string().max(100).optional(), companyId: z.unknown().optional() }) },
    async ({ auth, query }) => contactOptions(auth.companyId, query.searchParam),
  ),

  'GET /contacts/duplicates': route({ permission: ADMIN, query: DuplicatesQuery }, async ({ auth, query }) =>
    listDuplicates(auth.companyId, query),
  ),

  'POST /contacts/duplicates/dismiss': route(
    { permission: ADMIN, body: DuplicateDismissBody },
    async ({ auth, body }) => {
      await dismissDuplicate(auth.companyId, body.contactIds, auth.userId);
      return { dismissed: true };
    },
  ),

  'GET /contacts/{id}/merge/{otherId}': route({ permission: ADMIN, params: mergeParams }, async ({ auth, params }) =>
    previewMerge(auth.companyId, params.id, params.otherId),
  ),

  'POST /contacts/{id}/merge': route(
    { permission: ADMIN, params, body: ContactMergeBody },
    async ({ auth, params, body, clientAddress }) =>
      mergeContacts(auth.companyId, params.id, body.otherId, { actor: actorOf(auth, clientAddress) }),
  ),

  'GET /contacts/{id}': route({ params }, async ({ auth, params }) => requireContact(auth.companyId, params.id)),

  'POST /contacts': route({ body: ContactBody }, async ({ auth, body }) =>
    reply(await createContact(auth.companyId, body), 201),
  ),

  'POST /contacts/upload': route({ body: ContactUploadBody }, async ({ auth, body, clientAddress }) =>
    importContacts(auth.companyId, body, actorOf(auth, clientAddress)),
  ),

  'POST /contacts/import': route(
    // the whole address book at once: an admin's action
    { permission: 'drawer-admin-items:view', body: ContactPhoneImportBody },
    async ({ auth, body, clientAddress }) =>
      reply(await requestPhoneImport(auth.companyId, body.whatsappId, actorOf(auth, clientAddress)), 202),
  ),

  'PUT /contacts/{id}': route({ params, body: ContactUpdateBody }, async ({ auth, params, body }) =>
    updateContact(auth.companyId, params.id, body),
  ),

  'DELETE /contacts/{id}': route({ permission: 'contacts-page:deleteContact', params }, async ({ auth, params }) => {
    await deleteContact(auth.companyId, params.id);
    return { message: 'Contact deleted' };
  }),
});
