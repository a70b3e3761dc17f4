import { describe, expect, it, vi } from 'vitest';
import { callProvider, ProviderError, withProviderBudget } from './call';

vi.mock('../config', () => ({
  config: () => ({ aiTimeoutMs: 400, aiRetries: 5, aiRetryBaseMs: 50, aiBudgetMs: 60_000 }),
}));

/** A provider that never answers: each attempt ends only when its timeout aborts it. */
const hanging = (calls: number[]) => (signal: AbortSignal) =>
  new Promise<never>((_, reject) => {
    calls.push(Date.now());
    signal.addEventListener('abort', () => reject(signal.reason));
  });

describe('provider calls share the time budget of one inbound message', () => {
  it('without a budget, every retry runs with its full timeout', async () => {
    const calls: number[] = [];
    await expect(callProvider('test', hanging(calls))).rejects.toThrow('timeout');
    expect(calls).toHaveLength(6);
  });

  it('within a budget, the calls stop when it is spent, and an attempt never outlives it', async () => {
    const calls: number[] = [];
    const started = Date.now();
    const failed = await withProviderBudget(async () => {
      await callProvider('first', hanging(calls)).catch(() => undefined);
      return callProvider('second', hanging(calls)).catch((err: ProviderError) => err);
    }, 1500);
    const spent = Date.now() - started;
    expect(failed).toBeInstanceOf(ProviderError);
    expect(spent).toBeLessThan(1500 + 200);
    // 400 ms attempts and 50-100 ms waits: about 3 fit in 1.5 s, far fewer than the 12 without a budget
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.length).toBeLessThanOrEqual(4);
  });
});
