import { localClock, localDay } from '#shared/dates';
import { updateItem } from '../db';
import { pad } from '../keys';
import { log } from '../log';

/**
 * Dashboard aggregates, kept up to date by the writes that change them so a dashboard read never
 * touches tickets (one item per day):
 * - `C#<cid>#DASH` / `D#<YYYY-MM-DD>`: tickets (created that day) and h00..h23 (created per hour),
 *   open/pending/closed (current status of the tickets created that day), newContacts,
 *   waitSum/waitCount (queued -> started, counted on the start day, ms), supportSum/supportCount
 *   (started -> finished, counted on the finish day, ms);
 *   and, per user, `U#<pad(userId)>#<field>`: tickets (rounds the user took that day),
 *   supportSum/supportCount, ratingSum/ratingCount. One item per day keeps a ticket change to one
 *   ADD per day touched and the dashboard to one Query.
 * Days and hours are São Paulo's (the company's calendar, which the web app's date pickers send):
 * a ticket opened at 22:00 belongs to that evening's day, not to the next UTC day.
 */
export const dashPk = (companyId: number) => `C#${companyId}#DASH`;
export const dayKeys = (companyId: number, day: string) => ({ pk: dashPk(companyId), sk: `D#${day}` });

/** A user's counters on the day item: `U#<pad(userId)>#<field>`. */
export const userFields = (userId: number, fields: Partial<Record<UserDayCounter, number>>) =>
  Object.fromEntries(Object.entries(fields).map(([field, value]) => [`U#${pad(userId)}#${field}`, value]));

/** The per-user counters of a day item, by user id. */
export function userCounters(item: Record<string, unknown>): Map<number, Record<string, number>> {
  const out = new Map<number, Record<string, number>>();
  for (const [name, value] of Object.entries(item)) {
    const match = /^U#(\d+)#(\w+)$/.exec(name);
    if (!match) continue;
    const userId = Number(match[1]);
    out.set(userId, { ...out.get(userId), [match[2]!]: Number(value) || 0 });
  }
  return out;
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
  | 'supportCount';
export type UserDayCounter = 'tickets' | 'supportSum' | 'supportCount' | 'ratingSum' | 'ratingCount';

/**
 * Atomic ADDs (no read, no transaction: two writers never conflict on a hot day item). A failure
 * is logged and never fails the business write it follows.
 */
async function add(key: { pk: string; sk: string }, fields: Record<string, number>, extra: Record<string, unknown>) {
  const nonZero = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== 0));
  if (!Object.keys(nonZero).length) return;
  try {
    await updateItem(key, { add: nonZero, set: extra });
  } catch (err) {
    log.error('dashboard aggregate update failed', { key: key.sk, error: (err as Error).message });
  }
}

/** Day counters, and users' counters built with `userFields`, in one ADD. */
export function bumpDay(companyId: number, day: string, fields: Partial<Record<DayCounter | `h${string}`, number>>) {
  return add(dayKeys(companyId, day), fields as Record<string, number>, { day });
}

export function bumpUserDay(
  companyId: number,
  day: string,
  userId: number,
  fields: Partial<Record<UserDayCounter, number>>,
) {
  return add(dayKeys(companyId, day), userFields(userId, fields), { day });
}
