import '#lib/startup';
import { z } from 'zod';
import { httpModule, route, reply } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { ScheduleBody, ScheduleUpdateBody, SchedulesQuery } from '#shared/schemas/schedules';
import { readMultipartFile } from '#lib/multipart';
import {
  attachScheduleMedia,
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedulesPage,
  removeScheduleMedia,
  updateSchedule,
} from '#lib/schedules/service';

const params = z.object({ id: idParam });
const feature = 'useSchedules' as const;

/** Scheduled messages (attendance.md 3, 5, 7; management.md "Schedules"), behind the plan's useSchedules. */
export const handler = httpModule({
  'GET /schedules': route({ feature, query: SchedulesQuery }, async ({ auth, query }) =>
    listSchedulesPage(auth.companyId, query),
  ),

  'GET /schedules/{id}': route({ feature, params }, async ({ auth, params }) => getSchedule(auth.companyId, params.id)),

  'POST /schedules': route({ feature, body: ScheduleBody }, async ({ auth, body }) =>
    reply(await createSchedule(auth, body), 201),
  ),

  'PUT /schedules/{id}': route({ feature, params, body: ScheduleUpdateBody }, async ({ auth, params, body }) =>
    updateSchedule(auth, params.id, body),
  ),

  'DELETE /schedules/{id}': route({ feature, params }, async ({ auth, params }) => {
    await deleteSchedule(auth, params.id);
    return { message: 'Schedule deleted' };
  }),

  'POST /schedules/{id}/media-upload': route({ feature, params }, async ({ auth, params, event }) =>
    attachScheduleMedia(auth, params.id, await readMultipartFile(event)),
  ),

  'DELETE /schedules/{id}/media-upload': route({ feature, params }, async ({ auth, params }) =>
    removeScheduleMedia(auth, params.id),
  ),
});
