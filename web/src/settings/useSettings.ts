import { SETTING_DEFAULTS, type SettingKey } from '#shared/constants';
import type { Setting } from '#shared/schemas/accounts';
import { useApi } from '../api/swr';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { liveMutation } from '../realtime/cache';

/** The company settings (`GET /settings`), kept live by `setting` events; unset keys read as their defaults. */
export function useSettings(enabled = true) {
  const { data, mutate, isLoading } = useApi<Setting[]>(enabled ? '/settings' : null);
  useRealtimeEvent<{ action: string; setting?: Setting }>('setting', (ev) => {
    const setting = ev.setting;
    if (!setting) return;
    void mutate((list) => [...(list ?? []).filter((s) => s.key !== setting.key), setting], liveMutation(data));
  });
  const value = (key: SettingKey) =>
    (Array.isArray(data) ? data.find((s) => s.key === key)?.value : undefined) ?? SETTING_DEFAULTS[key];
  return { settings: data, value, mutate, isLoading };
}
