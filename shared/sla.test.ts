import { describe, it, expect } from 'vitest';
import { DEFAULT_SCHEDULES } from './constants';
import { addServiceMinutes, bucketOf, bucketUpper, dueInstants, percentileFromBuckets, slaLevel } from './sla';
import type { DaySchedule } from './business-hours';

// 2026-11-23 is a Monday. The default schedule: Mon-Fri 08:00-18:00, Sat 08:00-12:00, Sun closed.
const at = (iso: string) => new Date(iso);
const add = (iso: string, minutes: number, schedules: readonly DaySchedule[] | null = DEFAULT_SCHEDULES) =>
  addServiceMinutes(at(iso), minutes, schedules, 'UTC').toISOString();

describe('addServiceMinutes (business hours)', () => {
  it('around the clock without a schedule', () => {
    expect(add('2026-11-23T17:30:00.000Z', 60, null)).toBe('2026-11-23T18:30:00.000Z');
  });

  it('inside a window: plain addition', () => {
    expect(add('2026-11-23T09:00:00.000Z', 30)).toBe('2026-11-23T09:30:00.000Z');
  });

  it('what is left at closing time carries to the next opening', () => {
    // 30 min on Monday 17:30-18:00, the other 30 from Tuesday 08:00
    expect(add('2026-11-23T17:30:00.000Z', 60)).toBe('2026-11-24T08:30:00.000Z');
  });

  it('a start out of hours waits for the opening', () => {
    expect(add('2026-11-23T05:00:00.000Z', 15)).toBe('2026-11-23T08:15:00.000Z');
    expect(add('2026-11-23T20:00:00.000Z', 15)).toBe('2026-11-24T08:15:00.000Z');
  });

  it('Saturday closes at noon and Sunday is closed: Friday 17:00 + 5 h is Monday 10:00', () => {
    // Fri 17:00-18:00 (1 h), Sat 08:00-12:00 (4 h): done exactly at Saturday noon
    expect(add('2026-11-27T17:00:00.000Z', 300)).toBe('2026-11-28T12:00:00.000Z');
    expect(add('2026-11-27T17:00:00.000Z', 360)).toBe('2026-11-30T09:00:00.000Z');
  });

  it('keeps the seconds of the start', () => {
    expect(add('2026-11-23T17:59:30.000Z', 1)).toBe('2026-11-24T08:00:30.000Z');
  });

  it('a window past midnight (22:00-02:00) counts its hours after midnight', () => {
    const night: DaySchedule[] = [{ weekday: 'Segunda', weekdayEn: 'monday', startTime: '22:00', endTime: '02:00' }];
    expect(add('2026-11-23T21:00:00.000Z', 180, night)).toBe('2026-11-24T01:00:00.000Z');
    // 4 h of the Monday night used up at 02:00 Tuesday, then next Monday 22:00
    expect(add('2026-11-23T22:00:00.000Z', 300, night)).toBe('2026-11-30T23:00:00.000Z');
  });

  it('a schedule never open counts around the clock', () => {
    const closed: DaySchedule[] = [{ weekday: 'Segunda', weekdayEn: 'monday', startTime: '', endTime: '' }];
    expect(add('2026-11-23T21:00:00.000Z', 60, closed)).toBe('2026-11-23T22:00:00.000Z');
  });

  it('in the company zone (São Paulo, UTC-3): 08:00 local is 11:00 UTC', () => {
    const due = addServiceMinutes(at('2026-11-23T10:00:00.000Z'), 10, DEFAULT_SCHEDULES, 'America/Sao_Paulo');
    expect(due.toISOString()).toBe('2026-11-23T11:10:00.000Z');
  });
});

describe('dueInstants', () => {
  it('first response in minutes, resolution in hours; business hours only when the policy says so', () => {
    const start = at('2026-11-23T17:30:00.000Z');
    expect(
      dueInstants({ slaFirstResponseMinutes: 60, slaResolutionHours: 2 }, start, DEFAULT_SCHEDULES, 'UTC'),
    ).toEqual({
      firstResponseDueAt: '2026-11-23T18:30:00.000Z',
      resolutionDueAt: '2026-11-23T19:30:00.000Z',
    });
    expect(
      dueInstants(
        { slaFirstResponseMinutes: 60, slaResolutionHours: null, slaBusinessHours: true },
        start,
        DEFAULT_SCHEDULES,
        'UTC',
      ),
    ).toEqual({ firstResponseDueAt: '2026-11-24T08:30:00.000Z', resolutionDueAt: null });
  });
});

describe('slaLevel', () => {
  const start = '2026-11-23T10:00:00.000Z';
  const due = '2026-11-23T11:40:00.000Z'; // 100 minutes of allowance
  const t = (iso: string) => Date.parse(iso);
  it('normal with more than a quarter left, amber under it, red once due or breached', () => {
    expect(slaLevel(start, due, t('2026-11-23T11:14:00.000Z'))).toBe('normal'); // 26 min left
    expect(slaLevel(start, due, t('2026-11-23T11:16:00.000Z'))).toBe('amber'); // 24 min left
    expect(slaLevel(start, due, t('2026-11-23T11:40:00.000Z'))).toBe('red');
    expect(slaLevel(start, due, t('2026-11-23T10:10:00.000Z'), true)).toBe('red');
  });
});

describe('percentile from buckets', () => {
  it('bucket k holds durations up to 2^(k/4) s', () => {
    expect(bucketOf(60_000)).toBe(24); // 60 s <= 64 s = 2^6
    expect(bucketOf(64_000)).toBe(24);
    expect(bucketOf(65_000)).toBe(25);
    expect(bucketOf(500)).toBe(0);
    expect(bucketUpper(24)).toBe(64);
  });

  it('median and p90 by nearest rank over summed counts', () => {
    // 10 values: 6 of 60 s (bucket 24), 3 of 300 s (bucket 33: 2^8.25 = 304 s), 1 of 3600 s
    const counts = new Map<number, number>();
    for (const ms of [...Array(6).fill(60_000), ...Array(3).fill(300_000), 3_600_000])
      counts.set(bucketOf(ms), (counts.get(bucketOf(ms)) ?? 0) + 1);
    expect(percentileFromBuckets(counts, 0.5)).toBe(64);
    expect(percentileFromBuckets(counts, 0.9)).toBe(304);
    expect(percentileFromBuckets(counts, 1)).toBe(Math.round(bucketUpper(bucketOf(3_600_000))));
  });

  it('no data: null', () => {
    expect(percentileFromBuckets(new Map(), 0.5)).toBeNull();
  });
});
