import { describe, expect, test } from 'vitest';
import { invoiceDisplayStatus } from '#shared/schemas/billing';

describe('invoice display status as /financeiro shows it (management.md 4)', () => {
  const now = new Date('2026-03-10T15:00:00Z');
  test('paid stays paid, whatever the due date', () => {
    expect(invoiceDisplayStatus({ status: 'paid', dueDate: '2026-01-01T00:00:00Z' }, now)).toBe('paid');
  });
  test('unpaid and due before today is expired (the red row)', () => {
    expect(invoiceDisplayStatus({ status: 'open', dueDate: '2026-03-09T23:00:00Z' }, now)).toBe('expired');
  });
  test('unpaid and due today or later is open', () => {
    expect(invoiceDisplayStatus({ status: 'open', dueDate: '2026-03-10T01:00:00Z' }, now)).toBe('open');
    expect(invoiceDisplayStatus({ status: 'open', dueDate: '2026-04-10T00:00:00Z' }, now)).toBe('open');
  });
});
