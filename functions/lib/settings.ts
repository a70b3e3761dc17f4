import { SETTING_DEFAULTS, type SettingKey } from '#shared/constants';
import type { Setting } from '#shared/schemas/accounts';
import { query } from './db';

/** A company setting: pk `C#<companyId>`, sk `SETTING#<key>`; unset keys read as their defaults. */
export const settingKeys = (companyId: number, key: string) => ({ pk: `C#${companyId}`, sk: `SETTING#${key}` });

export async function listSettings(companyId: number): Promise<Setting[]> {
  const { items } = await query<Setting>({ pk: `C#${companyId}`, sk: { beginsWith: 'SETTING#' } });
  const stored = new Map(items.map((i) => [i.key, i.value]));
  const keys = new Set<string>([...Object.keys(SETTING_DEFAULTS), ...stored.keys()]);
  return [...keys].map((key) => ({ key, value: stored.get(key) ?? SETTING_DEFAULTS[key as SettingKey] ?? '' }));
}

export async function settingValue(companyId: number, key: SettingKey): Promise<string> {
  const all = await listSettings(companyId);
  return all.find((s) => s.key === key)?.value ?? SETTING_DEFAULTS[key];
}
