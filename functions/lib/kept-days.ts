import { localDay } from '#shared/dates';
import { batchGet, queryAll, type Item, type Key } from './db';
import { remember } from './lru';

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
 *
 * An open day changes, but every write to a day item also ADDs 1 to its version, `v` (DAY_VERSION):
 * an instance keeps the open days it parsed with their version, and a read of an open day it keeps
 * asks first for the version alone (a few bytes instead of a busy day's thousand counters) and
 * reads the whole item only when the version moved. `SplitDays.openKey` names the open days'
 * versions, so what a reader computes from them can be kept the same way. An item without a
 * version (written before versions) is always read whole.
 */
export const SETTLE_MS = 10 * 60_000;
/**
 * Bounds by count, sized for a 512 MB function: a parsed day is about 10-20 KB (a dashboard day's
 * ~135 counters, a service-level day's histograms), a range's sum about as much as a few days.
 */
export const MAX_KEPT = 10_000;
export const MAX_FOLDS = 500;
/** Open days kept with their version: about two per company (its counters and service levels). */
export const MAX_OPEN = 2_000;
/** The attribute every write to a day item ADDs 1 to. */
export const DAY_VERSION = 'v';
const kept = new Map<string, unknown>();
const folds = new Map<string, unknown>();
/** A range's settled days, parsed, by its `settledKey` (they never change, so neither does the list). */
const settledLists = new Map<string, unknown[]>();
const openKept = new Map<string, { version: number; day: unknown }>();

const ABSENT = { version: 0, day: null };
const versionOf = (item: Item) => {
  const v = item[DAY_VERSION];
  return typeof v === 'number' ? v : undefined;
};

const dayLists = new Map<string, string[]>();
/** An item's `pk|day`, the key of the maps below. */
const dayKeyOf = (item: Item) => `${item.pk}|${String(item.sk).slice(2)}`;

/** The calendar days `from`..`to`, inclusive (the same few ranges are asked for on every read: kept). */
function calendarDays(from: string, to: string): string[] {
  const key = `${from}|${to}`;
  let days = dayLists.get(key);
  if (!days) {
    days = [];
    for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000)
      days.push(new Date(at).toISOString().slice(0, 10));
    remember(dayLists, key, days, MAX_FOLDS);
  }
  return days;
}

