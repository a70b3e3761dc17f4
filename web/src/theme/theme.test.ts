import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildTheme } from './theme';
import { initialMode } from './mode';

const css = readFileSync(resolve(import.meta.dirname, 'base.css'), 'utf8');

/** The custom properties of one rule of base.css (`:root` or `:root[data-mode="dark"]`). */
function variables(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`no ${selector} rule in base.css`);
  const body = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries(
    [...body.matchAll(/(--app-[\w-]+):\s*([^;]+);/g)].map(([, k, v]) => [k, v.replace(/\s+/g, ' ').trim()]),
  );
}

const norm = (v: string) => v.replace(/\s+/g, '').toLowerCase();

describe('the plain CSS theme (base.css) is the MUI theme (theme.ts)', () => {
  const light = variables(':root');
  const dark = { ...light, ...variables(':root[data-mode="dark"]') };
  for (const [mode, vars] of [
    ['light', light],
    ['dark', dark],
  ] as const) {
    test(`${mode}: colours, type and radius of the login page equal the theme's`, () => {
      const th = buildTheme(mode);
      const p = th.palette;
      const expected: Record<string, string> = {
        '--app-primary': p.primary.main,
        '--app-primary-dark': p.primary.dark,
        '--app-primary-contrast': p.primary.contrastText,
        '--app-error': p.error.main,
        '--app-warning': p.warning.main,
        '--app-warning-contrast': p.warning.contrastText,
        '--app-text': p.text.primary,
        '--app-text-secondary': p.text.secondary,
        '--app-action-active': p.action.active,
        '--app-action-hover': p.action.hover,
        '--app-action-focus': p.action.focus,
        '--app-action-disabled': p.action.disabled,
        '--app-action-disabled-bg': p.action.disabledBackground,
        '--app-background': p.background.default,
        '--app-paper': p.background.paper,
        '--app-shadow-2': th.shadows[2],
        '--app-shadow-3': th.shadows[3],
        '--app-font': String(th.typography.fontFamily),
        '--app-radius': `${th.shape.borderRadius}px`,
      };
      for (const [name, value] of Object.entries(expected)) expect(norm(vars[name] ?? ''), name).toBe(norm(value));
    });
  }

  test('the stored choice wins, else the system preference', () => {
    expect(initialMode('dark', false)).toBe('dark');
    expect(initialMode('light', true)).toBe('light');
    expect(initialMode(null, true)).toBe('dark');
    expect(initialMode('x', false)).toBe('light');
  });
});

describe('less motion when the system asks for it', () => {
  test('every transition lasts 0 ms and buttons have no ripple; the default theme keeps both', () => {
    const still = buildTheme('light', true);
    expect(Object.values(still.transitions.duration)).toEqual(Object.values(still.transitions.duration).map(() => 0));
    expect(still.components?.MuiButtonBase?.defaultProps?.disableRipple).toBe(true);
    const moving = buildTheme('light');
    expect(moving.transitions.duration.enteringScreen).toBeGreaterThan(0);
    expect(moving.components?.MuiButtonBase?.defaultProps?.disableRipple).toBeUndefined();
  });
});
