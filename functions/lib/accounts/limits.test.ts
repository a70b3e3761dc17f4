import { describe, expect, it } from 'vitest';
import type { RateRule } from '../rate-limit';
import { LIMITS } from './limits';

/**
 * The most hits one subject can take in one window of a rule: its free hits, then one each time the
 * delay of rate-limit.ts (base·2^k seconds after the free ones, capped) has passed, from the
 * window's first second to its last.
 */
function mostHitsPerWindow(rule: RateRule) {
  if (!rule.backoff) return rule.free;
  let hits = rule.free;
  let at = 0;
  for (;;) {
    const hold = Math.min(rule.backoff.maxSeconds, rule.backoff.baseSeconds * 2 ** Math.max(0, hits - rule.free));
    if (at + hold >= rule.windowSeconds) return hits;
    at += hold;
    hits++;
  }
}

describe('login budgets', () => {
  it('one address cannot spend the per-account budget alone, so it cannot hold the owner out', () => {
    const oneAddress = Math.min(
      mostHitsPerWindow(LIMITS.loginPerAddressAndEmail),
      mostHitsPerWindow(LIMITS.loginPerAddress),
    );
    expect(LIMITS.loginPerAddressAndEmail.windowSeconds).toBe(LIMITS.loginPerEmail.windowSeconds);
    expect(oneAddress).toBeLessThan(LIMITS.loginPerEmail.free);
  });
});
