import { DEFAULT_TIME_ZONE, type DaySchedule, HHMM } from './business-hours';
import { localClock } from './dates';

/**
 * Service levels (issue 24). A queue may carry a policy: first response within N minutes,
 * resolution within N hours, counted around the clock or in the queue's business hours.
 * - The clock starts when the ticket enters a queue with a policy (created, transferred, returned,
 *   reopened): its `slaStartAt`.
 * - First response: the first message a human attendant sends after that (not automatic messages,
 *   not the chatbot, not a campaign).
 * - Resolution: the ticket is closed.
 * Pure: the server computes the due instants and the metrics with it, the browser the countdown.
 */

const DAY_MINUTES = 1440;
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const isOpenRow = (row: DaySchedule | undefined): row is DaySchedule =>
  Boolean(row && HHMM.test(row.startTime) && HHMM.test(row.endTime) && row.startTime !== row.endTime);

/**
 * The open windows `[from, to)` of one local weekday, in minutes since its midnight: its own row
 * (to midnight when it runs past it) and the part after midnight of the previous day's row.
 */
function windowsOf(schedules: readonly DaySchedule[], weekdayEn: string): [number, number][] {
  const row = (day: string) => schedules.find((s) => s.weekdayEn.toLowerCase() === day);
  const today = row(weekdayEn);
  const yesterday = row(WEEKDAYS[(WEEKDAYS.indexOf(weekdayEn) + 6) % 7]!);
  const out: [number, number][] = [];
  if (isOpenRow(yesterday) && toMinutes(yesterday.endTime) < toMinutes(yesterday.startTime))
    out.push([0, toMinutes(yesterday.endTime)]);
  if (isOpenRow(today)) {
    const start = toMinutes(today.startTime);
    const end = toMinutes(today.endTime);
    out.push([start, end > start ? end : DAY_MINUTES]);
  }
  return out;
}

/** Whether a schedule has any open time in the week (otherwise business hours cannot count). */
export const hasOpenHours = (schedules: readonly DaySchedule[] | undefined) => Boolean(schedules?.some(isOpenRow));

/**
 * The instant `minutes` of open time after `start`: around the clock without `schedules`, else
 * counting only the schedule's open windows in `timeZone` (a start out of hours waits for the next
 * opening). A schedule that is never open counts around the clock, so a due time always exists.
 */
export function addServiceMinutes(
  start: Date,
  minutes: number,
  schedules?: readonly DaySchedule[] | null,
  timeZone = DEFAULT_TIME_ZONE,
): Date {
  if (!schedules || !hasOpenHours(schedules)) return new Date(start.getTime() + minutes * 60_000);
  let at = start.getTime();
  let left = minutes;
  // each turn ends at a window's edge or a local midnight: a few turns a day, bounded by the week's hours
  for (let turns = 0; turns < 100_000; turns++) {
    const clock = localClock(at, timeZone);
    // zones differ from UTC by whole minutes: the seconds are the same everywhere
    const now = clock.minutes + (at % 60_000) / 60_000;
    const windows = windowsOf(schedules, clock.weekday);
    const open = windows.find(([from, to]) => now >= from && now < to);
    if (open) {
      const span = open[1] - now;
      if (left <= span) return new Date(at + left * 60_000);
      left -= span;
      at += span * 60_000;
    } else {
      const next = windows.map(([from]) => from).find((from) => from > now);
      at += ((next ?? DAY_MINUTES) - now) * 60_000;
    }
  }
  throw new Error('business hours arithmetic did not converge');
}

/** A queue's service-level policy (null fields: no target of that kind). */
export interface SlaPolicy {
  slaFirstResponseMinutes: number | null;
  slaResolutionHours: number | null;
  /** counted in the queue's business hours (true) or around the clock (false) */
  slaBusinessHours: boolean;
}

export const hasPolicy = (p: Partial<SlaPolicy> | null | undefined) =>
  Boolean(p && ((p.slaFirstResponseMinutes ?? 0) > 0 || (p.slaResolutionHours ?? 0) > 0));

