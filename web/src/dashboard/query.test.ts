import { describe, expect, test } from 'vitest';
import { dashboardQuery, defaultRange, formatMinutes, withLiveStatus } from './query';

describe('dashboard filters (attendance.md 2.11)', () => {
  test('type 1 filters by date range, type 2 by period in days', () => {
    expect(dashboardQuery(1, { dateFrom: '2026-11-01', dateTo: '2026-11-22' })).toEqual({
      query: { date_from: '2026-11-01', date_to: '2026-11-22' },
    });
    expect(dashboardQuery(2, { days: 7 })).toEqual({ query: { days: 7 } });
  });
  test('applying without a filter shows the select-filter error', () => {
    expect(dashboardQuery('', {})).toEqual({ error: 'selectFilter' });
    expect(dashboardQuery(2, { days: 0 })).toEqual({ error: 'selectFilter' });
    expect(dashboardQuery(1, { dateFrom: '2026-11-01' })).toEqual({ error: 'selectFilter' });
  });
  test('the default range runs from the first of the month to today', () => {
    expect(defaultRange(new Date(2026, 10, 22))).toEqual({ dateFrom: '2026-11-01', dateTo: '2026-11-22' });
  });
  test('average times are shown in minutes', () => {
    expect(formatMinutes(12.4)).toBe('12m');
    expect(formatMinutes(65)).toBe('1h 05m');
    expect(formatMinutes(null)).toBe('0m');
  });
});

describe("the attendants' status follows presence after the dashboard was read", () => {
  const read = [
    { id: 1, name: 'Ana', online: false },
    { id: 2, name: 'Bia', online: true },
    { id: 3, name: 'Caio', online: true },
  ];
  test('online and away count as online, offline does not; a user presence does not know keeps the read value', () => {
    const live = withLiveStatus(read, [
      { userId: 1, status: 'away' },
      { userId: 2, status: 'offline' },
    ]);
    expect(live.map((a) => [a.name, a.online])).toEqual([
      ['Ana', true],
      ['Bia', false],
      ['Caio', true],
    ]);
    expect(withLiveStatus(read, [{ userId: 3, status: 'online' }])[2]).toBe(read[2]);
  });
});
