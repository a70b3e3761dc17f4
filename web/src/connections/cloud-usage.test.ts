import { describe, expect, test } from 'vitest';
import { formatCount, limitView, monthLabel, usageRows } from './cloud-usage';

describe("a Cloud API number's limit and usage on the Connections page", () => {
  test("the messaging limit: a count, unlimited (-1), or Meta's default of 250 while unknown", () => {
    expect(limitView(2000)).toEqual({ kind: 'count', customers: 2000 });
    expect(limitView(-1)).toEqual({ kind: 'unlimited' });
    expect(limitView(undefined)).toEqual({ kind: 'default', customers: 250 });
  });

  test("counts and months read in the reader's language", () => {
    expect(formatCount(2000, 'pt')).toBe('2.000');
    expect(formatCount(2000, 'en')).toBe('2,000');
    expect(formatCount(100000, 'es')).toBe('100.000');
    expect(monthLabel('2027-03', 'pt')).toBe('Março de 2027');
    expect(monthLabel('2027-03', 'en')).toBe('March 2027');
    expect(monthLabel('2027-01', 'es')).toBe('Enero de 2027');
  });

  test("a month's usage lists every category, charged or free, in Meta's order, others after by name", () => {
    expect(
      usageRows({
        charged: { utility: 3, marketing: 5, zeta_new: 1 },
        free: { service: 12, utility: 1, alpha_new: 2 },
      }),
    ).toEqual([
      { category: 'marketing', charged: 5, free: 0 },
      { category: 'utility', charged: 3, free: 1 },
      { category: 'service', charged: 0, free: 12 },
      { category: 'alpha_new', charged: 0, free: 2 },
      { category: 'zeta_new', charged: 1, free: 0 },
    ]);
    expect(usageRows({ charged: {}, free: {} })).toEqual([]);
  });
});
