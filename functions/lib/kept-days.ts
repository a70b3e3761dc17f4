import { localDay } from '#shared/dates';
import { batchGet, queryAll, type Item } from './db';

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

/** A range of one partition's day items to read, and how to parse one. */
export interface DaysSpec<T> {
  pk: string;
  from: string;
  to: string;
  parse: (item: Item) => T;
}

/**
 * Several partitions' ranges at once (the dashboard's counters and service levels), each split into
 * settled (kept) and open days. A range whose settled days are all kept needs only its open days:
 * those of every such range are read by key in one BatchGet. A range with settled days not kept yet
 * is read by a Query from its first missing day.
 */
export async function keptDaysSplitAll<T extends unknown[]>(
  specs: { [K in keyof T]: DaysSpec<T[K]> },
  now = new Date(),
): Promise<{ [K in keyof T]: SplitDays<T[K]> }> {
  const firstOpen = localDay(new Date(now.getTime() - SETTLE_MS));
  const plans = (specs as DaysSpec<unknown>[]).map((spec) => {
    const days = [...calendarDays(spec.from, spec.to)];
    const keyOf = (day: string) => `${spec.pk}|${day}`;
    const missing = days.filter((d) => d < firstOpen && !kept.has(keyOf(d)));
    const open = days.filter((d) => d >= firstOpen);
    return { spec, days, keyOf, readFrom: missing[0], open };
  });
  const byKey = plans.flatMap((p) => (p.readFrom ? [] : p.open.map((d) => ({ pk: p.spec.pk, sk: `D#${d}` }))));
  const [got, ...queried] = await Promise.all([
    byKey.length ? batchGet<Item>(byKey) : Promise.resolve([]),
    ...plans.map((p) =>
      p.readFrom
        ? queryAll<Item>({ pk: p.spec.pk, sk: { between: [`D#${p.readFrom}`, `D#${p.spec.to}`] } })
        : undefined,
    ),
  ]);
  return plans.map((p, i) => {
    const items = queried[i] ?? got.filter((item) => item.pk === p.spec.pk);
    const fresh = new Map(items.map((item) => [String(item.sk).slice(2), p.spec.parse(item)]));
    const readFrom = p.readFrom ?? p.open[0];
    if (readFrom)
      for (const d of p.days)
        if (d >= readFrom && d < firstOpen) remember(kept, p.keyOf(d), fresh.get(d) ?? null, MAX_KEPT);
    const settledDays = p.days.filter((d) => d < firstOpen);
    const present = (list: string[], pick: (d: string) => unknown) =>
      list.flatMap((d) => {
        const day = pick(d);
        return day ? [day] : [];
      });
    return {
      settled: present(settledDays, (d) => kept.get(p.keyOf(d))),
      open: present(p.open, (d) => fresh.get(d)),
      settledKey: `${p.spec.pk}|${p.spec.from}|${settledDays.at(-1) ?? ''}`,
    };
  }) as { [K in keyof T]: SplitDays<T[K]> };
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
