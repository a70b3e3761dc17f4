import { describe, expect, test } from 'vitest';
import { ERROR_CODES } from '#shared/errors';
import { detectLanguage, lazyNamespaces, namespaces } from './index';
import type { Locales, Strings } from './types';

const all: Record<string, Locales> = { ...namespaces };
for (const [ns, load] of Object.entries(lazyNamespaces)) all[ns] = (await load()).default;

const flatKeys = (s: Strings, prefix = ''): string[] =>
  Object.entries(s)
    .flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : flatKeys(v, `${prefix}${k}.`)))
    .sort();

describe('i18n', () => {
  test.each(Object.keys(all))('namespace %s has the same keys in pt, en and es', (ns) => {
    const { pt, en, es } = all[ns]!;
    expect(flatKeys(en)).toEqual(flatKeys(pt));
    expect(flatKeys(es)).toEqual(flatKeys(pt));
  });
  test('a namespace is either bundled or lazy, never both', () => {
    expect(Object.keys(namespaces).filter((ns) => ns in lazyNamespaces)).toEqual([]);
  });
  test('every catalogued error code has a toast text (section 8)', () => {
    const codes = flatKeys(all.errors.pt);
    for (const code of ERROR_CODES.filter((c) => !['ERR_ROUTE_NOT_FOUND', 'ERR_INVALID_CURSOR'].includes(c)))
      expect(codes).toContain(code);
  });
  test('language: storage first (two letters), else the browser, else pt', () => {
    expect(detectLanguage('es', 'en-US')).toBe('es');
    expect(detectLanguage('en-GB', 'pt-BR')).toBe('en');
    expect(detectLanguage(null, 'en-US')).toBe('en');
    expect(detectLanguage(null, 'fr-FR')).toBe('pt');
    expect(detectLanguage('xx', undefined)).toBe('pt');
  });
});