/** A range's days that exist, split into the settled ones (kept) and the open ones (just read). */
export interface SplitDays<T> {
  settled: T[];
  open: T[];
  /** names the settled part: the partition, the range's first day and its last settled day */
  settledKey: string;
  /** names the open part (each open day and its version), when every open item has a version */
  openKey?: string;
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
 * those of every such range are read by key in one BatchGet, or, for the open days this instance
 * already parsed, their versions alone, then whole only where a version moved. A range with settled
 * days not kept yet is read by a Query from its first missing day.
 */
export async function keptDaysSplitAll<T extends unknown[]>(
  specs: { [K in keyof T]: DaysSpec<T[K]> },
  now = new Date(),
): Promise<{ [K in keyof T]: SplitDays<T[K]> }> {
  return (await keptDaysWithItems<T>(specs, [], now)).splits;
}

/**
 * `keptDaysSplitAll`, and version items read by key in the same BatchGet as the open days' versions
 * (`also`, projected to their keys and `v`: what tells a reader whether something else it keeps
 * moved, such as the roster of accounts/users.ts). `items` answers them in `also`'s order,
 * undefined where absent.
 */
export async function keptDaysWithItems<T extends unknown[]>(
  specs: { [K in keyof T]: DaysSpec<T[K]> },
  also: Key[],
  now = new Date(),
): Promise<{ splits: { [K in keyof T]: SplitDays<T[K]> }; items: (Item | undefined)[] }> {
  const firstOpen = localDay(new Date(now.getTime() - SETTLE_MS));
  const plans = (specs as DaysSpec<unknown>[]).map((spec) => {
    const days = calendarDays(spec.from, spec.to);
    const keyOf = (day: string) => `${spec.pk}|${day}`;
    const settledDays = days.filter((d) => d < firstOpen);
    const settledKey = `${spec.pk}|${spec.from}|${settledDays.at(-1) ?? ''}`;
    // a range whose settled days were all kept at once has their list kept too: no day to look up
    const settledList = settledLists.get(settledKey);
    const missing = settledList ? [] : settledDays.filter((d) => !kept.has(keyOf(d)));
    const open = days.filter((d) => d >= firstOpen);
    return { spec, days, keyOf, readFrom: missing[0], open, settledDays, settledKey, settledList };
  });
  const byKey = plans.flatMap((p) =>
    p.readFrom ? [] : p.open.map((d) => ({ key: p.keyOf(d), pk: p.spec.pk, sk: `D#${d}`, parse: p.spec.parse })),
  );
  const known = byKey.filter((k) => openKept.has(k.key));
  const unknown = byKey.filter((k) => !openKept.has(k.key));
  const keysOf = (list: typeof byKey) => list.map(({ pk, sk }) => ({ pk, sk }));
  const [versionsAndAlso, whole, ...queried] = await Promise.all([
    known.length || also.length
      ? batchGet<Item>([...keysOf(known), ...also], { projection: ['pk', 'sk', DAY_VERSION] })
      : [],
    unknown.length ? batchGet<Item>(keysOf(unknown)) : [],
    ...plans.map((p) =>
      p.readFrom
        ? queryAll<Item>({ pk: p.spec.pk, sk: { between: [`D#${p.readFrom}`, `D#${p.spec.to}`] } })
        : undefined,
    ),
  ]);
  const alsoKeys = new Set(also.map((k) => `${k.pk}|${k.sk}`));
  const itemKey = (item: Item) => `${item.pk}|${item.sk}`;
  const versions = versionsAndAlso.filter((item) => !alsoKeys.has(itemKey(item)));
  const alsoFound = new Map(versionsAndAlso.filter((item) => alsoKeys.has(itemKey(item))).map((i) => [itemKey(i), i]));
  // the open days read whole or found unchanged, parsed, by `pk|day`; a day without an item is absent
  const openDays = new Map<string, { version?: number; day: unknown }>();
  const keepOpen = (item: Item, parse: (item: Item) => unknown) => {
    const key = dayKeyOf(item);
    const version = versionOf(item);
    const day = parse(item);
    openDays.set(key, { version, day });
    if (version === undefined) openKept.delete(key);
    else remember(openKept, key, { version, day }, MAX_OPEN);
  };
  const parseOf = new Map(byKey.map((k) => [k.key, k.parse]));
  for (const item of whole) keepOpen(item, parseOf.get(dayKeyOf(item))!);
  const moved: Key[] = [];
  for (const item of versions) {
    const key = dayKeyOf(item);
    const mine = openKept.get(key)!;
    const version = versionOf(item);
    // a version read behind the one kept (reads are eventually consistent) keeps the newer
    if (version !== undefined && version <= mine.version) {
      openDays.set(key, mine);
      remember(openKept, key, mine, MAX_OPEN);
    } else moved.push({ pk: String(item.pk), sk: String(item.sk) });
  }
  if (moved.length) for (const item of await batchGet<Item>(moved)) keepOpen(item, parseOf.get(dayKeyOf(item))!);
  plans.forEach((p, i) => {
    for (const item of queried[i] ?? []) if (String(item.sk).slice(2) >= firstOpen) keepOpen(item, p.spec.parse);
  });
  // an open day without an item (nothing happened yet) is kept as absent, at version 0: the first
  // write makes it 1, so the version read sees it appear
  for (const p of plans)
    for (const d of p.open) if (!openDays.has(p.keyOf(d))) remember(openKept, p.keyOf(d), ABSENT, MAX_OPEN);
  const splits = plans.map((p, i) => {
    const items = queried[i];
    if (items) {
      const fresh = new Map(items.map((item) => [String(item.sk).slice(2), item]));
      for (const d of p.days)
        if (d >= p.readFrom! && d < firstOpen) {
          const item = fresh.get(d);
          remember(kept, p.keyOf(d), item ? p.spec.parse(item) : null, MAX_KEPT);
        }
    }
    const present = (list: string[], pick: (d: string) => unknown) =>
      list.flatMap((d) => {
        const day = pick(d);
        return day ? [day] : [];
      });
    let settled = p.settledList;
    if (settled) remember(settledLists, p.settledKey, settled, MAX_FOLDS);
    else {
      settled = present(p.settledDays, (d) => kept.get(p.keyOf(d)));
      // when every settled day is kept now (read above if it was not), the list stands for them
      if (p.settledDays.every((d) => kept.has(p.keyOf(d)))) remember(settledLists, p.settledKey, settled, MAX_FOLDS);
    }
    const openVersions = p.open.map((d) => {
      const got = openDays.get(p.keyOf(d));
      return got ? (got.version === undefined ? undefined : `${d}@${got.version}`) : `${d}@-`;
    });
    return {
      settled,
      open: present(p.open, (d) => openDays.get(p.keyOf(d))?.day),
      settledKey: p.settledKey,
      openKey: openVersions.every((v) => v !== undefined) ? `${p.spec.pk}|${openVersions.join(',')}` : undefined,
    };
  }) as { [K in keyof T]: SplitDays<T[K]> };
  return { splits, items: also.map((k) => alsoFound.get(`${k.pk}|${k.sk}`)) };
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
