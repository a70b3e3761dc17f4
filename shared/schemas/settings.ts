import { z } from 'zod';
import { Schedules } from './queues';

/** `PUT /settings/{key}`: the value is checked against SETTING_VALUES by the service. */
export const SettingParams = z.object({ key: z.string().min(1).max(60) });
export const SettingBody = z.object({
  value: z.union([z.string().max(500), z.number(), z.boolean()]).transform(String),
});

/** `PUT /companies/{id}/schedules`: the company's business hours (scheduleType 'company'). */
export const CompanySchedulesBody = z.object({ schedules: Schedules });
