import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messagingLimitOf } from '../whatsapp-cloud/mapping';
import {
  acquire,
  CLOUD_LIMITS,
  dailyCapOf,
  LIMITER,
  limiterDay,
  nextLimiterDayAt,
  restrictionWait,
  sentTodayOf,
  spacingMs,
} from './limiter';

/** The limiter items in memory, with DynamoDB's conditional update on the item's version. */
const limiterItems = vi.hoisted(() => new Map<string, Record<string, unknown>>());
vi.mock('../db', () => {
  const id = (key: { pk: string; sk: string }) => `${key.pk}|${key.sk}`;
  return {
    getItem: async (key: { pk: string; sk: string }) => {
      const item = limiterItems.get(id(key));
      return item && { ...item };
    },
    updateItem: async (
      key: { pk: string; sk: string },
      spec: { set?: Record<string, unknown>; condition?: string; conditionValues?: Record<string, unknown> },
    ) => {
      const item = limiterItems.get(id(key));
      const version = item?.version;
      if (spec.condition === 'attribute_not_exists(#v)' && version !== undefined) return undefined;
      if (spec.condition === '#v = :v' && version !== spec.conditionValues?.[':v']) return undefined;
      const next = { ...item, ...key, ...spec.set };
      limiterItems.set(id(key), next);
      return next;
    },
    query: async () => ({ items: [] }),
  };
});

describe('limiter day', () => {
  it("counts the company's day (São Paulo), not the UTC day: sends of the evening still count at 22:30", () => {
    // 2026-11-23T01:30Z is 22:30 of the 22nd in São Paulo
    const evening = Date.parse('2026-11-23T01:30:00.000Z');
    expect(limiterDay(evening)).toBe('2026-11-22');
    expect(sentTodayOf({ day: limiterDay(Date.parse('2026-11-22T20:00:00.000Z')), sentToday: 6 }, evening)).toBe(6);
    // and a count of the day before is none today
    expect(sentTodayOf({ day: '2026-11-21', sentToday: 6 }, evening)).toBe(0);
  });

  it('the daily cap lifts at midnight São Paulo time', () => {
    expect(new Date(nextLimiterDayAt(Date.parse('2026-11-23T01:30:00.000Z'))).toISOString()).toBe(
      '2026-11-23T03:00:00.000Z',
    );
    expect(new Date(nextLimiterDayAt(Date.parse('2026-11-23T12:00:00.000Z'))).toISOString()).toBe(
      '2026-11-24T03:00:00.000Z',
    );
  });
});

