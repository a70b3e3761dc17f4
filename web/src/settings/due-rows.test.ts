import { describe, expect, test } from 'vitest';
import { DUE_BACKGROUND, dueRow } from './due-rows';

describe('company due-date row colours (management.md 4)', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const inDays = (n: number) => new Date(Date.UTC(2026, 2, 10 + n, 15)).toISOString();

  test('yellow 5 days away', () => {
    expect(dueRow(inDays(5), now)).toEqual({ colour: 'yellow', background: DUE_BACKGROUND.yellow });
  });
  test('orange from 4 days before to 3 days after', () => {
    for (const n of [4, 2, 0, -1, -3]) expect(dueRow(inDays(n), now).colour).toBe('orange');
  });
  test('red at 4 days past (and further past)', () => {
    expect(dueRow(inDays(-4), now)).toEqual({ colour: 'red', background: DUE_BACKGROUND.red });
    expect(dueRow(inDays(-40), now).colour).toBe('red');
  });
  test('no colour 6 days or more away, or without a due date', () => {
    expect(dueRow(inDays(6), now)).toEqual({ colour: null, background: null });
    expect(dueRow(inDays(60), now).colour).toBeNull();
    expect(dueRow(null, now).colour).toBeNull();
  });
});
