import { describe, expect, it } from 'vitest';
import { ByteBudget } from './byte-budget';

const MB = 1024 * 1024;
/** lets every settled promise run its continuations (no real time passes) */
const settle = () => new Promise<void>((r) => setImmediate(r));

/** Takes `bytes`, noting when the take resolved. */
function taker(budget: ByteBudget, bytes: number, log: string[], name: string) {
  return budget.take(bytes).then((release) => {
    log.push(name);
    return release;
  });
}

describe('media bytes in flight', () => {
  it('a take that fits goes at once; one over the cap waits until enough bytes are released', async () => {
    const budget = new ByteBudget(64 * MB);
    const log: string[] = [];
    const a = taker(budget, 40 * MB, log, 'a');
    const b = taker(budget, 20 * MB, log, 'b');
    const c = taker(budget, 16 * MB, log, 'c');
    await settle();
    expect(log).toEqual(['a', 'b']);
    expect(budget.inFlight).toBe(60 * MB);
    expect(budget.waiting).toBe(1);
    (await b)();
    await settle();
    // 40 + 16 fits again
    expect(log).toEqual(['a', 'b', 'c']);
    expect(budget.inFlight).toBe(56 * MB);
    (await a)();
    (await c)();
    expect(budget.inFlight).toBe(0);
  });

  it('an object larger than the whole cap goes alone once nothing else is in flight, never waiting for ever', async () => {
    const budget = new ByteBudget(64 * MB);
    const log: string[] = [];
    const small = taker(budget, 10 * MB, log, 'small');
    const huge = taker(budget, 100 * MB, log, 'huge');
    const after = taker(budget, 1 * MB, log, 'after');
    await settle();
    expect(log).toEqual(['small']);
    (await small)();
    await settle();
    // alone: the small one behind it waits for it
    expect(log).toEqual(['small', 'huge']);
    expect(budget.inFlight).toBe(100 * MB);
    (await huge)();
    await settle();
    expect(log).toEqual(['small', 'huge', 'after']);
    (await after)();
  });

  it('first come, first served: a waiting large take is not passed over by a small one that would fit', async () => {
    const budget = new ByteBudget(64 * MB);
    const log: string[] = [];
    const first = taker(budget, 50 * MB, log, 'first');
    const large = taker(budget, 30 * MB, log, 'large');
    const small = taker(budget, 5 * MB, log, 'small');
    await settle();
    expect(log).toEqual(['first']);
    (await first)();
    await settle();
    expect(log).toEqual(['first', 'large', 'small']);
    (await large)();
    (await small)();
  });

  it('releasing twice gives the bytes back once', async () => {
    const budget = new ByteBudget(64 * MB);
    const release = await budget.take(30 * MB);
    const other = await budget.take(30 * MB);
    release();
    release();
    expect(budget.inFlight).toBe(30 * MB);
    other();
    expect(budget.inFlight).toBe(0);
  });
});