describe('campaign spacing', () => {
  const NOW = Date.parse('2026-03-10T12:00:00.000Z');
  const DAY = 24 * 3600 * 1000;
  const agedDays = (days: number) => ({ createdAt: new Date(NOW - days * DAY).toISOString() });
  const seasoned = agedDays(LIMITER.WARMUP_DAYS + 30);
  const SECOND_MS = 1000;
  const random = (value: number) => vi.spyOn(Math, 'random').mockReturnValue(value);

  afterEach(() => vi.restoreAllMocks());

  it('waits the configured interval between two sends of a seasoned connection', () => {
    random(0);
    expect(spacingMs(20, seasoned, SECOND_MS, NOW)).toBe(20_000);
    expect(spacingMs(7, seasoned, 5, NOW)).toBe(35);
  });

  it('never spaces two sends closer than MIN_SPACING_SECONDS, whatever the interval', () => {
    random(0);
    const floor = LIMITER.MIN_SPACING_SECONDS * SECOND_MS;
    expect(spacingMs(0, seasoned, SECOND_MS, NOW)).toBe(floor);
    expect(spacingMs(LIMITER.MIN_SPACING_SECONDS - 1, seasoned, SECOND_MS, NOW)).toBe(floor);
    expect(spacingMs(LIMITER.MIN_SPACING_SECONDS + 1, seasoned, SECOND_MS, NOW)).toBe(floor + SECOND_MS);
  });

  it('stretches the spacing by the warm-up factor while the connection is younger than WARMUP_DAYS', () => {
    random(0);
    const stretched = 20_000 * LIMITER.WARMUP_SPACING_FACTOR;
    expect(spacingMs(20, agedDays(0), SECOND_MS, NOW)).toBe(stretched);
    expect(spacingMs(20, agedDays(LIMITER.WARMUP_DAYS - 1), SECOND_MS, NOW)).toBe(stretched);
    expect(spacingMs(20, agedDays(LIMITER.WARMUP_DAYS), SECOND_MS, NOW)).toBe(20_000);
    // the floor is stretched too
    expect(spacingMs(0, agedDays(1), SECOND_MS, NOW)).toBe(
      LIMITER.MIN_SPACING_SECONDS * SECOND_MS * LIMITER.WARMUP_SPACING_FACTOR,
    );
  });

  it('the age counts from `now`, not from the real clock', () => {
    random(0);
    const young = { createdAt: '2020-01-01T00:00:00.000Z' };
    expect(spacingMs(20, young, SECOND_MS, Date.parse('2020-01-03T00:00:00.000Z'))).toBe(30_000);
    expect(spacingMs(20, young, SECOND_MS, Date.parse('2020-02-01T00:00:00.000Z'))).toBe(20_000);
  });

  it('jitter only lengthens the spacing, by at most JITTER of it', () => {
    random(0);
    expect(spacingMs(20, seasoned, SECOND_MS, NOW)).toBe(20_000);
    random(0.5);
    expect(spacingMs(20, seasoned, SECOND_MS, NOW)).toBe(20_000 * (1 + 0.5 * LIMITER.JITTER));
    random(1 - Number.EPSILON);
    const top = spacingMs(20, seasoned, SECOND_MS, NOW);
    expect(top).toBeGreaterThan(20_000);
    expect(top).toBeLessThanOrEqual(20_000 * (1 + LIMITER.JITTER));
    // the warm-up stretch and the jitter multiply
    random(1 - Number.EPSILON);
    expect(spacingMs(20, agedDays(2), SECOND_MS, NOW)).toBeLessThanOrEqual(
      20_000 * LIMITER.WARMUP_SPACING_FACTOR * (1 + LIMITER.JITTER),
    );
  });
});

describe('acquire: the connection slot', () => {
  const NOW = Date.parse('2026-03-10T12:00:00.000Z');
  const line = { id: 7, createdAt: '2025-01-01T00:00:00.000Z' };

  beforeEach(() => limiterItems.clear());

  it('a send slot moves the next allowed send `spacing` ahead; until then the connection waits the rest', async () => {
    expect(await acquire(1, line, 20_000, NOW)).toEqual({ ok: true });
    expect(await acquire(1, line, 20_000, NOW + 5_000)).toEqual({ ok: false, waitMs: 15_000, reason: 'spacing' });
    expect(await acquire(1, line, 20_000, NOW + 19_999)).toEqual({ ok: false, waitMs: 1, reason: 'spacing' });
    expect(await acquire(1, line, 20_000, NOW + 20_000)).toEqual({ ok: true });
    expect(await acquire(1, line, 20_000, NOW + 20_001)).toMatchObject({ ok: false, reason: 'spacing' });
  });

  it('each connection has its own slot', async () => {
    expect(await acquire(1, line, 20_000, NOW)).toEqual({ ok: true });
    expect(await acquire(1, { ...line, id: 8 }, 20_000, NOW)).toEqual({ ok: true });
    expect(await acquire(2, line, 20_000, NOW)).toEqual({ ok: true });
  });
});

