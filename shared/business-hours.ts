import { DEFAULT_TIME_ZONE, localClock as clockIn } from './dates';

/**
 * Business hours (attendance.md section 9; management.md "Queues" and section 9). A schedule is one
 * row per weekday with start and end times `HH:MM`; the week starts Monday. Pure: the chatbot
 * (out-of-hours message) and the web app's schedule tab share it.
 */
export interface DaySchedule {
  weekday: string;
  weekdayEn: string;
  startTime: string;
  endTime: string;
}

export { DEFAULT_TIME_ZONE };

export const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Weekday (`monday` ...) and minutes since midnight of `date` in `timeZone`. */
export function localClock(date: Date, timeZone = DEFAULT_TIME_ZONE) {
  const { weekday, minutes } = clockIn(date, timeZone);
  return { weekdayEn: weekday, minutes };
}

/**
 * Whether `date` falls inside the day's window [startTime, endTime). A day without a row, with
 * empty or invalid times, or with equal start and end (`00:00`-`00:00`, the default Sunday) is
 * closed. An end before the start is a window that runs past midnight (22:00-02:00): the part
 * after midnight belongs to the row of the day it started on.
 */
export function isWithinHours(
  schedules: readonly DaySchedule[] | undefined,
  date: Date,
  timeZone = DEFAULT_TIME_ZONE,
): boolean {
  if (!schedules?.length) return false;
  const now = localClock(date, timeZone);
  const open = (row: DaySchedule | undefined) =>
    row && HHMM.test(row.startTime) && HHMM.test(row.endTime) && row.startTime !== row.endTime;
  const today = schedules.find((s) => s.weekdayEn.toLowerCase() === now.weekdayEn);
  if (open(today)) {
    const start = toMinutes(today!.startTime);
    const end = toMinutes(today!.endTime);
    if (start < end ? now.minutes >= start && now.minutes < end : now.minutes >= start) return true;
  }
  const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
  const yesterdayEn = days[(days.indexOf(now.weekdayEn) + 6) % 7];
  const yesterday = schedules.find((s) => s.weekdayEn.toLowerCase() === yesterdayEn);
  if (open(yesterday)) {
    const start = toMinutes(yesterday!.startTime);
    const end = toMinutes(yesterday!.endTime);
    if (end < start && now.minutes < end) return true;
  }
  return false;
}
