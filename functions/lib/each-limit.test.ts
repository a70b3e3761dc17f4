import { describe, expect, it } from 'vitest';
import { chunked, eachLimit } from './each-limit';

describe('eachLimit', () => {
  it('runs every item once, never more than the limit at a time, starting them in order', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const gates = new Map<number, () => void>();
    const done = eachLimit([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      started.push(n);
      most = Math.max(most, ++running);
      await new Promise<void>((release) => gates.set(n, release));
      running--;
    });
    // releasing them out of order: a free worker takes the next item, whichever finished
    for (const n of [2, 1, 3, 6, 4, 5, 7]) {
      while (!gates.has(n)) await Promise.resolve();
      gates.get(n)!();
      await Promise.resolve();
    }
    await done;
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('rejects with a failure; an empty list does nothing', async () => {
    await expect(
      eachLimit([1, 2, 3], 2, async (n) => {
        if (n === 2) throw new Error('two failed');
      }),
    ).rejects.toThrow('two failed');
    let calls = 0;
    await eachLimit([], 4, async () => void calls++);
    expect(calls).toBe(0);
  });
});

describe('chunked', () => {
  it('cuts a list into runs of the size, the last shorter', () => {
    expect(chunked([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunked([], 3)).toEqual([]);
  });
});
