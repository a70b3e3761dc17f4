import { PLATFORM_COMPANY_ID, type SettingKey } from './constants';
import { can } from './permissions';

/**
 * Who may read and change each company setting: the one table both `GET /settings` (and the login
 * response, and the `setting` event) and `PUT /settings/{key}` follow. A key added to SETTING_DEFAULTS
 * without an entry here does not compile.
 */

/** A caller's standing for settings: any user of the company, its admins, or a platform super user. */
export type SettingRole = 'user' | 'admin' | 'super';

export interface SettingPolicy {
  /** the least role that reads it */
  read: SettingRole;
  /** the least role that changes it */
  write: SettingRole;
  /** meaningful only in the platform company: absent from every other company's list, never written there */
  platformOnly: boolean;
  /** a credential: every route answers it masked (`••••1234`), and the mask sent back leaves it unchanged */
  secret: boolean;
  /** the audit action of a change */
  audit: 'settings.changed' | 'payment_settings.changed';
}

const option: SettingPolicy = {
  read: 'user',
  write: 'admin',
  platformOnly: false,
  secret: false,
  audit: 'settings.changed',
};
const adminOption: SettingPolicy = { ...option, read: 'admin' };
const paymentSecret: SettingPolicy = {
  read: 'super',
  write: 'super',
  platformOnly: true,
  secret: true,
  audit: 'payment_settings.changed',
};

export const SETTING_POLICY: Readonly<Record<SettingKey, SettingPolicy>> = {
  // read by attendants too: the ticket screen, the side menu and the bot follow them
  userRating: option,
  scheduleType: option,
  CheckMsgIsGroup: option,
  call: option,
  chatBotType: option,
  sendGreetingAccepted: option,
  sendMsgTransfTicket: option,
  sendGreetingMessageOneQueues: option,
  userCreation: option,
  initialMenu: option,
  // presence and the soft lock (issue 24): the browser reads them to time "away" and offer "Take over"
  awayAfterMinutes: option,
  takeoverByAnyUser: option,
  // the copilot's prompt (issue 39): one of the company's prompts, or empty (checked by the service)
  copilotPromptId: option,
  // the AI spend cap (issue 39): the admins' business, not the attendants'
  aiMonthlyCallLimit: adminOption,
  // the platform's payment provider key and the token its webhooks carry (billing/asaas.ts)
  asaas: paymentSecret,
  asaasWebhookToken: paymentSecret,
};

export const SETTING_KEYS = Object.keys(SETTING_POLICY) as SettingKey[];

export const isSettingKey = (key: string): key is SettingKey => Object.hasOwn(SETTING_POLICY, key);

const RANK: Record<SettingRole, number> = { user: 0, admin: 1, super: 2 };

/** Admins are those who reach the admin section (where the settings page is); super users rank above them. */
export function settingRole(who: { profile?: string; super?: boolean }): SettingRole {
  if (who.super) return 'super';
  return can(who.profile, 'drawer-admin-items:view') ? 'admin' : 'user';
}

const applies = (key: SettingKey, companyId: number) =>
  !SETTING_POLICY[key].platformOnly || companyId === PLATFORM_COMPANY_ID;

export const mayReadSetting = (key: SettingKey, role: SettingRole, companyId: number) =>
  applies(key, companyId) && RANK[role] >= RANK[SETTING_POLICY[key].read];

export const mayWriteSetting = (key: SettingKey, role: SettingRole, companyId: number) =>
  applies(key, companyId) && RANK[role] >= RANK[SETTING_POLICY[key].write];

export const SECRET_MASK = '••••';

/** A secret as routes show it: its last 4 characters when long enough to keep the rest hidden; empty stays empty. */
export function maskSecret(value: string): string {
  if (!value) return value;
  return value.length > 8 ? `${SECRET_MASK}${value.slice(-4)}` : SECRET_MASK;
}

/** The value a role is shown: secrets masked. */
export const shownValue = (key: SettingKey, value: string) => (SETTING_POLICY[key].secret ? maskSecret(value) : value);

/** A change as the audit trail keeps it, secrets masked (the audit's own masking goes by field name only). */
export const settingChange = (key: SettingKey, from: string, to: string) => ({
  [key]: { from: shownValue(key, from), to: shownValue(key, to) },
});
