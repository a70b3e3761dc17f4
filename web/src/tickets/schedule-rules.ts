import { addHours, format } from 'date-fns';
import { ScheduleBody } from '#shared/schemas/schedules';
import { fieldErrors } from '../lib/zod-errors';

/** Section 5 through the shared schema: body at least 5 characters, contact and sendAt required. */
export function validateSchedule(body: string, sendAt: string, contactId: number) {
  const parsed = ScheduleBody.safeParse({ body, sendAt: sendAt ? new Date(sendAt).toISOString() : '', contactId });
  return parsed.success ? { errors: {}, data: parsed.data } : { errors: fieldErrors(parsed.error), data: null };
}

/** The default send time: now plus 1 hour, as a datetime-local value. */
export const defaultSendAt = (now = new Date()) => format(addHours(now, 1), "yyyy-MM-dd'T'HH:mm");
