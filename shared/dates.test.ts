import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  calendarDaysUntil,
  daysUntil,
  formatLocal,
  localClock,
  localDay,
  nextLocalDayStart,
  shiftDay,
  wholeDaysSince,
} from './dates';

// Expected values are written out by hand: a test that recomputed them with another algorithm
// would only compare two algorithms.

describe('addMonths: a day the target month lacks is its last day, never the next month', () => {
  it.each([
    ['2026-01-31T12:00:00.000Z', 1, '2026-02-28T12:00:00.000Z'],
    ['2028-01-31T12:00:00.000Z', 1, '2028-02-29T12:00:00.000Z'],
    ['2026-01-29T12:00:00.000Z', 1, '2026-02-28T12:00:00.000Z'],
    ['2026-01-30T12:00:00.000Z', 1, '2026-02-28T12:00:00.000Z'],
    ['2026-11-30T12:00:00.000Z', 3, '2027-02-28T12:00:00.000Z'],
    ['2026-08-31T12:00:00.000Z', 6, '2027-02-28T12:00:00.000Z'],
    ['2027-08-31T12:00:00.000Z', 6, '2028-02-29T12:00:00.000Z'],
    ['2026-03-31T12:00:00.000Z', 1, '2026-04-30T12:00:00.000Z'],
    ['2028-02-29T12:00:00.000Z', 12, '2029-02-28T12:00:00.000Z'],
    ['2028-02-29T12:00:00.000Z', 1, '2028-03-29T12:00:00.000Z'],
    ['2026-12-31T23:59:59.999Z', 1, '2027-01-31T23:59:59.999Z'],
    ['2026-12-15T00:00:00.000Z', 3, '2027-03-15T00:00:00.000Z'],
    // a São Paulo local midnight (03:00 UTC) keeps its time of day
    ['2026-10-31T03:00:00.000Z', 1, '2026-11-30T03:00:00.000Z'],
  ])('%s + %i months = %s', (from, months, expected) => {
    expect(addMonths(from, months)).toBe(expected);
  });

  it('accepts a Date as well as an ISO string', () => {
    expect(addMonths(new Date('2026-05-31T10:00:00.000Z'), 1)).toBe('2026-06-30T10:00:00.000Z');
  });
});

describe('addDays', () => {
  it.each([
    ['2026-11-29T18:00:00.000Z', 3, '2026-12-02T18:00:00.000Z'],
    ['2026-12-31T23:00:00.000Z', 1, '2027-01-01T23:00:00.000Z'],
    ['2028-02-28T10:00:00.000Z', 1, '2028-02-29T10:00:00.000Z'],
    ['2026-02-28T10:00:00.000Z', 1, '2026-03-01T10:00:00.000Z'],
    ['2026-03-05T10:00:00.000Z', -10, '2026-02-23T10:00:00.000Z'],
  ])('%s + %i days = %s', (from, days, expected) => {
    expect(addDays(from, days)).toBe(expected);
  });
});

describe('days between instants', () => {
  it.each([
    ['2026-03-01T00:00:00.000Z', '2026-02-28T23:00:00.000Z', 1],
    ['2026-12-31T00:00:00.000Z', '2026-12-31T23:59:00.000Z', 0],
    ['2027-01-01T00:00:00.000Z', '2026-12-31T23:59:00.000Z', 1],
    ['2028-03-01T12:00:00.000Z', '2028-02-28T12:00:00.000Z', 2],
    ['2026-11-20T12:00:00.000Z', '2026-11-25T12:00:00.000Z', -5],
  ])('calendar days from now %s to %s: %i', (at, now, expected) => {
    expect(calendarDaysUntil(at, new Date(now))).toBe(expected);
  });

  it.each([
    ['2026-12-01T00:00:00.001Z', '2026-11-30T00:00:00.000Z', 2],
    ['2026-12-01T00:00:00.000Z', '2026-11-30T00:00:00.000Z', 1],
    ['2026-11-30T00:00:00.000Z', '2026-11-30T00:00:00.000Z', 0],
    ['2026-11-28T00:00:00.000Z', '2026-11-30T00:00:00.000Z', -2],
  ])('daysUntil %s from %s: %i (rounded up)', (at, now, expected) => {
    expect(daysUntil(at, new Date(now))).toBe(expected);
  });

  it('whole days since an instant never go negative and count full 24 h', () => {
    expect(wholeDaysSince('2026-02-28T12:00:00.000Z', Date.parse('2026-03-01T11:59:59.999Z'))).toBe(0);
    expect(wholeDaysSince('2026-02-28T12:00:00.000Z', Date.parse('2026-03-01T12:00:00.000Z'))).toBe(1);
    expect(wholeDaysSince('2026-12-31T12:00:00.000Z', Date.parse('2026-12-01T12:00:00.000Z'))).toBe(0);
  });
});

