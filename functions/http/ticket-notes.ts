import '#lib/startup';
import { z } from 'zod';
import { httpModule, reply, route } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { TicketNoteBody, TicketNotesQuery } from '#shared/schemas/messages';
import { createNote, deleteNote, listNotes } from '#lib/notes/service';

/** Internal notes of the contact drawer (attendance.md 2.9, 5, 7). */
export const handler = httpModule({
  'POST /ticket-notes': route({ body: TicketNoteBody }, async ({ auth, body }) =>
    reply(await createNote(auth.companyId, { userId: auth.userId, profile: auth.profile }, body), 201),
  ),

  'DELETE /ticket-notes/{id}': route({ params: z.object({ id: idParam }) }, async ({ auth, params }) => {
    await deleteNote(auth.companyId, { userId: auth.userId, profile: auth.profile }, params.id);
    return { message: 'note deleted' };
  }),

  'GET /ticket-notes/list': route({ query: TicketNotesQuery }, async ({ auth, query }) =>
    listNotes(auth.companyId, { userId: auth.userId, profile: auth.profile }, query),
  ),
});
