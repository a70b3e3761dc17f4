import { describe, expect, test } from 'vitest';
import { invalidHours, maskHHMM, weekOf } from './hours';

describe('attendance hours (management.md "Queues", section 9)', () => {
  test('HH:MM fields accept digits and add the colon (##:##)', () => {
    expect(maskHHMM('0')).toBe('0');
    expect(maskHHMM('08')).toBe('08');
    expect(maskHHMM('083')).toBe('08:3');
    expect(maskHHMM('0830')).toBe('08:30');
    expect(maskHHMM('08:305')).toBe('08:30');
    expect(maskHHMM('ab1x2')).toBe('12');
  });
  test('a queue without hours gets the defaults: Mon-Fri 08:00-18:00, Sat 08:00-12:00, Sun 00:00-00:00', () => {
    const week = weekOf(undefined);
    expect(week.map((d) => d.weekdayEn)).toEqual([
      'monday',
      'tuesday',
      'wednesday',
      'thursday',
      'friday',
      'saturday',
      'sunday',
    ]);
    expect(week.slice(0, 5).every((d) => d.startTime === '08:00' && d.endTime === '18:00')).toBe(true);
    expect(week[5]).toMatchObject({ startTime: '08:00', endTime: '12:00' });
    expect(week[6]).toMatchObject({ startTime: '00:00', endTime: '00:00' });
  });
  test('saved hours win over the defaults, in weekday order', () => {
    const week = weekOf([{ weekday: 'Domingo', weekdayEn: 'sunday', startTime: '09:00', endTime: '13:00' }]);
    expect(week[6]).toMatchObject({ startTime: '09:00', endTime: '13:00' });
    expect(week[0]).toMatchObject({ startTime: '08:00' });
  });
  test('only valid HH:MM (or empty = closed) times pass', () => {
    const week = weekOf(undefined);
    week[1] = { ...week[1], startTime: '25:00' };
    week[2] = { ...week[2], endTime: '8:0' };
    week[3] = { ...week[3], startTime: '', endTime: '' };
    expect(invalidHours(week)).toEqual([1, 2]);
  });
});
