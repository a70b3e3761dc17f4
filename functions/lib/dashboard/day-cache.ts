import { batchGet, queryAll, type Item } from '../db';
import { dashPk } from './aggregates';

/**
 * The dashboard's day items of a range, kept by this instance and checked against the table on
 * every read. Each day item carries `v`, raised by one with every ADD to it (aggregates.ts), so one
 * Query that returns only the `sk` and `v` of the range's days tells which kept days are still
 * exact: only new or changed ones are read whole (one BatchGet). Nothing is answered that the
 * table no longer says; what a read saves is the bytes of the days that did not change (a 30-day
 * range is about 30 x 20 KB with the service-level histograms).
 * At most MAX_KEPT days are kept per instance, the least recently read dropped first.
 */
export interface Day {
  item: Item;
  v: number;
  /** what readers derived from the item, computed once per version */
  derived: Map<string, unknown>;
}

export const MAX_KEPT = 20_000;
const kept = new Map<string, Day>();
const keyOf = (companyId: number, sk: string) => `${companyId}|${sk}`;

function keep(key: string, day: Day) {
  kept.delete(key);
  kept.set(key, day);
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
}

/** The calendar days `from`..`to` (inclusive, `YYYY-MM-DD`; at most a year and a day by the caller). */
function* calendarDays(from: string, to: string) {
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000)
    yield new Date(at).toISOString().slice(0, 10);
}

/**
 * The day items of `from`..`to` (inclusive), oldest first; days without an item are absent. A range
 * of which this instance keeps nothing is read whole at once (one Query, as without the cache).
 */
export async function readDays(companyId: number, from: string, to: string): Promise<Day[]> {
  if (![...calendarDays(from, to)].some((day) => kept.has(keyOf(companyId, `D#${day}`)))) {
    const items = await queryAll<Item>({ pk: dashPk(companyId), sk: { between: [`D#${from}`, `D#${to}`] } });
    return items.map((item) => {
      const day: Day = { item, v: Number(item.v) || 0, derived: new Map() };
      keep(keyOf(companyId, item.sk), day);
      return day;
    });
  }
  const stamps = await queryAll<Item>({
    pk: dashPk(companyId),
    sk: { between: [`D#${from}`, `D#${to}`] },
    projection: ['sk', 'v'],
  });
  const changed = stamps.filter((s) => kept.get(keyOf(companyId, s.sk))?.v !== (Number(s.v) || 0));
  if (changed.length) {
    const items = await batchGet<Item>(changed.map((s) => ({ pk: dashPk(companyId), sk: s.sk as string })));
    for (const item of items) keep(keyOf(companyId, item.sk), { item, v: Number(item.v) || 0, derived: new Map() });
  }
  return stamps.flatMap((s) => {
    const key = keyOf(companyId, s.sk);
    const day = kept.get(key);
    if (!day) return [];
    keep(key, day);
    return [day];
  });
}

/** Something derived from a day item (parsed counters, histograms), computed once per version. */
export function derive<T>(day: Day, name: string, make: (item: Item) => T): T {
  if (!day.derived.has(name)) day.derived.set(name, make(day.item));
  return day.derived.get(name) as T;
}

/** Forgets every kept day (tests). */
export function forgetDays() {
  kept.clear();
}
