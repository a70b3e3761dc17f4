import '#lib/startup';
import { z } from 'zod';
import { httpModule, reply, route } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import {
  ContactListBody,
  ContactListItemBody,
  ContactListItemsQuery,
  ContactListItemUpdateBody,
  ContactListsQuery,
} from '#shared/schemas/contact-lists';
import { readMultipartFile } from '#lib/multipart';
import { requireContactListItem } from '#lib/contact-lists/repo';
import {
  allContactLists,
  createContactList,
  createContactListItem,
  deleteContactList,
  deleteContactListItem,
  contactListDetail,
  importContactList,
  listContactListItems,
  listContactLists,
  sampleDownload,
  updateContactList,
  updateContactListItem,
} from '#lib/contact-lists/service';
import { actorOf } from '#lib/audit/actor';

const params = z.object({ id: idParam });
const feature = 'useCampaigns' as const;

/** Contact lists and their items (management.md "Contact lists", 5, 7), the audience of campaigns. */
export const handler = httpModule({
  'GET /contact-lists': route({ feature, query: ContactListsQuery }, async ({ auth, query }) =>
    listContactLists(auth.companyId, query),
  ),
  'GET /contact-lists/list': route({ feature }, async ({ auth }) => allContactLists(auth.companyId)),
  'GET /contact-lists/sample': route({ feature }, async ({ auth }) => sampleDownload(auth.companyId)),
  'GET /contact-lists/{id}': route({ feature, params }, async ({ auth, params }) =>
    contactListDetail(auth.companyId, params.id),
  ),
  'POST /contact-lists': route({ feature, body: ContactListBody }, async ({ auth, body }) =>
    reply(await createContactList(auth.companyId, body), 201),
  ),
  'PUT /contact-lists/{id}': route({ feature, params, body: ContactListBody }, async ({ auth, params, body }) =>
    updateContactList(auth.companyId, params.id, body),
  ),
  'DELETE /contact-lists/{id}': route({ feature, params }, async ({ auth, params }) => {
    await deleteContactList(auth.companyId, params.id);
    return { message: 'Contact list deleted' };
  }),
  'POST /contact-lists/{id}/upload': route({ feature, params }, async ({ auth, params, event, clientAddress }) =>
    importContactList(auth.companyId, params.id, await readMultipartFile(event), actorOf(auth, clientAddress)),
  ),
  'GET /contact-list-items': route({ feature, query: ContactListItemsQuery }, async ({ auth, query }) =>
    listContactListItems(auth.companyId, query),
  ),
  'GET /contact-list-items/{id}': route({ feature, params }, async ({ auth, params }) =>
    requireContactListItem(auth.companyId, params.id),
  ),
  'POST /contact-list-items': route({ feature, body: ContactListItemBody }, async ({ auth, body }) =>
    reply(await createContactListItem(auth.companyId, body), 201),
  ),
  'PUT /contact-list-items/{id}': route(
    { feature, params, body: ContactListItemUpdateBody },
    async ({ auth, params, body }) => updateContactListItem(auth.companyId, params.id, body),
  ),
  'DELETE /contact-list-items/{id}': route({ feature, params }, async ({ auth, params }) => {
    await deleteContactListItem(auth.companyId, params.id);
    return { message: 'Contact deleted' };
  }),
});