describe('the local clock in São Paulo (UTC-3, no daylight saving since 2019)', () => {
  it.each([
    // 02:59 UTC on 1 Jan is still 31 Dec 23:59 in São Paulo
    ['2027-01-01T02:59:00.000Z', '2026-12-31', 23, 59, 'thursday'],
    ['2027-01-01T03:00:00.000Z', '2027-01-01', 0, 0, 'friday'],
    ['2028-03-01T02:30:00.000Z', '2028-02-29', 23, 30, 'tuesday'],
    ['2026-12-01T02:00:00.000Z', '2026-11-30', 23, 0, 'monday'],
    ['2026-10-31T15:45:00.000Z', '2026-10-31', 12, 45, 'saturday'],
  ])('%s reads %s %i:%i, a %s', (at, day, hour, minute, weekday) => {
    const c = localClock(at);
    expect(c).toMatchObject({ day, hour, minute, weekday, minutes: hour * 60 + minute });
    expect(localDay(at)).toBe(day);
  });

  it('consecutive instants around midnight, in any order and zone, each read their own day (the last day is remembered)', () => {
    const reads: [string, string, string][] = [
      ['2027-01-01T02:59:59.999Z', 'America/Sao_Paulo', '2026-12-31'],
      ['2027-01-01T03:00:00.000Z', 'America/Sao_Paulo', '2027-01-01'],
      ['2027-01-01T02:59:59.999Z', 'America/Sao_Paulo', '2026-12-31'],
      ['2027-01-01T02:59:59.999Z', 'UTC', '2027-01-01'],
      ['2027-01-02T02:59:59.999Z', 'America/Sao_Paulo', '2027-01-01'],
      ['2027-01-02T03:00:00.000Z', 'America/Sao_Paulo', '2027-01-02'],
      // New York's 8 Mar 2026 has 23 hours (EST to EDT at 02:00): 05:00 UTC to 04:00 UTC the next day
      ['2026-03-08T04:59:59.999Z', 'America/New_York', '2026-03-07'],
      ['2026-03-08T05:00:00.000Z', 'America/New_York', '2026-03-08'],
      ['2026-03-09T03:59:59.999Z', 'America/New_York', '2026-03-08'],
      ['2026-03-09T04:00:00.000Z', 'America/New_York', '2026-03-09'],
      ['2026-03-08T05:00:00.000Z', 'America/New_York', '2026-03-08'],
    ];
    expect(reads.map(([at, zone]) => localDay(at, zone))).toEqual(reads.map(([, , day]) => day));
    expect(localDay(Date.parse('2027-01-01T03:00:00.000Z'))).toBe('2027-01-01');
    expect(localDay(new Date('2027-01-01T02:59:59.999Z'))).toBe('2026-12-31');
  });

  it('a calendar day moves by whole days across months, leap days and years', () => {
    expect(shiftDay('2026-03-01', -1)).toBe('2026-02-28');
    expect(shiftDay('2028-03-01', -1)).toBe('2028-02-29');
    expect(shiftDay('2026-11-30', -29)).toBe('2026-11-01');
    expect(shiftDay('2026-12-31', 1)).toBe('2027-01-01');
    expect(shiftDay('2026-11-27', 0)).toBe('2026-11-27');
  });

  it('a 2018 instant uses the daylight saving São Paulo had then (UTC-2 on 1 Jan 2018)', () => {
    expect(localClock('2018-01-01T02:30:00.000Z')).toMatchObject({ day: '2018-01-01', hour: 0, minute: 30 });
  });

  it('another zone is read in that zone', () => {
    expect(localClock('2027-01-01T02:59:00.000Z', 'UTC')).toMatchObject({ day: '2027-01-01', hour: 2 });
    expect(localClock('2027-01-01T02:59:00.000Z', 'Asia/Tokyo')).toMatchObject({ day: '2027-01-01', hour: 11 });
  });

  it('formats on the local clock', () => {
    expect(formatLocal('2027-01-01T02:59:00.000Z', 'dd/MM/yyyy HH:mm')).toBe('31/12/2026 23:59');
    expect(formatLocal('2028-02-29T03:00:00.000Z', 'dd/MM/yyyy HH:mm')).toBe('29/02/2028 00:00');
  });

  it.each([
    ['2026-12-31T12:00:00.000Z', '2027-01-01T03:00:00.000Z'],
    ['2027-01-01T02:59:59.999Z', '2027-01-01T03:00:00.000Z'],
    ['2027-01-01T03:00:00.000Z', '2027-01-02T03:00:00.000Z'],
    ['2028-02-28T20:00:00.000Z', '2028-02-29T03:00:00.000Z'],
    ['2028-02-29T20:00:00.000Z', '2028-03-01T03:00:00.000Z'],
  ])('the local day after %s starts at %s', (at, expected) => {
    expect(new Date(nextLocalDayStart(Date.parse(at))).toISOString()).toBe(expected);
  });

  it('the next local day starts at local midnight on a daylight saving change (São Paulo, Nov 2018)', () => {
    // On 4 Nov 2018 São Paulo skipped from 00:00 to 01:00 (UTC-3 to UTC-2): that day began at 03:00 UTC.
    expect(new Date(nextLocalDayStart(Date.parse('2018-11-03T12:00:00.000Z'))).toISOString()).toBe(
      '2018-11-04T03:00:00.000Z',
    );
    expect(new Date(nextLocalDayStart(Date.parse('2018-11-04T12:00:00.000Z'))).toISOString()).toBe(
      '2018-11-05T02:00:00.000Z',
    );
  });
});
