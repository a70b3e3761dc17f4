import { describe, expect, test } from 'vitest';
import { formatWindowLeft } from './CloudWindowChip';

describe('the 24-hour window chip', () => {
  test('time left is rounded down to the minute: a message that just came in leaves 23 h 59 min, never a day', () => {
    expect(formatWindowLeft(24 * 3_600_000 - 364)).toBe('23 h 59 min');
    expect(formatWindowLeft(5 * 3_600_000 + 2 * 60_000 + 59_999)).toBe('5 h 02 min');
    expect(formatWindowLeft(59 * 60_000 + 30_000)).toBe('59 min');
    expect(formatWindowLeft(59_999)).toBe('< 1 min');
  });
});
