import { isCloudProvider } from '#shared/constants';
import type { PauseReason } from '#shared/schemas/campaigns';
import type { Whatsapp } from '#shared/schemas/whatsapp';
import { DEFAULT_TIME_ZONE, localDay, nextLocalDayStart, wholeDaysSince } from '#shared/dates';
import { getItem, updateItem, query, type Item, type Key } from '../db';
import { nowIso } from '../keys';

/**
 * The ban-risk limiter: one item per connection, pk `C#<cid>#CAMPLIMIT`, sk `W#<whatsappId>`,
 * holding when the connection may send its next campaign message, what it sent today, and a pause.
 * Every campaign on the connection takes its turn through `acquire`, an optimistic conditional
 * update on the item's version, so concurrent campaigns and consumers never overrun it.
 *
 * Defaults (README "Campaign pacing and the ban-risk limiter"):
 * - daily cap DAILY_CAP sends per connection per day, the company's day (São Paulo time, as the
 *   product's users count days: a UTC day would end at 21:00 and show 0 sends for the evening);
 * - warm-up: a connection younger than WARMUP_DAYS days may send WARMUP_START + WARMUP_STEP x its
 *   age in days per day, with spacing stretched by WARMUP_SPACING_FACTOR;
 * - spacing: the campaign interval times a random factor in [1, 1 + JITTER], at least MIN_SPACING_SECONDS;
 * - automatic pause: from PAUSE_MIN_SENT sends on, a failure share of PAUSE_FAILURE_RATIO or more
 *   (`failures`: refused sends, rejected acks, blocked recipients), or fewer than NO_ACK_MIN_RATIO of
 *   the sends delivered, read or failed once NO_ACK_MIN_SENT went out (`noAcks`).
 *
 * A Cloud API number has no client to be banned for: no warm-up and no anti-ban interval, but Meta's
 * published limits (CLOUD_LIMITS): its throughput (spacing of 1/MESSAGES_PER_SECOND s) and the
 * business portfolio's messaging limit as the daily cap (read with the number; Meta's default for
 * a new portfolio until then). Meta counts that limit per portfolio over a moving 24 hours and only
 * customers outside their window; the cap counts every campaign send of the connection per day, so
 * it errs on the side of sending fewer. The pauses on failures and missing acks apply to both.
 */
export const LIMITER = {
  DAILY_CAP: 1000,
  WARMUP_DAYS: 14,
  WARMUP_START: 100,
  WARMUP_STEP: 60,
  WARMUP_SPACING_FACTOR: 1.5,
  JITTER: 0.5,
  MIN_SPACING_SECONDS: 2,
  PAUSE_MIN_SENT: 10,
  PAUSE_FAILURE_RATIO: 0.3,
  NO_ACK_MIN_SENT: 20,
  NO_ACK_MIN_RATIO: 0.2,
} as const;

/** Meta's documented limits of a Cloud API number ("Throughput", "Messaging limits"). */
export const CLOUD_LIMITS = {
  /** the default throughput of a business phone number */
  MESSAGES_PER_SECOND: 80,
  /** a new business portfolio's messaging limit (customers per moving 24 hours) */
  DEFAULT_DAILY_LIMIT: 250,
} as const;

type Paced = Pick<Whatsapp, 'createdAt'> & Partial<Pick<Whatsapp, 'provider' | 'cloudMessagingLimit'>>;

const limitPk = (companyId: number) => `C#${companyId}#CAMPLIMIT`;
const limitKeys = (companyId: number, whatsappId: number) => ({ pk: limitPk(companyId), sk: `W#${whatsappId}` });

export interface LimitState {
  version?: number;
  day?: string;
  sentToday?: number;
  nextSendAt?: number;
  pausedReason?: PauseReason | null;
  pausedAt?: string | null;
}

export const ageDays = (w: Pick<Whatsapp, 'createdAt'>, now = Date.now()) => wholeDaysSince(w.createdAt, now);

/** Today's cap of campaign sends on the connection; null is none (a Cloud API portfolio without limit). */
export function dailyCapOf(w: Paced, now = Date.now()): number | null {
  if (isCloudProvider(w.provider))
    return w.cloudMessagingLimit === -1 ? null : (w.cloudMessagingLimit ?? CLOUD_LIMITS.DEFAULT_DAILY_LIMIT);
  const age = ageDays(w, now);
  return age < LIMITER.WARMUP_DAYS
    ? Math.min(LIMITER.DAILY_CAP, LIMITER.WARMUP_START + LIMITER.WARMUP_STEP * age)
    : LIMITER.DAILY_CAP;
}

/**
 * The wait before the next send: the interval, randomized, stretched while the number warms up; on a
 * Cloud API number, the number's throughput.
 */
export function spacingMs(intervalSeconds: number, w: Paced, secondMs: number, now = Date.now()) {
  if (isCloudProvider(w.provider)) return Math.ceil(secondMs / CLOUD_LIMITS.MESSAGES_PER_SECOND);
  const base = Math.max(intervalSeconds, LIMITER.MIN_SPACING_SECONDS) * secondMs;
  const warm = ageDays(w, now) < LIMITER.WARMUP_DAYS ? LIMITER.WARMUP_SPACING_FACTOR : 1;
  return Math.round(base * warm * (1 + Math.random() * LIMITER.JITTER));
}

/** The limiter's day `YYYY-MM-DD` at `ms`: the calendar day in the company's time zone. */
export const limiterDay = (ms: number) => localDay(ms, DEFAULT_TIME_ZONE);

/** When the limiter's next day starts after `ms` (the daily cap lifts then). */
export const nextLimiterDayAt = (ms: number) => nextLocalDayStart(ms, DEFAULT_TIME_ZONE);

