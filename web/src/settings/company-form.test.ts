import { describe, expect, test } from 'vitest';
import { dueDay, withDay } from './company-form';

describe('company form due date (management.md 5)', () => {
  test('picking a day keeps the time of day of the previous due date', () => {
    const before = new Date(2026, 2, 10, 14, 30).toISOString();
    const next = withDay(before, '2026-04-02');
    expect(dueDay(next)).toBe('2026-04-02');
    expect(new Date(next).getHours()).toBe(14);
    expect(new Date(next).getMinutes()).toBe(30);
  });
  test('a day picked without a previous due date lasts to the end of that day', () => {
    const next = withDay('', '2026-04-02');
    expect(dueDay(next)).toBe('2026-04-02');
    expect(new Date(next).getHours()).toBe(23);
  });
  test('an empty day clears the due date (sent as null)', () => {
    expect(withDay('2026-03-10T10:00:00.000Z', '')).toBe('');
    expect(dueDay('')).toBe('');
    expect(dueDay('garbage')).toBe('');
  });
});
