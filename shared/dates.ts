import { tz } from '@date-fns/tz';
import {
  addDays as fnsAddDays,
  addMonths as fnsAddMonths,
  addSeconds as fnsAddSeconds,
  differenceInCalendarDays,
  format,
  getDay,
  startOfDay,
} from 'date-fns';

/**
 * Every piece of calendar arithmetic the product does, in one place, on date-fns: due dates moved by
 * a recurrence, trial ends, invoice lead times, whole days between two instants, and the local
 * clock (day, hour, weekday) of an instant in a time zone. Instants travel as ISO strings in UTC
 * (`...Z`) or as `Date`; the calendar in which a day or month is counted is always named.
 * Callers pass `now` in; nothing here reads the clock except through a default argument.
 */

/** The product is Brazilian: a company without its own zone works on São Paulo time. */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

const inUtc = tz('UTC');
const DAY_MS = 24 * 3600 * 1000;

const iso = (d: Date) => new Date(d.getTime()).toISOString();

/**
 * Adds whole calendar months in UTC at the same time of day. A day the target month lacks becomes
 * its last day (31 Jan + 1 = 28/29 Feb; 30 Nov + 3 = 28 Feb), never an overflow into the next month.
 */
export const addMonths = (at: string | Date, months: number): string => iso(fnsAddMonths(at, months, { in: inUtc }));

/** Adds whole days (24 h in UTC, which has no daylight saving). */
export const addDays = (at: string | Date, days: number): string => iso(fnsAddDays(at, days, { in: inUtc }));

export const addSeconds = (at: string | Date, seconds: number): string => iso(fnsAddSeconds(at, seconds));

/** The UTC calendar day of an instant, `YYYY-MM-DD`. */
export const utcDay = (at: string | Date): string => iso(new Date(at)).slice(0, 10);

/** Calendar days from `now`'s UTC day to `at`'s UTC day (0 on the same day, negative once past). */
export const calendarDaysUntil = (at: string | Date, now: Date = new Date()): number =>
  differenceInCalendarDays(at, now, { in: inUtc });

/** Whole days from `now` until `at`, rounded up (a due date 1 ms away is 1 day away; negative once past). */
export const daysUntil = (at: string | Date, now: Date = new Date()): number =>
  Math.ceil((new Date(at).getTime() - now.getTime()) / DAY_MS);

/** Whole 24-hour days elapsed from `since` to `now` (0 in the first day, never negative). */
export const wholeDaysSince = (since: string | Date, now: number | Date = Date.now()): number =>
  Math.max(0, Math.floor((new Date(now).getTime() - new Date(since).getTime()) / DAY_MS));

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The wall clock of an instant in a time zone: what a person there reads on the calendar and clock. */
export interface LocalClock {
  /** `YYYY-MM-DD` */
  day: string;
  year: number;
  month: number;
  date: number;
  hour: number;
  minute: number;
  weekday: Weekday;
  /** minutes since local midnight */
  minutes: number;
}

export function localClock(at: string | Date | number, timeZone = DEFAULT_TIME_ZONE): LocalClock {
  const local = tz(timeZone)(at);
  const hour = local.getHours();
  const minute = local.getMinutes();
  return {
    day: format(local, 'yyyy-MM-dd'),
    year: local.getFullYear(),
    month: local.getMonth() + 1,
    date: local.getDate(),
    hour,
    minute,
    weekday: WEEKDAYS[getDay(local)]!,
    minutes: hour * 60 + minute,
  };
}

/** The last local days computed (any zone) and the instants each spans [from, to), newest first. */
const recentLocalDays: { zone: string; from: number; to: number; day: string }[] = [];
const RECENT_LOCAL_DAYS = 8;

/**
 * The local calendar day `YYYY-MM-DD` of an instant in a time zone. The zone's arithmetic runs once
 * per day and zone: an instant within one of the days last computed gets it from that day's bounds
 * (hot paths ask for today several times per request).
 */
export function localDay(at: string | Date | number, timeZone = DEFAULT_TIME_ZONE): string {
  const ms = typeof at === 'number' ? at : new Date(at).getTime();
  for (const d of recentLocalDays) if (d.zone === timeZone && ms >= d.from && ms < d.to) return d.day;
  const zone = tz(timeZone);
  const day = format(at, 'yyyy-MM-dd', { in: zone });
  const from = startOfDay(ms, { in: zone }).getTime();
  const to = nextLocalDayStart(ms, timeZone);
  if (from <= ms && ms < to) {
    recentLocalDays.unshift({ zone: timeZone, from, to, day });
    recentLocalDays.length = Math.min(recentLocalDays.length, RECENT_LOCAL_DAYS);
  }
  return day;
}

/** A calendar day `YYYY-MM-DD` moved by whole days (`2026-03-01`, -1 is `2026-02-28`). */
export const shiftDay = (day: string, days: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** An instant written with a date-fns pattern on the local clock of a time zone (`dd/MM/yyyy`, `HH:mm`). */
export const formatLocal = (at: string | Date | number, pattern: string, timeZone = DEFAULT_TIME_ZONE): string =>
  format(at, pattern, { in: tz(timeZone) });

/** The instant (ms) the next local day starts after `at`: local midnight, whatever the UTC offset that day. */
export function nextLocalDayStart(at: number | Date, timeZone = DEFAULT_TIME_ZONE): number {
  const zone = tz(timeZone);
  // the day after, then its start: a midnight skipped by daylight saving starts the day at 01:00
  return startOfDay(fnsAddDays(at, 1, { in: zone }), { in: zone }).getTime();
}
