import { updateItem } from '../db';
import { pad } from '../keys';
import { log } from '../log';

/**
 * Dashboard aggregates, kept up to date by the writes that change them so a dashboard read never
 * touches tickets (one item per day, plus one per user and day):
 * - `C#<cid>#DASH` / `D#<YYYY-MM-DD>`: tickets (created that day) and h00..h23 (created per hour),
 *   open/pending/closed (current status of the tickets created that day), newContacts,
 *   waitSum/waitCount (queued -> started, counted on the start day, ms), supportSum/supportCount
 *   (started -> finished, counted on the finish day, ms);
 * - `C#<cid>#DASH` / `U#<YYYY-MM-DD>#<pad(userId)>`: tickets (rounds the user took that day),
 *   supportSum/supportCount, ratingSum/ratingCount.
 * Days and hours are UTC.
 */
export const dashPk = (companyId: number) => `C#${companyId}#DASH`;
export const dayKeys = (companyId: number, day: string) => ({ pk: dashPk(companyId), sk: `D#${day}` });
export const userDayKeys = (companyId: number, day: string, userId: number) => ({
  pk: dashPk(companyId),
  sk: `U#${day}#${pad(userId)}`,
});

export const dayOf = (iso: string) => iso.slice(0, 10);
export const hourOf = (iso: string) => `h${iso.slice(11, 13)}`;

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

export function bumpDay(companyId: number, day: string, fields: Partial<Record<DayCounter | `h${string}`, number>>) {
  return add(dayKeys(companyId, day), fields as Record<string, number>, { day });
}

export function bumpUserDay(
  companyId: number,
  day: string,
  userId: number,
  fields: Partial<Record<UserDayCounter, number>>,
) {
  return add(userDayKeys(companyId, day, userId), fields as Record<string, number>, { day, userId });
}