/** Sends counted today at `now` (a count of an earlier day is 0): one reading for the limiter and GET /campaigns/limits. */
export const sentTodayOf = (state: Pick<LimitState, 'day' | 'sentToday'>, now = Date.now()) =>
  state.day === limiterDay(now) ? (state.sentToday ?? 0) : 0;

export type Acquired =
  | { ok: true }
  | { ok: false; waitMs: number; reason: 'spacing' | 'dailyCap' }
  | { ok: false; paused: PauseReason };

/**
 * Takes the connection's next send slot: allowed when its spacing has passed, today's cap is not
 * reached and it is not paused; the slot moves the next allowed time `spacing` ahead.
 */
export async function acquire(
  companyId: number,
  whatsapp: Pick<Whatsapp, 'id'> & Paced,
  spacing: number,
  now = Date.now(),
): Promise<Acquired> {
  return versionedUpdate<LimitState, Acquired>(
    limitKeys(companyId, whatsapp.id),
    (state) => {
      if (state.pausedReason) return { result: { ok: false, paused: state.pausedReason } };
      if ((state.nextSendAt ?? 0) > now)
        return { result: { ok: false, waitMs: state.nextSendAt! - now, reason: 'spacing' } };
      const sentToday = sentTodayOf(state, now);
      const cap = dailyCapOf(whatsapp, now);
      if (cap !== null && sentToday >= cap)
        return { result: { ok: false, waitMs: nextLimiterDayAt(now) - now, reason: 'dailyCap' } };
      return {
        set: { day: limiterDay(now), sentToday: sentToday + 1, nextSendAt: now + spacing },
        result: { ok: true },
      };
    },
    { ok: false, waitMs: 1000, reason: 'spacing' },
  );
}

/**
 * Read-modify-write of a connection's versioned item (the campaign limiter's, the check budget's):
 * `decide` sees the item as it is and answers what to set (with what to return once set), or only
 * what to return. The write holds only if nobody wrote in between; after 5 tries, `contended`.
 */
export async function versionedUpdate<S extends { version?: number }, R>(
  keys: Key,
  decide: (state: S) => { set?: Record<string, unknown>; result: R },
  contended: R,
): Promise<R> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const state = (await getItem<S>(keys, { consistent: true })) ?? ({} as S);
    const { set, result } = decide(state);
    if (!set) return result;
    const version = state.version ?? 0;
    const taken = await updateItem(keys, {
      set: { ...set, version: version + 1, updatedAt: nowIso() },
      condition: version ? '#v = :v' : 'attribute_not_exists(#v)',
      conditionNames: { '#v': 'version' },
      conditionValues: version ? { ':v': version } : undefined,
    });
    if (taken) return result;
  }
  return contended;
}

/** The items of a company partition keyed `W#<whatsappId>` (one Query), by connection id. */
export async function perConnection<S>(pk: string) {
  const { items } = await query<Item>({ pk });
  return new Map(items.map((i) => [Number(String(i.sk).slice(2)), i as S]));
}

/**
 * WhatsApp's own limits on new chats, told to the session (WhatsApp Web): while the reach-out lock
 * holds, or the cycle's new-chat quota is used up, a campaign waits until it ends (the lock's end, the
 * cycle's end; a quota without an end is looked at again in an hour), or until WhatsApp lifts it
 * sooner (`resumeRestrictedCampaigns`).
 */
export function restrictionWait(
  w: Pick<Whatsapp, 'reachoutLockedUntil' | 'newChatQuota'>,
  now = Date.now(),
): { ms: number; reason: 'reachoutLock' | 'newChatQuota' } | undefined {
  const lockEnds = w.reachoutLockedUntil ? Date.parse(w.reachoutLockedUntil) : Number.NaN;
  if (lockEnds > now) return { ms: lockEnds - now, reason: 'reachoutLock' };
  const quota = w.newChatQuota;
  if (!quota || quota.used < quota.total) return undefined;
  const cycleEnds = quota.endsAt ? Date.parse(quota.endsAt) : Number.NaN;
  if (Number.isNaN(cycleEnds)) return { ms: 3_600_000, reason: 'newChatQuota' };
  return cycleEnds > now ? { ms: cycleEnds - now, reason: 'newChatQuota' } : undefined;
}

/** Pauses every campaign send on the connection until a campaign is restarted. */
export async function pauseConnection(companyId: number, whatsappId: number, reason: PauseReason) {
  await updateItem(limitKeys(companyId, whatsappId), {
    set: { pausedReason: reason, pausedAt: nowIso() },
    add: { version: 1 },
  });
}

export async function clearConnectionPause(companyId: number, whatsappId: number) {
  await updateItem(limitKeys(companyId, whatsappId), {
    set: { pausedReason: null, pausedAt: null, nextSendAt: 0 },
    add: { version: 1 },
    condition: 'attribute_exists(pk)',
  });
}

/** Whether a campaign's counters cross a pause threshold, and which. */
export function pauseReasonOf(c: { sent: number; delivered: number; failed: number }): PauseReason | null {
  if (c.sent >= LIMITER.PAUSE_MIN_SENT && c.failed / c.sent >= LIMITER.PAUSE_FAILURE_RATIO) return 'failures';
  if (c.sent >= LIMITER.NO_ACK_MIN_SENT && (c.delivered + c.failed) / c.sent < LIMITER.NO_ACK_MIN_RATIO)
    return 'noAcks';
  return null;
}

/** The limiter state of every connection of a company (one Query). */
export const companyLimits = (companyId: number) => perConnection<LimitState>(limitPk(companyId));
