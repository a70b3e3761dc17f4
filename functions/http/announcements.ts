import '#lib/startup';
import { z } from 'zod';
import { httpModule, reply, route } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { AnnouncementBody, AnnouncementsQuery, AnnouncementUpdateBody } from '#shared/schemas/announcements';
import { readMultipartFile } from '#lib/multipart';
import {
  attachAnnouncementMedia,
  createAnnouncement,
  deleteAnnouncement,
  getAnnouncement,
  listAnnouncements,
  markAnnouncementRead,
  removeAnnouncementMedia,
  updateAnnouncement,
} from '#lib/announcements/service';

const params = z.object({ id: idParam });

/**
 * Announcements (management.md "Announcements", 7): super users write them; every signed-in user
 * reads the active ones (the top-bar popover) and marks the ones they open as read.
 */
export const handler = httpModule({
  'GET /announcements': route({ query: AnnouncementsQuery }, async ({ auth, query }) => listAnnouncements(auth, query)),

  'GET /announcements/{id}': route({ params }, async ({ auth, params }) => getAnnouncement(auth, params.id)),

  'POST /announcements': route({ super: true, body: AnnouncementBody }, async ({ body }) =>
    reply(await createAnnouncement(body), 201),
  ),

  'PUT /announcements/{id}': route({ super: true, params, body: AnnouncementUpdateBody }, async ({ params, body }) =>
    updateAnnouncement(params.id, body),
  ),

  'DELETE /announcements/{id}': route({ super: true, params }, async ({ params }) => {
    await deleteAnnouncement(params.id);
    return { message: 'Announcement deleted' };
  }),

  'POST /announcements/{id}/read': route({ params }, async ({ auth, params }) => markAnnouncementRead(auth, params.id)),

  'POST /announcements/{id}/media-upload': route({ super: true, params }, async ({ auth, params, event }) =>
    attachAnnouncementMedia(auth, params.id, await readMultipartFile(event)),
  ),

  'DELETE /announcements/{id}/media-upload': route({ super: true, params }, async ({ params }) =>
    removeAnnouncementMedia(params.id),
  ),
});
