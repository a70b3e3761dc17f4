import {
  DEFAULT_SCHEDULES,
  SETTING_DEFAULTS,
  SETTING_PATTERNS,
  SETTING_VALUES,
  type SettingKey,
} from '#shared/constants';
import type { Setting } from '#shared/schemas/accounts';
import type { DaySchedule } from '#shared/schemas/queues';
import {
  SECRET_MASK,
  SETTING_KEYS,
  SETTING_POLICY,
  type SettingRole,
  maskSecret,
  mayReadSetting,
  mayWriteSetting,
  settingChange,
  settingRole,
  shownValue,
} from '#shared/settings-policy';
import type { Audience } from '#shared/events';
import type { AuthContext } from './auth';
import { actorOf, auditBy } from './audit/actor';
import { getItem, putItem, query, updateItem } from './db';
import { AppError } from './errors';
import { nowIso } from './keys';
import { publish } from './realtime';
import { companyKeys } from './accounts/companies';
import { getStoredPrompt } from './prompts/repo';

/**
 * Company settings: pk `C#<companyId>`, sk `SETTING#<key>`; unset keys read as their defaults. Who
 * reads and writes each key, and which are secrets, is SETTING_POLICY (shared/settings-policy.ts).
 */
export const settingKeys = (companyId: number, key: string) => ({ pk: `C#${companyId}`, sk: `SETTING#${key}` });

/** Every key of the table with its stored value or default, secrets in full: for this module only. */
async function storedSettings(companyId: number): Promise<Map<SettingKey, string>> {
  const { items } = await query<Setting>({ pk: `C#${companyId}`, sk: { beginsWith: 'SETTING#' } });
  const stored = new Map(items.map((i) => [i.key, i.value]));
  return new Map(SETTING_KEYS.map((key) => [key, stored.get(key) ?? SETTING_DEFAULTS[key]]));
}

/** The settings a role may read in a company, secrets masked: what GET /settings answers. */
export async function listSettingsFor(companyId: number, role: SettingRole): Promise<Setting[]> {
  const all = await storedSettings(companyId);
  return SETTING_KEYS.filter((key) => mayReadSetting(key, role, companyId)).map((key) => ({
    key,
    value: shownValue(key, all.get(key) ?? ''),
  }));
}

/** What every user of the company reads: the login response and the bot. */
export const listSettings = (companyId: number) => listSettingsFor(companyId, 'user');

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

/** One setting in full (secrets included), for the services that act on it (payments, webhooks, rules). */
export async function settingValue(companyId: number, key: SettingKey): Promise<string> {
  const item = await getItem<Setting>(settingKeys(companyId, key));
  return item?.value ?? SETTING_DEFAULTS[key];
}

/** Keys whose values name one of the company's own records (no fixed list): checked when set; empty is none. */
const RECORD_CHECKS: Partial<Record<SettingKey, (companyId: number, value: string) => Promise<boolean>>> = {
  copilotPromptId: async (companyId, value) => Boolean(await getStoredPrompt(companyId, Number(value))),
};

/** Who hears a change: those who may read the key. */
const AUDIENCE: Record<SettingRole, Audience> = {
  user: { kind: 'company' },
  admin: { kind: 'admins' },
  super: { kind: 'superUsers' },
};

/**
 * Changes one setting of the caller's company (management.md "Settings page", section 9) as
 * SETTING_POLICY allows: ERR_NO_PERMISSION for a role below the key's, or for a platform-only key
 * outside the platform company; ERR_VALIDATION for a value outside the key's options or pattern, or
 * naming no record of the company (RECORD_CHECKS). A secret's
 * mask sent back is no change (the stored secret stays), any other mask is refused, never stored;
 * an empty value clears it.
 * Those who may read the key hear it (masked), and the change is audited (masked).
 */
export async function updateSetting(
  actor: AuthContext,
  key: SettingKey,
  value: string,
  address: string,
): Promise<Setting> {
  const { companyId } = actor;
  const policy = SETTING_POLICY[key];
  if (!mayWriteSetting(key, settingRole(actor), companyId)) throw new AppError('ERR_NO_PERMISSION');
  const allowed = SETTING_VALUES[key];
  if (allowed && !allowed.includes(value))
    throw new AppError('ERR_VALIDATION', 400, [{ path: ['value'], message: 'invalid', allowed }]);
  const pattern = SETTING_PATTERNS[key];
  if (pattern && !pattern.test(value))
    throw new AppError('ERR_VALIDATION', 400, [{ path: ['value'], message: 'invalid' }]);
  const check = RECORD_CHECKS[key];
  if (check && value !== '' && !(await check(companyId, value)))
    throw new AppError('ERR_VALIDATION', 400, [{ path: ['value'], message: 'invalid' }]);
  const before = await settingValue(companyId, key);
  if (policy.secret && value !== '' && value === maskSecret(before)) return { key, value: maskSecret(before) };
  if (policy.secret && value.startsWith(SECRET_MASK))
    throw new AppError('ERR_VALIDATION', 400, [{ path: ['value'], message: 'a masked value is not a new secret' }]);
  await putItem({ ...settingKeys(companyId, key), key, value, updatedAt: nowIso() });
  recent.delete(companyId);
  const setting: Setting = { key, value: shownValue(key, value) };
  await auditBy(actorOf(actor, address), {
    action: policy.audit,
    target: { type: 'setting', id: key },
    changes: settingChange(key, before, value),
  });
  await publish(companyId, 'setting', { action: 'update', setting }, AUDIENCE[policy.read]);
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
