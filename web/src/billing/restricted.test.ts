import { describe, expect, test } from 'vitest';
import { visibleMenu } from '../layout/menu';
import { isRestricted, restrictedRedirect } from './restricted';

describe('restricted session (issue 10)', () => {
  test('an expired company admin reaches only /financeiro and /subscription', () => {
    expect(restrictedRedirect(true, '/financeiro')).toBeNull();
    expect(restrictedRedirect(true, '/subscription')).toBeNull();
    expect(restrictedRedirect(true, '/subscription/')).toBeNull();
    for (const path of ['/', '/tickets', '/tickets/12', '/settings', '/connections'])
      expect(restrictedRedirect(true, path)).toBe('/financeiro');
  });
  test('its menu lists only the invoices', () => {
    const ctx = { profile: 'admin', super: false, plan: { useKanban: true }, cshow: false };
    expect(visibleMenu({ ...ctx, restricted: true }).map((m) => m.key)).toEqual(['financeiro']);
    expect(visibleMenu(ctx).map((m) => m.key)).toContain('settings');
  });
  test('a session in good standing goes anywhere', () => {
    expect(restrictedRedirect(false, '/tickets')).toBeNull();
    expect(restrictedRedirect(false, '/')).toBeNull();
  });
  test('the server says whether the session is restricted (company.restricted on the login answer)', () => {
    const company = (restricted?: boolean) => ({ id: 1, name: 'x', dueDate: '2026-01-01T00:00:00Z', restricted });
    expect(isRestricted({ company: company(true) })).toBe(true);
    expect(isRestricted({ company: company(false) })).toBe(false);
    expect(isRestricted({ company: company() })).toBe(false);
  });
});
