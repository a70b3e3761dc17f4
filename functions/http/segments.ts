import '#lib/startup';
import { z } from 'zod';
import { httpModule, reply, route } from '#lib/http';
import { createSegment, deleteSegment, loadSegments, requireSegment, updateSegment } from '#lib/segments/service';
import { ADMIN_AREA as ADMIN } from '#lib/users/service';
import { idParam } from '#shared/schemas/common';
import { SegmentBody, SegmentUpdateBody } from '#shared/schemas/segments';

const params = z.object({ id: idParam });

/**
 * Contact segments (issue 40): admins define them; every user of the company reads them (the contacts
 * page lists a segment's contacts, the campaign form takes one as its audience).
 */
export const handler = httpModule({
  'GET /segments': route({}, async ({ auth }) => loadSegments(auth.companyId)),

  'GET /segments/{id}': route({ params }, async ({ auth, params }) => requireSegment(auth.companyId, params.id)),

  'POST /segments': route({ permission: ADMIN, body: SegmentBody }, async ({ auth, body }) =>
    reply(await createSegment(auth.companyId, body), 201),
  ),

  'PUT /segments/{id}': route({ permission: ADMIN, params, body: SegmentUpdateBody }, async ({ auth, params, body }) =>
    updateSegment(auth.companyId, params.id, body),
  ),

  'DELETE /segments/{id}': route({ permission: ADMIN, params }, async ({ auth, params }) =>
    deleteSegment(auth.companyId, params.id),
  ),
});
