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
 */
export const SETTLE_MS = 10 * 60_000;
export const MAX_KEPT = 50_000;
const kept = new Map<string, unknown>();

function* calendarDays(from: string, to: string) {
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000)
    yield new Date(at).toISOString().slice(0, 10);
}

function keep(key: string, day: unknown) {
  kept.delete(key);
  kept.set(key, day);
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
}

/** The parsed day items of partition `pk`, days `from`..`to` (inclusive) that exist, oldest first. */
export async function keptDays<T>(
  pk: string,
  from: string,
  to: string,
  parse: (item: Item) => T,
  now = new Date(),
): Promise<T[]> {
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
    for (const d of days) if (d >= readFrom && d < firstOpen) keep(keyOf(d), fresh.get(d) ?? null);
  }
  return days.flatMap((d) => {
    const day = (d < firstOpen ? kept.get(keyOf(d)) : fresh.get(d)) as T | null | undefined;
    return day ? [day] : [];
  });
}