describe("the Cloud API profile: Meta's limits instead of the anti-ban pacing", () => {
  const NOW = Date.parse('2026-03-10T12:00:00.000Z');
  const newCloud = { id: 9, createdAt: new Date(NOW).toISOString(), provider: 'cloud' as const };

  beforeEach(() => limiterItems.clear());

  it('spaces sends by the number throughput, whatever the interval, the jitter or the age', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.99);
    const spacing = Math.ceil(1000 / CLOUD_LIMITS.MESSAGES_PER_SECOND);
    expect(spacingMs(60, newCloud, 1000, NOW)).toBe(spacing);
    expect(spacingMs(0, newCloud, 1000, NOW)).toBe(spacing);
    // the same connection on WhatsApp Web would wait the interval, stretched while it warms up
    expect(spacingMs(60, { ...newCloud, provider: 'baileys' }, 1000, NOW)).toBeGreaterThanOrEqual(90_000);
    vi.restoreAllMocks();
  });

  it("caps the day at the portfolio's messaging limit, Meta's default until it is known, none when unlimited", () => {
    expect(dailyCapOf(newCloud, NOW)).toBe(CLOUD_LIMITS.DEFAULT_DAILY_LIMIT);
    expect(dailyCapOf({ ...newCloud, cloudMessagingLimit: 10_000 }, NOW)).toBe(10_000);
    expect(dailyCapOf({ ...newCloud, cloudMessagingLimit: -1 }, NOW)).toBeNull();
    // a day-old WhatsApp Web number warms up instead
    expect(dailyCapOf({ ...newCloud, provider: 'baileys' }, NOW)).toBe(LIMITER.WARMUP_START);
  });

  it('acquire stops at the messaging limit and never for an unlimited portfolio', async () => {
    const limited = { ...newCloud, cloudMessagingLimit: 2 };
    expect(await acquire(1, limited, 0, NOW)).toEqual({ ok: true });
    expect(await acquire(1, limited, 0, NOW + 1)).toEqual({ ok: true });
    expect(await acquire(1, limited, 0, NOW + 2)).toMatchObject({ ok: false, reason: 'dailyCap' });
    const unlimited = { ...newCloud, id: 10, cloudMessagingLimit: -1 };
    for (let i = 0; i < 300; i++) expect(await acquire(1, unlimited, 0, NOW + i)).toEqual({ ok: true });
  });

  it("reads Meta's tiers as customers per 24 hours", () => {
    expect(messagingLimitOf('TIER_250')).toBe(250);
    expect(messagingLimitOf('TIER_2K')).toBe(2000);
    expect(messagingLimitOf('TIER_100K')).toBe(100_000);
    expect(messagingLimitOf('TIER_UNLIMITED')).toBe(-1);
    expect(messagingLimitOf('SOMETHING_NEW')).toBeUndefined();
    expect(messagingLimitOf(undefined)).toBeUndefined();
  });
});

describe("WhatsApp's own limits make a campaign wait (R5)", () => {
  const NOW = Date.parse('2026-03-10T12:00:00.000Z');
  const at = (ms: number) => new Date(NOW + ms).toISOString();
  it('waits until the reach-out lock ends, and not after it', () => {
    expect(restrictionWait({ reachoutLockedUntil: at(90_000) }, NOW)).toEqual({ ms: 90_000, reason: 'reachoutLock' });
    expect(restrictionWait({ reachoutLockedUntil: at(-1) }, NOW)).toBeUndefined();
  });
  it('waits for the cycle to end once the new-chat quota is used up (an hour when its end is unknown)', () => {
    expect(restrictionWait({ newChatQuota: { total: 5, used: 5, endsAt: at(60_000) } }, NOW)).toEqual({
      ms: 60_000,
      reason: 'newChatQuota',
    });
    expect(restrictionWait({ newChatQuota: { total: 5, used: 4, endsAt: at(60_000) } }, NOW)).toBeUndefined();
    expect(restrictionWait({ newChatQuota: { total: 5, used: 5 } }, NOW)).toEqual({
      ms: 3_600_000,
      reason: 'newChatQuota',
    });
    expect(restrictionWait({ newChatQuota: { total: 5, used: 5, endsAt: at(-1) } }, NOW)).toBeUndefined();
  });
});
