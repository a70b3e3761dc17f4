import type { Whatsapp } from '#shared/schemas/whatsapp';
import { getItem, updateItem } from '../db';
import { nowIso } from '../keys';
import { ageDays, limiterDay, nextLimiterDayAt, perConnection, versionedUpdate } from './limiter';

/**
 * The number-check budget: asking WhatsApp "is this number on WhatsApp?" about many numbers from a
 * young number is a ban signal, so each connection may check a budget of numbers a day (the
 * limiter's day), one item per connection, pk `C#<cid>#CHECKLIMIT`, sk `W#<whatsappId>`, taken with
 * the same optimistic versioning as the campaign limiter's `acquire`.
 *
 * Defaults (README "Campaign pacing and the ban-risk limiter"):
 * - a new connection may check START numbers a day, growing in a straight line with its age in days
 *   to DAILY on day GROWTH_DAYS and staying there;
 * - it stops at the first restriction: while WhatsApp's reach-out lock holds (until the lock ends),
 *   and for the rest of the day once WhatsApp refused a check with a restriction;
 * - an answer cached from the last day (numbers.ts) is not asked again and costs nothing.
 */
export const CHECK_BUDGET = {
  START: 200,
  DAILY: 2000,
  GROWTH_DAYS: 14,
} as const;

const checkLimitPk = (companyId: number) => `C#${companyId}#CHECKLIMIT`;
const budgetKeys = (companyId: number, whatsappId: number) => ({ pk: checkLimitPk(companyId), sk: `W#${whatsappId}` });

export interface CheckBudgetState {
  version?: number;
  day?: string;
  checkedToday?: number;
  /** the day WhatsApp refused a check with a restriction: no more checks that day */
  restrictedDay?: string;
}

export type CheckStopReason = 'checkBudget' | 'reachoutLock' | 'restricted';
export interface CheckStop {
  reason: CheckStopReason;
  /** when checks may go on (ms) */
  until: number;
}

type Checker = Pick<Whatsapp, 'createdAt' | 'reachoutLockedUntil'>;

/** Today's budget of number checks of the connection. */
export function dailyCheckBudgetOf(w: Pick<Whatsapp, 'createdAt'>, now = Date.now()) {
  const age = ageDays(w, now);
  if (age >= CHECK_BUDGET.GROWTH_DAYS) return CHECK_BUDGET.DAILY;
  return Math.floor(CHECK_BUDGET.START + ((CHECK_BUDGET.DAILY - CHECK_BUDGET.START) * age) / CHECK_BUDGET.GROWTH_DAYS);
}

/** Checks counted today at `now` (a count of an earlier day is 0). */
export const checkedTodayOf = (state: CheckBudgetState, now = Date.now()) =>
  state.day === limiterDay(now) ? (state.checkedToday ?? 0) : 0;

/** Why the connection may not check now, and until when; undefined while it may. */
export function checkStopOf(w: Checker, state: CheckBudgetState, now = Date.now()): CheckStop | undefined {
  const lockEnds = w.reachoutLockedUntil ? Date.parse(w.reachoutLockedUntil) : Number.NaN;
  if (lockEnds > now) return { reason: 'reachoutLock', until: lockEnds };
  if (state.restrictedDay === limiterDay(now)) return { reason: 'restricted', until: nextLimiterDayAt(now) };
  if (checkedTodayOf(state, now) >= dailyCheckBudgetOf(w, now))
    return { reason: 'checkBudget', until: nextLimiterDayAt(now) };
  return undefined;
}

/** The checks the connection may still make today (0 while stopped). */
export function checksLeftOf(w: Checker, state: CheckBudgetState, now = Date.now()) {
  if (checkStopOf(w, state, now)) return 0;
  return dailyCheckBudgetOf(w, now) - checkedTodayOf(state, now);
}

/** Why the connection may not check now (its budget item read), undefined while it may. */
export async function currentCheckStop(companyId: number, whatsapp: Pick<Whatsapp, 'id'> & Checker, now = Date.now()) {
  const state = (await getItem<CheckBudgetState>(budgetKeys(companyId, whatsapp.id), { consistent: true })) ?? {};
  return checkStopOf(whatsapp, state, now);
}

/**
 * Takes up to `wanted` checks from today's budget of the connection: `granted` may be fewer (the
 * rest waits for `stop.until`), 0 while the connection is stopped.
 */
export async function takeChecks(
  companyId: number,
  whatsapp: Pick<Whatsapp, 'id'> & Checker,
  wanted: number,
  now = Date.now(),
): Promise<{ granted: number; stop?: CheckStop }> {
  return versionedUpdate<CheckBudgetState, { granted: number; stop?: CheckStop }>(
    budgetKeys(companyId, whatsapp.id),
    (state) => {
      const stop = checkStopOf(whatsapp, state, now);
      if (stop) return { result: { granted: 0, stop } };
      const checkedToday = checkedTodayOf(state, now);
      const granted = Math.min(wanted, dailyCheckBudgetOf(whatsapp, now) - checkedToday);
      return {
        set: { day: limiterDay(now), checkedToday: checkedToday + granted },
        result:
          granted === wanted ? { granted } : { granted, stop: { reason: 'checkBudget', until: nextLimiterDayAt(now) } },
      };
    },
    // a contended item: nothing taken this time, tried again shortly
    { granted: 0, stop: { reason: 'checkBudget', until: now + 1000 } },
  );
}

/** WhatsApp refused a check with a restriction: the connection checks no more numbers today. */
export async function stopChecksToday(companyId: number, whatsappId: number, now = Date.now()) {
  await updateItem(budgetKeys(companyId, whatsappId), {
    set: { restrictedDay: limiterDay(now), updatedAt: nowIso() },
    add: { version: 1 },
  });
}

/** The budget state of every connection of a company (one Query). */
export const companyCheckBudgets = (companyId: number) => perConnection<CheckBudgetState>(checkLimitPk(companyId));

/** One connection's budget state (GetItem). */
export const checkBudgetOf = async (companyId: number, whatsappId: number) =>
  (await getItem<CheckBudgetState>(budgetKeys(companyId, whatsappId))) ?? {};
