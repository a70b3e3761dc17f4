import { describe, it, expect } from 'vitest';
import { DEFAULT_SCHEDULES } from './constants';
import { isWithinHours, localClock } from './business-hours';

// 2026-11-23 is a Monday. Times are given in UTC; the zone under test is set per call.
const at = (iso: string) => new Date(iso);

describe('isWithinHours', () => {
  it('the week starts Monday: the first default row is Monday 08:00-18:00', () => {
    expect(DEFAULT_SCHEDULES[0]!.weekdayEn).toBe('monday');
    expect(localClock(at('2026-11-23T12:00:00Z'), 'UTC').weekdayEn).toBe('monday');
    expect(isWithinHours(DEFAULT_SCHEDULES, at('2026-11-23T08:00:00Z'), 'UTC')).toBe(true);
    expect(isWithinHours(DEFAULT_SCHEDULES, at('2026-11-23T07:59:00Z'), 'UTC')).toBe(false);
  });

  it('the end time is exclusive: 18:00 on a weekday is out of hours', () => {
    expect(isWithinHours(DEFAULT_SCHEDULES, at('2026-11-27T17:59:00Z'), 'UTC')).toBe(true);
    expect(isWithinHours(DEFAULT_SCHEDULES, at('2026-11-27T18:00:00Z'), 'UTC')).toBe(false);
  });

  it('Saturday closes at 12:00 by default', () => {
    expect(isWithinHours(DEFAULT_SCHEDULES, at('2026-11-28T11:30:00Z'), 'UTC')).toBe(true);
    expect(isWithinHours(DEFAULT_SCHEDULES, at('2026-11-28T12:30:00Z'), 'UTC')).toBe(false);
  });

  it('00:00-00:00 means closed all day (the default Sunday)', () => {
    for (const hour of ['00', '06', '12', '23']) {
      expect(isWithinHours(DEFAULT_SCHEDULES, at(`2026-11-29T${hour}:00:00Z`), 'UTC')).toBe(false);
    }
  });

  it('the time zone decides the local day and hour', () => {
    // 10:00 UTC Monday is 07:00 in São Paulo (closed) and 10:00 in UTC (open).
    expect(isWithinHours(DEFAULT_SCHEDULES, at('2026-11-23T10:00:00Z'), 'America/Sao_Paulo')).toBe(false);
    expect(isWithinHours(DEFAULT_SCHEDULES, at('2026-11-23T11:00:00Z'), 'America/Sao_Paulo')).toBe(true);
    // 01:00 UTC Saturday is still Friday 22:00 in São Paulo: closed; Friday 20:00 with hours to 23:00: open.
    const late = DEFAULT_SCHEDULES.map((d) => (d.weekdayEn === 'friday' ? { ...d, endTime: '23:00' } : d));
    expect(isWithinHours(late, at('2026-11-28T01:00:00Z'), 'America/Sao_Paulo')).toBe(true);
    expect(isWithinHours(DEFAULT_SCHEDULES, at('2026-11-28T01:00:00Z'), 'America/Sao_Paulo')).toBe(false);
  });

  it('a window that ends before it starts runs past midnight into the next day', () => {
    const night = DEFAULT_SCHEDULES.map((d) =>
      d.weekdayEn === 'monday' ? { ...d, startTime: '22:00', endTime: '02:00' } : d,
    );
    expect(isWithinHours(night, at('2026-11-23T23:00:00Z'), 'UTC')).toBe(true);
    // Tuesday 01:00 belongs to Monday's window; Tuesday's own hours start at 08:00.
    expect(isWithinHours(night, at('2026-11-24T01:00:00Z'), 'UTC')).toBe(true);
    expect(isWithinHours(night, at('2026-11-24T03:00:00Z'), 'UTC')).toBe(false);
    expect(isWithinHours(night, at('2026-11-23T12:00:00Z'), 'UTC')).toBe(false);
  });

  it('a missing day, empty times or no schedule at all mean closed', () => {
    const noMonday = DEFAULT_SCHEDULES.filter((d) => d.weekdayEn !== 'monday');
    expect(isWithinHours(noMonday, at('2026-11-23T12:00:00Z'), 'UTC')).toBe(false);
    const empty = DEFAULT_SCHEDULES.map((d) => ({ ...d, startTime: '', endTime: '' }));
    expect(isWithinHours(empty, at('2026-11-23T12:00:00Z'), 'UTC')).toBe(false);
    expect(isWithinHours([], at('2026-11-23T12:00:00Z'), 'UTC')).toBe(false);
    expect(isWithinHours(undefined, at('2026-11-23T12:00:00Z'), 'UTC')).toBe(false);
  });
});
