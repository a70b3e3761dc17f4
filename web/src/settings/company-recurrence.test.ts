import { describe, expect, test } from 'vitest';
import { RECURRENCE_MONTHS } from '#shared/constants';
import { CompanyBody, CompanyUpdateBody, advanceDueDate } from '#shared/schemas/billing';
import { RECURRENCE_OPTIONS } from './company-form';

const company = (recurrence: unknown) => ({ name: 'Acme', planId: 1, recurrence });

describe('company form recurrences (management.md 4, 9)', () => {
  test('the form offers exactly the recurrences billing moves a due date by', () => {
    expect([...RECURRENCE_OPTIONS].sort()).toEqual(Object.keys(RECURRENCE_MONTHS).sort());
    const from = '2026-01-15T12:00:00.000Z';
    for (const r of RECURRENCE_OPTIONS) {
      expect(RECURRENCE_MONTHS[r]).toBeGreaterThan(0);
      expect(advanceDueDate(from, r) > from).toBe(true);
    }
  });
  test('the server accepts every recurrence the form offers', () => {
    for (const r of RECURRENCE_OPTIONS) {
      expect(CompanyBody.safeParse(company(r)).success).toBe(true);
      expect(CompanyUpdateBody.safeParse({ recurrence: r }).success).toBe(true);
    }
  });
  test('the server refuses a recurrence the form does not offer', () => {
    for (const r of ['QUINZENAL', 'WEEKLY', 'mensal', '', null]) {
      for (const parsed of [CompanyBody.safeParse(company(r)), CompanyUpdateBody.safeParse({ recurrence: r })]) {
        expect(parsed.success).toBe(false);
        expect(parsed.error?.issues.map((i) => i.path)).toEqual([['recurrence']]);
      }
    }
  });
});
