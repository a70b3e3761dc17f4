import { localClock, localDay } from '#shared/dates';
import { updateItem } from '../db';
import { nowIso, pad } from '../keys';
import { log } from '../log';
import { DAY_VERSION } from '../kept-days';

/**
 * Dashboard aggregates, kept up to date by the writes that change them so a dashboard read never
 * touches tickets (one item per day):
 * - `C#<cid>#DASH` / `D#<YYYY-MM-DD>`: tickets (created that day) and h00..h23 (created per hour),
 *   open/pending/closed (current status of the tickets created that day), newContacts,
 *   waitSum/waitCount (queued -> started, counted on the start day, ms), supportSum/supportCount
 *   (started -> finished, counted on the finish day, ms);
 *   and, per user, `U#<pad(userId)>#<field>`: tickets (rounds the user took that day),
 *   supportSum/supportCount, ratingSum/ratingCount; the AI agent's counters (agent.ts). One item per day keeps a ticket change to one
 *   ADD per day touched and the dashboard to one Query.
 * Days and hours are São Paulo's (the company's calendar, which the web app's date pickers send):
 * a ticket opened at 22:00 belongs to that evening's day, not to the next UTC day.
 *
 * Every write ADDs to the item of the day it happens (today): a counter of an earlier day (a status
 * move of a ticket created last week, a deletion) is written there as `s#<day>#<field>` and counted
 * for that day by the read. So a day item never changes once its day is over, and the read keeps
 * settled days per instance (kept-days.ts) and reads only the open day(s) and the users. Every
 * write also ADDs 1 to the item's version (kept-days.ts DAY_VERSION), so a reader that parsed an
 * open day re-reads it only once it changed.
 */
export const dashPk = (companyId: number) => `C#${companyId}#DASH`;
export const dayKeys = (companyId: number, day: string) => ({ pk: dashPk(companyId), sk: `D#${day}` });

/** A user's counters on the day item: `U#<pad(userId)>#<field>`. */
export const userFields = (userId: number, fields: Partial<Record<UserDayCounter, number>>) =>
  Object.fromEntries(Object.entries(fields).map(([field, value]) => [`U#${pad(userId)}#${field}`, value]));

/** A user's counter name (`U#<pad(userId)>#<field>`) read back; undefined for a day counter. */
function userField(name: string): { userId: number; field: string } | undefined {
  if (!name.startsWith('U#')) return undefined;
  const cut = name.indexOf('#', 2);
  const userId = Number(name.slice(2, cut));
  return cut < 0 || !Number.isInteger(userId) ? undefined : { userId, field: name.slice(cut + 1) };
}

export const dayOf = (iso: string) => localDay(iso);
export const hourOf = (iso: string) => `h${String(localClock(iso).hour).padStart(2, '0')}`;

export type DayCounter =
  | 'tickets'
  | 'open'
  | 'pending'
  | 'closed'
  | 'newContacts'
  | 'waitSum'
  | 'waitCount'
  | 'supportSum'
  | 'supportCount'
  // the AI agent's (agent.ts)
  | 'aiResolved'
  | 'peopleResolved'
  | 'aiHandOffs'
  | 'aiRatingCount'
  | 'aiRatingSum'
  | 'aiSatisfied'
  | 'peopleRatingCount'
  | 'peopleRatingSum'
  | 'peopleSatisfied'
  | 'aiCalls'
  | 'aiTokens';
export type UserDayCounter = 'tickets' | 'supportSum' | 'supportCount' | 'ratingSum' | 'ratingCount';

/**
 * Atomic ADDs (no read, no transaction: two writers never conflict on a hot day item), all on
 * today's item whatever days they count for. A failure is logged and never fails the business
 * write it follows.
 */
export async function bumpDays(
  companyId: number,
  perDay: Iterable<[string, Partial<Record<DayCounter | `h${string}` | `U#${string}`, number>>]>,
) {
  const today = dayOf(nowIso());
  const add: Record<string, number> = {};
  for (const [day, fields] of perDay)
    for (const [field, value] of Object.entries(fields)) {
      if (!value) continue;
      const name = day === today ? field : `s#${day}#${field}`;
      add[name] = (add[name] ?? 0) + value;
    }
  if (!Object.values(add).some((v) => v !== 0)) return;
  try {
    await updateItem(dayKeys(companyId, today), { add: { ...add, [DAY_VERSION]: 1 }, set: { day: today } });
  } catch (err) {
    log.error('dashboard aggregate update failed', { key: today, error: (err as Error).message });
  }
}

/** Counters of one day (users' counters built with `userFields`), in one ADD on today's item. */
export function bumpDay(companyId: number, day: string, fields: Partial<Record<DayCounter | `h${string}`, number>>) {
  return bumpDays(companyId, [[day, fields]]);
}

export function bumpUserDay(
  companyId: number,
  day: string,
  userId: number,
  fields: Partial<Record<UserDayCounter, number>>,
) {
  return bumpDays(companyId, [[day, userFields(userId, fields)]]);
}

const LATE = /^s#(\d{4}-\d{2}-\d{2})#(.+)$/;

/** What one day item counts, by the day counted for. */
export type DayCounts = Map<string, Record<string, number>>;

/** What one day item counts, by the day counted for: its own day's counters and `s#<day>#` ones. */
export function dayCounts(item: Record<string, unknown>): DayCounts {
  const out = new Map<string, Record<string, number>>();
  const own = String(item.day ?? String(item.sk).slice(2));
  for (const [name, value] of Object.entries(item)) {
    if (name === 'pk' || name === 'sk' || name === 'day' || name === DAY_VERSION || typeof value !== 'number') continue;
    const late = LATE.exec(name);
    const day = late ? late[1]! : own;
    const field = late ? late[2]! : name;
    const counts = out.get(day) ?? {};
    counts[field] = (counts[field] ?? 0) + value;
    out.set(day, counts);
  }
  return out;
}

/** Counters of several days summed: per day, for the whole range, and per user. */
export interface DashSum {
  days: Map<string, Record<string, number>>;
  total: Record<string, number>;
  users: Map<number, Record<string, number>>;
}

/** Sums what day items count (`dayCounts` of each) for the days `from`..`to`, into a new sum. */
export function sumDashDays(items: DayCounts[], from: string, to: string): DashSum {
  const out: DashSum = { days: new Map(), total: {}, users: new Map() };
  for (const counts of items)
    for (const [day, fields] of counts) {
      if (day < from || day > to) continue;
      const perDay = out.days.get(day) ?? {};
      out.days.set(day, perDay);
      for (const [name, value] of Object.entries(fields)) {
        perDay[name] = (perDay[name] ?? 0) + value;
        const user = userField(name);
        if (!user) {
          out.total[name] = (out.total[name] ?? 0) + value;
          continue;
        }
        const mine = out.users.get(user.userId) ?? {};
        mine[user.field] = (mine[user.field] ?? 0) + value;
        out.users.set(user.userId, mine);
      }
    }
  return out;
}
