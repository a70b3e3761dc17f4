import { localDay } from '#shared/dates';
import { queryAll, type Item } from './db';

/**
 * Day items that are written only on the day they count (every write ADDs to the item of the day
 * it happens, `D#<YYYY-MM-DD>`): a day that ended (SETTLE_MS ago, for writes in flight at midnight)
 * never changes again, so this instance keeps settled days once read, parsed, and reads only the
 * days still open (today, and yesterday in the first minutes after midnight) on each call. A
 * settled day is kept as it was read, so nothing kept can be stale; a range with settled days
 * never read yet is read whole in one Query. At most MAX_KEPT days per instance, the least
 * recently used dropped first. Used by the service levels (sla/days.ts) and the dashboard.
 *
 * What a reader computes from the settled days of a range (a sum over 30 days) never changes
 * either: `keptFold` keeps it per instance under a key naming the partition, the range and the last
 * settled day, so a read adds only the open days to it.
 */
export const SETTLE_MS = 10 * 60_000;
/**
 * Bounds by count, sized for a 512 MB function: a parsed day is about 10-20 KB (a dashboard day's
 * ~135 counters, a service-level day's histograms), a range's sum about as much as a few days.
 */
export const MAX_KEPT = 10_000;
export const MAX_FOLDS = 500;
const kept = new Map<string, unknown>();
const folds = new Map<string, unknown>();

function* calendarDays(from: string, to: string) {
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000)
    yield new Date(at).toISOString().slice(0, 10);
}

/** Least recently used first out. */
function remember(map: Map<string, unknown>, key: string, value: unknown, max: number) {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}

/** A range's days that exist, split into the settled ones (kept) and the open ones (just read). */
export interface SplitDays<T> {
  settled: T[];
  open: T[];
  /** names the settled part: the partition, the range's first day and its last settled day */
  settledKey: string;
}

/** The parsed day items of partition `pk`, days `from`..`to` (inclusive) that exist, oldest first in each part. */
export async function keptDaysSplit<T>(
  pk: string,
  from: string,
  to: string,
  parse: (item: Item) => T,
  now = new Date(),
): Promise<SplitDays<T>> {
  const firstOpen = localDay(new Date(now.getTime() - SETTLE_MS));
  const keyOf = (day: string) => `${pk}|${day}`;
  const days = [...calendarDays(from, to)];
  const missing = days.filter((d) => d < firstOpen && !kept.has(keyOf(d)));
  const open = days.filter((d) => d >= firstOpen);
  const readFrom = missing[0] ?? open[0];
  const fresh = new Map<string, T>();
  if (readFrom) {
    const items = await queryAll<Item>({ pk, sk: { between: [`D#${readFrom}`, `D#${to}`] } });
    for (const item of items) fresh.set(String(item.sk).slice(2), parse(item));
    for (const d of days) if (d >= readFrom && d < firstOpen) remember(kept, keyOf(d), fresh.get(d) ?? null, MAX_KEPT);
  }
  const settledDays = days.filter((d) => d < firstOpen);
  const present = (list: string[], pick: (d: string) => unknown) =>
    list.flatMap((d) => {
      const day = pick(d) as T | null | undefined;
      return day ? [day] : [];
    });
  return {
    settled: present(settledDays, (d) => kept.get(keyOf(d))),
    open: present(open, (d) => fresh.get(d)),
    settledKey: `${pk}|${from}|${settledDays.at(-1) ?? ''}`,
  };
}

/** The parsed day items of partition `pk`, days `from`..`to` (inclusive) that exist, oldest first. */
export async function keptDays<T>(
  pk: string,
  from: string,
  to: string,
  parse: (item: Item) => T,
  now = new Date(),
): Promise<T[]> {
  const { settled, open } = await keptDaysSplit(pk, from, to, parse, now);
  return [...settled, ...open];
}

/**
 * `compute()` once per instance for `key` (it must name everything the value depends on, and what
 * it folds must never change: settled days), then the kept value. The value is shared: never mutate it.
 */
export function keptFold<F>(key: string, compute: () => F): F {
  if (folds.has(key)) {
    const value = folds.get(key) as F;
    remember(folds, key, value, MAX_FOLDS);
    return value;
  }
  const value = compute();
  remember(folds, key, value, MAX_FOLDS);
  return value;
}