/** The due instants of a clock started at `start` under `policy` (the queue's schedules for business hours). */
export function dueInstants(
  policy: Partial<SlaPolicy>,
  start: Date,
  schedules?: readonly DaySchedule[] | null,
  timeZone = DEFAULT_TIME_ZONE,
): { firstResponseDueAt: string | null; resolutionDueAt: string | null } {
  const hours = policy.slaBusinessHours ? schedules : null;
  const due = (minutes: number | null | undefined) =>
    minutes && minutes > 0 ? addServiceMinutes(start, minutes, hours, timeZone).toISOString() : null;
  return {
    firstResponseDueAt: due(policy.slaFirstResponseMinutes),
    resolutionDueAt: due(policy.slaResolutionHours ? policy.slaResolutionHours * 60 : null),
  };
}

/** Amber once less than this share of the allowance (start -> due, wall clock) is left. */
export const SLA_AMBER_SHARE = 0.25;

export type SlaLevel = 'normal' | 'amber' | 'red';

/** A countdown's colour: red once due (or marked breached), amber in the last quarter of the allowance. */
export function slaLevel(startAt: string | null | undefined, dueAt: string, now: number, breached = false): SlaLevel {
  const due = Date.parse(dueAt);
  if (breached || now >= due) return 'red';
  const start = startAt ? Date.parse(startAt) : Number.NaN;
  if (Number.isNaN(start) || due <= start) return 'normal';
  return due - now < (due - start) * SLA_AMBER_SHARE ? 'amber' : 'normal';
}

/**
 * Fixed log-scale buckets for durations (first response, resolution): bucket k holds durations up
 * to 2^(k/4) seconds (each bucket about 19% wider than the one before), so a percentile read from
 * summed bucket counts is within 19% of the exact one, whatever the period.
 */
export const BUCKETS = 96;
export const bucketUpper = (k: number) => 2 ** (k / 4);
export function bucketOf(ms: number): number {
  const seconds = ms / 1000;
  if (seconds <= 1) return 0;
  // the float may land a hair above an exact bound: the bucket of 2^(k/4) is k
  let k = Math.ceil(4 * Math.log2(seconds));
  if (k > 0 && bucketUpper(k - 1) >= seconds) k--;
  return Math.min(BUCKETS - 1, k);
}

/**
 * The p-quantile (0..1) of the durations counted in `counts` (bucket -> count), in seconds: the
 * upper bound of the bucket that holds the value of rank ceil(p x n) (nearest rank). Null without data.
 */
export function percentileFromBuckets(counts: ReadonlyMap<number, number> | Record<number, number>, p: number) {
  return percentilesFromBuckets(counts, [p])[0]!;
}

/** Several quantiles (each 0..1) of the same counts at once: one sort of the buckets. */
export function percentilesFromBuckets(
  counts: ReadonlyMap<number, number> | Record<number, number>,
  ps: number[],
): (number | null)[] {
  const map = counts instanceof Map ? counts : new Map(Object.entries(counts).map(([k, v]) => [Number(k), v]));
  const buckets: number[] = [];
  let total = 0;
  for (const [k, n] of map)
    if (n > 0) {
      buckets.push(k);
      total += n;
    }
  if (!total) return ps.map(() => null);
  buckets.sort((a, b) => a - b);
  return ps.map((p) => {
    const rank = Math.max(1, Math.ceil(p * total));
    let seen = 0;
    for (const k of buckets) {
      seen += map.get(k)!;
      if (seen >= rank) return Math.round(bucketUpper(k));
    }
    return Math.round(bucketUpper(buckets[buckets.length - 1]!));
  });
}

/** A rating of 2 (satisfied) or 3 (very satisfied) on the 1-3 scale counts as satisfied for CSAT. */
export const isSatisfied = (rating: number) => rating >= 2;

/** One attendant's, queue's or connection's service levels over a period (durations in seconds). */
export interface SlaRow {
  id: number;
  name: string;
  firstResponse: { count: number; median: number | null; p90: number | null };
  resolution: { count: number; median: number | null; p90: number | null };
  breached: number;
  /** ratings received, satisfied ones, and their share in percent (null without ratings) */
  csat: { ratings: number; satisfied: number; percent: number | null };
}

/** What GET /dashboard answers under `sla`. */
export interface SlaReport {
  attendants: SlaRow[];
  queues: SlaRow[];
  connections: SlaRow[];
  total: SlaRow;
  daily: { day: string; firstResponseMedian: number | null; resolutionMedian: number | null; breached: number }[];
}
