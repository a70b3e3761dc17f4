import {
  CAMPAIGN_SETTINGS_DEFAULTS,
  type CampaignSettings,
  type CampaignSettingsList,
} from '#shared/schemas/campaigns';
import { getItem, putItem } from '../db';
import { nowIso } from '../keys';
import { publish } from '../realtime';

/** Campaign settings (management.md 9): one item per company, pk `C#<cid>`, sk `CAMPAIGN_SETTINGS`. */
const settingsKeys = (companyId: number) => ({ pk: `C#${companyId}`, sk: 'CAMPAIGN_SETTINGS' });

export async function campaignSettings(companyId: number): Promise<CampaignSettings> {
  const item = await getItem<Partial<CampaignSettings>>(settingsKeys(companyId));
  return {
    messageInterval: item?.messageInterval ?? CAMPAIGN_SETTINGS_DEFAULTS.messageInterval,
    longerIntervalAfter: item?.longerIntervalAfter ?? CAMPAIGN_SETTINGS_DEFAULTS.longerIntervalAfter,
    greaterInterval: item?.greaterInterval ?? CAMPAIGN_SETTINGS_DEFAULTS.greaterInterval,
    variables: item?.variables ?? [],
  };
}

/** GET /campaign-settings: a list of key and JSON-encoded value, as the settings page reads it. */
export const settingsList = (s: CampaignSettings): CampaignSettingsList =>
  (Object.keys(s) as (keyof CampaignSettings)[]).map((key) => ({ key, value: JSON.stringify(s[key]) }));

export async function saveCampaignSettings(companyId: number, changes: Partial<CampaignSettings>) {
  const next = { ...(await campaignSettings(companyId)), ...changes };
  await putItem({ ...settingsKeys(companyId), ...next, updatedAt: nowIso() });
  await publish(companyId, 'setting', { action: 'update', campaignSettings: next });
  return settingsList(next);
}
