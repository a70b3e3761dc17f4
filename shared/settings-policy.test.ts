import { describe, expect, it } from 'vitest';
import { SETTING_KEYS, SETTING_POLICY, maskSecret, settingChange, settingRole } from './settings-policy';

describe('settings policy helpers', () => {
  it('a secret is shown only by its last 4 characters, and only when at least 5 others stay hidden', () => {
    expect(maskSecret('$aact_test_123456789')).toBe('••••6789');
    expect(maskSecret('123456789')).toBe('••••6789');
    expect(maskSecret('12345678')).toBe('••••');
    expect(maskSecret('ab')).toBe('••••');
    expect(maskSecret('')).toBe('');
  });

  it('the settings role: the super flag above all, admins by the admin area, supervisors and attendants as users', () => {
    expect(settingRole({ profile: 'user', super: true })).toBe('super');
    expect(settingRole({ profile: 'admin', super: false })).toBe('admin');
    expect(settingRole({ profile: 'supervisor', super: false })).toBe('user');
    expect(settingRole({ profile: 'user' })).toBe('user');
    expect(settingRole({})).toBe('user');
  });

  it('the audited change of every secret key holds neither side in full; other keys keep both sides', () => {
    const from = 'old-credential-0001';
    const to = 'new-credential-0002';
    for (const key of SETTING_KEYS) {
      const change = settingChange(key, from, to);
      if (SETTING_POLICY[key].secret) expect(change, key).toEqual({ [key]: { from: '••••0001', to: '••••0002' } });
      else expect(change, key).toEqual({ [key]: { from, to } });
    }
  });
});
