import { describe, expect, test } from 'vitest';
import { visibleMenu, type MenuContext } from '../layout/menu';
import { MENU_ICONS } from '../layout/menu-icons';
import { namespaces } from '../i18n';

const keys = (ctx: Partial<MenuContext>) =>
  visibleMenu({ profile: 'user', super: false, plan: {}, cshow: false, ...ctx }).map((m) => m.key);

describe('fleet menu entry', () => {
  test('only super users see the fleet entry', () => {
    expect(keys({ super: true, profile: 'admin' })).toContain('fleet');
    expect(keys({ profile: 'admin' })).not.toContain('fleet');
    expect(keys({})).not.toContain('fleet');
  });
  test('the entry has an icon and a label in every language', () => {
    expect(MENU_ICONS.fleet).toBeDefined();
    for (const lang of ['pt', 'en', 'es'] as const)
      expect((namespaces.common[lang].menu as Record<string, string>).fleet).toBeTruthy();
  });
});
