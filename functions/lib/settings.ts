import { DEFAULT_SCHEDULES, SETTING_DEFAULTS, SETTING_VALUES, type SettingKey } from '#shared/constants';
import type { Setting } from '#shared/schemas/accounts';
import type { DaySchedule } from '#shared/schemas/queues';
import { getItem, putItem, query, updateItem } from './db';
import { AppError } from './errors';
import { nowIso } from './keys';
import { publish } from './realtime';
import { companyKeys } from './accounts/companies';

/** A company setting: pk `C#<companyId>`, sk `SETTING#<key>`; unset keys read as their defaults. */
export const settingKeys = (companyId: number, key: string) => ({ pk: `C#${companyId}`, sk: `SETTING#${key}` });

/** Settings that hold credentials (the payment integration key): written by admins, read by super users only. */
const SECRET_SETTINGS: ReadonlySet<string> = new Set<SettingKey>(['asaas', 'asaasWebhookToken']);

/** The company's settings without the secret ones: what any user, the login response and the bot read. */
export async function listSettings(companyId: number): Promise<Setting[]> {
  return (await listAllSettings(companyId)).filter((s) => !SECRET_SETTINGS.has(s.key));
}

/**
 * The inbound pipeline reads the settings with every message; at volume one read per instance and
 * RECENT_SETTINGS_MS is enough (a change made here clears it at once; on another instance it applies
 * within that time).
 */
export const RECENT_SETTINGS_MS = 10_000;
const recent = new Map<number, { at: number; settings: Promise<Setting[]> }>();

export function recentSettings(companyId: number, now = Date.now()): Promise<Setting[]> {
  const hit = recent.get(companyId);
  if (hit && now - hit.at < RECENT_SETTINGS_MS) return hit.settings;
  const settings = listSettings(companyId);
  recent.set(companyId, { at: now, settings });
  settings.catch(() => recent.delete(companyId));
  return settings;
}

/** Every setting, secrets included: the super user's view. */
export async function listAllSettings(companyId: number): Promise<Setting[]> {
  const { items } = await query<Setting>({ pk: `C#${companyId}`, sk: { beginsWith: 'SETTING#' } });
  const stored = new Map(items.map((i) => [i.key, i.value]));
  const keys = new Set<string>([...Object.keys(SETTING_DEFAULTS), ...stored.keys()]);
  return [...keys].map((key) => ({ key, value: stored.get(key) ?? SETTING_DEFAULTS[key as SettingKey] ?? '' }));
}

export async function settingValue(companyId: number, key: SettingKey): Promise<string> {
  const all = await listAllSettings(companyId);
  return all.find((s) => s.key === key)?.value ?? SETTING_DEFAULTS[key];
}

/**
 * Changes one setting (management.md "Settings page"). Unknown keys are ERR_NO_SETTING_FOUND; a
 * value outside the key's options is ERR_VALIDATION. Every open browser of the company hears it,
 * except for a secret, which only super users hear.
 */
export async function updateSetting(companyId: number, key: string, value: string): Promise<Setting> {
  if (!Object.hasOwn(SETTING_DEFAULTS, key)) throw new AppError('ERR_NO_SETTING_FOUND');
  const allowed = SETTING_VALUES[key as SettingKey];
  if (allowed && !allowed.includes(value))
    throw new AppError('ERR_VALIDATION', 400, [{ path: ['value'], message: 'invalid', allowed }]);
  const setting: Setting = { key, value };
  await putItem({ ...settingKeys(companyId, key), ...setting, updatedAt: nowIso() });
  recent.delete(companyId);
  await publish(
    companyId,
    'setting',
    { action: 'update', setting },
    SECRET_SETTINGS.has(key) ? { kind: 'superUsers' } : { kind: 'company' },
  );
  return setting;
}

/** The company's business hours (scheduleType 'company'), kept on the company item; defaults until set. */
export async function getCompanySchedules(companyId: number): Promise<DaySchedule[]> {
  const company = (await getItem(companyKeys(companyId))) as { schedules?: DaySchedule[] } | undefined;
  if (!company) throw new AppError('ERR_NOT_FOUND');
  return company.schedules?.length ? company.schedules : DEFAULT_SCHEDULES.map((d) => ({ ...d }));
}

export async function setCompanySchedules(companyId: number, schedules: DaySchedule[]): Promise<DaySchedule[]> {
  const updated = await updateItem(companyKeys(companyId), {
    set: { schedules, updatedAt: nowIso() },
    condition: 'attribute_exists(pk)',
  });
  if (!updated) throw new AppError('ERR_NOT_FOUND');
  return schedules;
}
