import { describe, expect, it } from 'vitest';
import { limiterDay, nextLimiterDayAt, sentTodayOf } from './limiter';

describe('limiter day', () => {
  it("counts the company's day (São Paulo), not the UTC day: sends of the evening still count at 22:30", () => {
    // 2026-11-23T01:30Z is 22:30 of the 22nd in São Paulo
    const evening = Date.parse('2026-11-23T01:30:00.000Z');
    expect(limiterDay(evening)).toBe('2026-11-22');
    expect(sentTodayOf({ day: limiterDay(Date.parse('2026-11-22T20:00:00.000Z')), sentToday: 6 }, evening)).toBe(6);
    // and a count of the day before is none today
    expect(sentTodayOf({ day: '2026-11-21', sentToday: 6 }, evening)).toBe(0);
  });

  it('the daily cap lifts at midnight São Paulo time', () => {
    expect(new Date(nextLimiterDayAt(Date.parse('2026-11-23T01:30:00.000Z'))).toISOString()).toBe(
      '2026-11-23T03:00:00.000Z',
    );
    expect(new Date(nextLimiterDayAt(Date.parse('2026-11-23T12:00:00.000Z'))).toISOString()).toBe(
      '2026-11-24T03:00:00.000Z',
    );
  });
});
