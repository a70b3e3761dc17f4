import { describe, expect, it } from 'vitest';
import { metrics } from './metrics';

/** A DynamoDB call as db.ts's send() reports it: leaves, then its answer arrives after `ms`. */
async function call(ms: number) {
  metrics.started();
  await new Promise((r) => setTimeout(r, ms));
  metrics.ended();
  metrics.record('GetCommand', { CapacityUnits: 0.5 });
}

describe('metrics', () => {
  it('calls sent together are one round trip; a call that waits for another is a second', async () => {
    const { usage } = await metrics.measure(async () => {
      await Promise.all([call(5), call(10)]);
      await call(1);
    });
    expect(usage).toMatchObject({ calls: 3, rounds: 2, capacity: 1.5 });
  });

  it("a request's round trips count until it answers, and in an enclosing measure", async () => {
    const before = metrics.total();
    const { usage } = await metrics.measure(() => metrics.request(async () => Promise.all([call(1), call(1)])));
    const after = metrics.total();
    expect(usage.rounds).toBe(1);
    expect(after.rounds - before.rounds).toBe(1);
    expect(after.answered - before.answered).toBe(1);
  });
});
