import { describe, expect, it } from 'vitest';
import { CheckPacer } from './check-pacer';

describe('number check pacing', () => {
  it("a session's batches are one interval apart, however many arrive at once; other sessions are not held", async () => {
    let now = 1_000_000;
    const slept: Record<string, number[]> = {};
    let current = '';
    const pacer = new CheckPacer(
      5_000,
      () => now,
      async (ms) => {
        slept[current] = [...(slept[current] ?? []), ms];
      },
    );
    const waitFor = async (session: string) => {
      current = session;
      await pacer.wait(session);
    };
    await waitFor('1#1');
    await waitFor('1#1');
    await waitFor('1#1');
    await waitFor('2#7');
    expect(slept['1#1']).toEqual([5_000, 10_000]);
    // booked slots hold however late a batch comes within them
    now += 8_000;
    await waitFor('1#1');
    expect(slept['1#1']).toEqual([5_000, 10_000, 7_000]);
    expect(slept['2#7']).toBeUndefined();
    // a session that waited long enough goes at once
    now += 30_000;
    await waitFor('1#1');
    expect(slept['1#1']).toEqual([5_000, 10_000, 7_000]);
  });
});
