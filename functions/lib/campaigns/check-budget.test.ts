import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CHECK_BUDGET,
  checksLeftOf,
  checkStopOf,
  companyCheckBudgets,
  dailyCheckBudgetOf,
  stopChecksToday,
  takeChecks,
} from './check-budget';

/** The budget items in memory, with DynamoDB's conditional update on the item's version and `add`. */
const items = vi.hoisted(() => new Map<string, Record<string, unknown>>());
vi.mock('../db', () => {
  const id = (key: { pk: string; sk: string }) => `${key.pk}|${key.sk}`;
  return {
    getItem: async (key: { pk: string; sk: string }) => {
      const item = items.get(id(key));
      return item && { ...item };
    },
    updateItem: async (
      key: { pk: string; sk: string },
      spec: {
        set?: Record<string, unknown>;
        add?: Record<string, number>;
        condition?: string;
        conditionValues?: Record<string, unknown>;
      },
    ) => {
      const item = items.get(id(key));
      const version = item?.version;
      if (spec.condition === 'attribute_not_exists(#v)' && version !== undefined) return undefined;
      if (spec.condition === '#v = :v' && version !== spec.conditionValues?.[':v']) return undefined;
      const next: Record<string, unknown> = { ...item, ...key, ...spec.set };
      for (const [k, v] of Object.entries(spec.add ?? {})) next[k] = Number(next[k] ?? 0) + v;
      items.set(id(key), next);
      return next;
    },
    query: async ({ pk }: { pk: string }) => ({
      items: [...items.values()].filter((i) => i.pk === pk),
    }),
  };
});

// noon in São Paulo (15:00Z): the limiter's day is 2026-11-22 all through this file
const NOON = Date.parse('2026-11-22T15:00:00.000Z');
const DAY = 86_400_000;
const bornDaysAgo = (days: number) => ({ id: 7, createdAt: new Date(NOON - days * DAY - 60_000).toISOString() });
const TOMORROW = Date.parse('2026-11-23T03:00:00.000Z');

beforeEach(() => items.clear());

describe('daily check budget', () => {
  it('a new connection may check START numbers a day, growing with its age to DAILY on day GROWTH_DAYS', () => {
    expect(dailyCheckBudgetOf(bornDaysAgo(0), NOON)).toBe(CHECK_BUDGET.START);
    expect(dailyCheckBudgetOf(bornDaysAgo(7), NOON)).toBe(1100);
    expect(dailyCheckBudgetOf(bornDaysAgo(13), NOON)).toBe(1871);
    expect(dailyCheckBudgetOf(bornDaysAgo(14), NOON)).toBe(CHECK_BUDGET.DAILY);
    expect(dailyCheckBudgetOf(bornDaysAgo(400), NOON)).toBe(CHECK_BUDGET.DAILY);
  });

  it('takes what is left of the budget and tells when the rest may go (the next day)', async () => {
    const w = bornDaysAgo(0);
    expect(await takeChecks(1, w, 150, NOON)).toEqual({ granted: 150 });
    expect(await takeChecks(1, w, 80, NOON)).toEqual({ granted: 50, stop: { reason: 'checkBudget', until: TOMORROW } });
    expect(await takeChecks(1, w, 1, NOON)).toEqual({ granted: 0, stop: { reason: 'checkBudget', until: TOMORROW } });
    expect(checksLeftOf(w, (await companyCheckBudgets(1)).get(7)!, NOON)).toBe(0);
  });

  it('a new day starts a new budget', async () => {
    const w = bornDaysAgo(0);
    expect((await takeChecks(1, w, 500, NOON)).granted).toBe(200);
    const state = (await companyCheckBudgets(1)).get(7)!;
    expect(checksLeftOf(w, state, TOMORROW)).toBe(dailyCheckBudgetOf(w, TOMORROW));
    expect((await takeChecks(1, w, 10, TOMORROW)).granted).toBe(10);
  });

  it("another company's connection with the same id has its own budget", async () => {
    const w = bornDaysAgo(0);
    expect((await takeChecks(1, w, 200, NOON)).granted).toBe(200);
    expect((await takeChecks(2, w, 200, NOON)).granted).toBe(200);
  });
});

describe('checks stop at the first restriction', () => {
  it("while WhatsApp's reach-out lock holds, no check goes, until the lock ends", async () => {
    const lockEnds = NOON + 3_600_000;
    const w = { ...bornDaysAgo(30), reachoutLockedUntil: new Date(lockEnds).toISOString() };
    expect(await takeChecks(1, w, 5, NOON)).toEqual({ granted: 0, stop: { reason: 'reachoutLock', until: lockEnds } });
    expect(checksLeftOf(w, {}, NOON)).toBe(0);
    expect(checkStopOf(w, {}, lockEnds + 1)).toBeUndefined();
    expect((await takeChecks(1, w, 5, lockEnds + 1)).granted).toBe(5);
  });

  it('a check WhatsApp refused with a restriction stops the rest of the day, budget or not', async () => {
    const w = bornDaysAgo(30);
    expect((await takeChecks(1, w, 5, NOON)).granted).toBe(5);
    await stopChecksToday(1, w.id, NOON);
    expect(await takeChecks(1, w, 1, NOON + 60_000)).toEqual({
      granted: 0,
      stop: { reason: 'restricted', until: TOMORROW },
    });
    expect(checksLeftOf(w, (await companyCheckBudgets(1)).get(7)!, NOON)).toBe(0);
    // the next day checks go on
    expect((await takeChecks(1, w, 1, TOMORROW)).granted).toBe(1);
  });
});
