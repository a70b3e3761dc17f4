import '#lib/startup';
import { z } from 'zod';
import { httpModule, route, reply } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import {
  QuickMessageBody,
  QuickMessageUpdateBody,
  QuickMessagesListQuery,
  QuickMessagesQuery,
} from '#shared/schemas/quick-messages';
import { readMultipartFile } from '#lib/multipart';
import {
  attachQuickMessageMedia,
  createQuickMessage,
  deleteQuickMessage,
  getQuickMessage,
  listQuickMessagesFor,
  listQuickMessagesPage,
  removeQuickMessageMedia,
  updateQuickMessage,
} from '#lib/quick-messages/service';

const params = z.object({ id: idParam });

/** Quick messages (management.md "Quick messages" and section 7; the composer's `/` list). */
export const handler = httpModule({
  'GET /quick-messages': route({ query: QuickMessagesQuery }, async ({ auth, query }) =>
    listQuickMessagesPage(auth, query),
  ),

  'GET /quick-messages/list': route({ query: QuickMessagesListQuery }, async ({ auth, query }) =>
    listQuickMessagesFor(auth, query.userId),
  ),

  'GET /quick-messages/{id}': route({ params }, async ({ auth, params }) => getQuickMessage(auth, params.id)),

  'POST /quick-messages': route({ body: QuickMessageBody }, async ({ auth, body }) =>
    reply(await createQuickMessage(auth, body), 201),
  ),

  'PUT /quick-messages/{id}': route({ params, body: QuickMessageUpdateBody }, async ({ auth, params, body }) =>
    updateQuickMessage(auth, params.id, body),
  ),

  'DELETE /quick-messages/{id}': route({ params }, async ({ auth, params }) => {
    await deleteQuickMessage(auth, params.id);
    return { message: 'Quick message deleted' };
  }),

  'POST /quick-messages/{id}/media-upload': route({ params }, async ({ auth, params, event }) =>
    attachQuickMessageMedia(auth, params.id, await readMultipartFile(event)),
  ),

  'DELETE /quick-messages/{id}/media-upload': route({ params }, async ({ auth, params }) =>
    removeQuickMessageMedia(auth, params.id),
  ),
});
