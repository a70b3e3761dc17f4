import { z } from 'zod';
import type { SettingKey } from '../constants';
import { SETTING_KEYS } from '../settings-policy';
import { Schedules } from './queues';

/** `PUT /settings/{key}`: a key of SETTING_POLICY (any other is ERR_VALIDATION); the value is checked by the service. */
export const SettingParams = z.object({ key: z.enum(SETTING_KEYS as [SettingKey, ...SettingKey[]]) });
export const SettingBody = z.object({
  value: z.union([z.string().max(500), z.number(), z.boolean()]).transform(String),
});

/** `PUT /companies/{id}/schedules`: the company's business hours (scheduleType 'company'). */
export const CompanySchedulesBody = z.object({ schedules: Schedules });
