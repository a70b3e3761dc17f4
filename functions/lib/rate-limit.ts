import { config } from './config';
import { deleteItem, updateItem, type Key } from './db';
import { AppError } from './errors';

/**
 * The one rate limiter. A rule counts hits per subject (an e-mail, a client address, or one e-mail
 * from one address) in fixed windows: item `RL#<rule>#<subject>` / `W#<window>`, with TTL. A hit is
 * taken with one conditional ADD before the work it guards, so concurrent requests can never spend
 * more than the budget.
 *
 * A rule allows `free` hits per window. Past that, a rule without `backoff` refuses until the window
 * ends; a rule with `backoff` lets one hit through per delay (base·2^k seconds, capped) instead, so an
 * attacker cannot lock the owner out for long, and a burst gets at most one hit per delay.
 */
export interface RateRule {
  name: string;
  /**
   * What is counted. `address` rules skip the addresses the config exempts (the local test stack's
   * loopback, which every test shares); an `address+email` rule counts one account from one address,
   * so nobody else's traffic adds to it and it exempts none. `connection` counts one WebSocket
   * connection's messages.
   */
  per: 'email' | 'address' | 'address+email' | 'connection';
  windowSeconds: number;
  free: number;
  backoff?: { baseSeconds: number; maxSeconds: number };
}

/** A hit taken; `giveBack` returns it (a success that the rule must not count). */
export interface Hit {
  key: Key;
}

/** Who asks: the client's address, the e-mail the request names (when it names one), or a socket. */
export interface Caller {
  address?: string;
  email?: string;
  connectionId?: string;
}

function subjectOf(rule: RateRule, { address, email, connectionId }: Caller) {
  // connection ids are case-sensitive; addresses and e-mails are not
  if (rule.per === 'connection') {
    if (connectionId === undefined) throw new Error(`rate rule ${rule.name} counts connections: the caller named none`);
    return connectionId;
  }
  if (rule.per === 'address') return String(address).toLowerCase();
  if (email === undefined) throw new Error(`rate rule ${rule.name} counts e-mails: the caller named none`);
  return (rule.per === 'email' ? email : `${address}#${email}`).toLowerCase();
}

const keys = (rule: RateRule, caller: Caller, now: number): Key => ({
  pk: `RL#${rule.name}#${subjectOf(rule, caller)}`,
  sk: `W#${Math.floor(now / 1000 / rule.windowSeconds)}`,
});

const exempt = (rule: RateRule, caller: Caller) =>
  rule.per === 'address' && caller.address !== undefined && config().rateLimitExemptAddresses.includes(caller.address);

/** Delay after the (seen + 1)-th hit; never zero, so the first hit past the budget always waits. */
function holdSeconds(rule: RateRule, seen: number) {
  const { baseSeconds, maxSeconds } = rule.backoff!;
  return Math.min(maxSeconds, baseSeconds * 2 ** Math.max(0, seen + 1 - rule.free));
}

/** Takes one hit for the caller's subject or refuses with ERR_TOO_MANY_ATTEMPTS (429). */
export async function take(rule: RateRule, caller: Caller): Promise<Hit | undefined> {
  if (exempt(rule, caller)) return undefined;
  const now = Date.now();
  const key = keys(rule, caller, now);
  const windowEnd = (Math.floor(now / 1000 / rule.windowSeconds) + 1) * rule.windowSeconds;
  // One write per hit: it opens the rule again after the first delay, right for every hit within
  // the free budget (the delay only grows past it). A hit past the budget then learns from the
  // count it wrote how long the wait really is and sets it; meanwhile the shorter wait still refuses
  // the others, and the condition is what holds the budget.
  const taken = await updateItem<{ hits: number }>(key, {
    add: { hits: 1 },
    set: { ttl: windowEnd + 60, openAt: rule.backoff ? now + holdSeconds(rule, 0) * 1000 : undefined },
    condition: rule.backoff
      ? 'attribute_not_exists(hits) OR hits < :free OR openAt <= :now'
      : 'attribute_not_exists(hits) OR hits < :free',
    conditionValues: { ':free': rule.free, ...(rule.backoff ? { ':now': now } : {}) },
  });
  if (!taken) throw new AppError('ERR_TOO_MANY_ATTEMPTS');
  const seen = taken.hits - 1;
  if (rule.backoff && holdSeconds(rule, seen) !== holdSeconds(rule, 0))
    await updateItem(key, { set: { openAt: now + holdSeconds(rule, seen) * 1000 }, condition: 'attribute_exists(pk)' });
  return { key };
}

/** Returns a hit: the guarded work succeeded and only failures count against the rule. */
export async function giveBack(hit: Hit | undefined) {
  if (hit) await updateItem(hit.key, { add: { hits: -1 }, condition: 'hits > :zero', conditionValues: { ':zero': 0 } });
}

/** Forgets the caller's hits in the current window (the owner proved who they are). */
export async function clear(rule: RateRule, caller: Caller) {
  await deleteItem(keys(rule, caller, Date.now()));
}
