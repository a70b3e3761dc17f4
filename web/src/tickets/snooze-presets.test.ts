import { describe, expect, test } from 'vitest';
import { fromLocalInput, presetUntil, snoozeBody, toLocalInput } from './snooze-presets';

// local times: the presets follow the browser's clock and time zone
const at = (y: number, m: number, d: number, h = 0, mi = 0) => new Date(y, m - 1, d, h, mi);

describe('snooze presets (issue 40)', () => {
  const wednesday = at(2026, 12, 2, 15, 20);
  test('one and three hours from now', () => {
    expect(presetUntil('oneHour', wednesday)).toEqual(at(2026, 12, 2, 16, 20));
    expect(presetUntil('threeHours', wednesday)).toEqual(at(2026, 12, 2, 18, 20));
  });
  test('tomorrow at 9:00, across a month end', () => {
    expect(presetUntil('tomorrow', wednesday)).toEqual(at(2026, 12, 3, 9));
    expect(presetUntil('tomorrow', at(2026, 12, 31, 23, 50))).toEqual(at(2027, 1, 1, 9));
  });
  test('next Monday at 9:00; on a Monday, the following one; on a Sunday, the day after', () => {
    expect(presetUntil('nextMonday', wednesday)).toEqual(at(2026, 12, 7, 9));
    expect(presetUntil('nextMonday', at(2026, 12, 7, 8))).toEqual(at(2026, 12, 14, 9));
    expect(presetUntil('nextMonday', at(2026, 12, 6, 20))).toEqual(at(2026, 12, 7, 9));
  });
  test('a chosen date and time, refused in the past or beyond 90 days', () => {
    expect(fromLocalInput(toLocalInput(at(2026, 12, 10, 14, 30)))).toEqual(at(2026, 12, 10, 14, 30));
    expect(snoozeBody('custom', wednesday, '2026-12-10T14:30')).toEqual({
      until: at(2026, 12, 10, 14, 30).toISOString(),
    });
    expect(snoozeBody('custom', wednesday, '2026-12-01T14:30')).toBeNull();
    expect(snoozeBody('custom', wednesday, '2027-03-31T14:30')).toBeNull();
    expect(snoozeBody('custom', wednesday, '')).toBeNull();
  });
  test('until the customer writes carries no time', () => {
    expect(snoozeBody('customerWrites', wednesday, '')).toEqual({ untilCustomerWrites: true });
  });
});
