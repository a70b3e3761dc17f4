import { localDay } from '#shared/dates';
import { queryAll, type Item } from '../db';
import { slaDayOf, slaPk, type SlaDay } from './metrics';

/**
 * The service-level day items of a range. Every event is counted on the day it happens, so a day
 * that ended (SETTLE_MS ago, for writes in flight at midnight) never changes again: this instance
 * keeps settled days once read, parsed, and reads only the days still open (today, and yesterday
 * in the first minutes after midnight) on each call. A settled day is kept as it was read, so
 * nothing kept can be stale; a range with settled days never read yet is read whole in one Query.
 * At most MAX_KEPT days per instance, the least recently used dropped first.
 */
export const SETTLE_MS = 10 * 60_000;
export const MAX_KEPT = 50_000;
const kept = new Map<string, SlaDay | null>();
const keyOf = (companyId: number, day: string) => `${companyId}|${day}`;

function* calendarDays(from: string, to: string) {
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000)
    yield new Date(at).toISOString().slice(0, 10);
}

function keep(key: string, day: SlaDay | null) {
  kept.delete(key);
  kept.set(key, day);
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
}

/** The days `from`..`to` (inclusive) that have metrics, oldest first. */
export async function slaDays(companyId: number, from: string, to: string, now = new Date()): Promise<SlaDay[]> {
  const firstOpen = localDay(new Date(now.getTime() - SETTLE_MS));
  const days = [...calendarDays(from, to)];
  const missing = days.filter((d) => d < firstOpen && !kept.has(keyOf(companyId, d)));
  const open = days.filter((d) => d >= firstOpen);
  const readFrom = missing[0] ?? open[0];
  const fresh = new Map<string, SlaDay>();
  if (readFrom) {
    const items = await queryAll<Item>({ pk: slaPk(companyId), sk: { between: [`D#${readFrom}`, `D#${to}`] } });
    for (const item of items) fresh.set(String(item.day), slaDayOf(item));
    for (const d of days) if (d >= readFrom && d < firstOpen) keep(keyOf(companyId, d), fresh.get(d) ?? null);
  }
  return days.flatMap((d) => {
    const day = d < firstOpen ? kept.get(keyOf(companyId, d)) : fresh.get(d);
    return day ? [day] : [];
  });
}
