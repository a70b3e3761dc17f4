import { describe, expect, it } from 'vitest';
import { dayOf, hourOf } from './aggregates';
import { MAX_RANGE_DAYS, resolveRange } from './service';

describe('dashboard days are São Paulo days (what the date pickers send)', () => {
  it.each([
    // 22:30 in São Paulo on 31 Dec is 01:30 UTC on 1 Jan: it counts on 31 Dec, hour 22
    ['2027-01-01T01:30:00.000Z', '2026-12-31', 'h22'],
    ['2027-01-01T03:00:00.000Z', '2027-01-01', 'h00'],
    ['2028-03-01T02:59:00.000Z', '2028-02-29', 'h23'],
    ['2026-11-25T15:10:00.000Z', '2026-11-25', 'h12'],
  ])('a ticket at %s counts on %s, %s', (at, day, hour) => {
    expect(dayOf(at)).toBe(day);
    expect(hourOf(at)).toBe(hour);
  });

  it('the default range is the São Paulo month so far; `days` counts back from São Paulo today', () => {
    const lateOnTheLast = new Date('2026-12-01T02:00:00.000Z'); // 30 Nov, 23:00 in São Paulo
    expect(resolveRange({}, lateOnTheLast)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(resolveRange({ days: 1 }, lateOnTheLast)).toEqual({ from: '2026-11-30', to: '2026-11-30' });
    expect(resolveRange({ days: 30 }, lateOnTheLast)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(resolveRange({ days: 2 }, new Date('2028-03-01T12:00:00.000Z'))).toEqual({
      from: '2028-02-29',
      to: '2028-03-01',
    });
  });

  it('a range is made of real calendar days, in order, and not longer than a year and a day', () => {
    expect(resolveRange({ initialDate: '2028-02-01', finalDate: '2028-02-29' })).toEqual({
      from: '2028-02-01',
      to: '2028-02-29',
    });
    expect(() => resolveRange({ initialDate: '2027-02-01', finalDate: '2027-02-29' })).toThrow();
    expect(() => resolveRange({ initialDate: '2026-12-31', finalDate: '2026-12-30' })).toThrow();
    expect(resolveRange({ initialDate: '2027-01-01', finalDate: '2028-01-01' })).toEqual({
      from: '2027-01-01',
      to: '2028-01-01',
    });
    expect(MAX_RANGE_DAYS).toBe(366);
    expect(() => resolveRange({ initialDate: '2027-01-01', finalDate: '2028-01-02' })).toThrow();
  });
});
