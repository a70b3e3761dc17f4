import { manifest } from '../../infra/manifest';
import { describe, expect, it } from 'vitest';
import { runFaultInjection } from './scenario';

/**
 * Delivery under faults (issue 15), small enough for every `npm test`: 500 inbound messages from
 * 50 chats and 60 outbound sends while the session runner is killed (SIGKILL) and restarted once in
 * each phase and the inbound consumer fails 5% of its records at random. CI also runs 2,000 and 200
 * with two kills a phase (fault-injection.full.test.ts, `npm run test:fault-full`); the full size
 * (20,000 from 500 chats, 2,000 sends) is `npx tsx tests/bench/fault-injection.ts`.
 */
describe('fault injection', () => {
  it('with runner kills and 5% failing inbound records, every message is stored once and in order, each contact has one open ticket, every send reaches the phone once, and no queue dead-letters', async () => {
    const result = await runFaultInjection({
      inbound: 500,
      chats: 50,
      outbound: 60,
      failRate: 0.05,
      kills: 1,
      testRun: true,
    });
    // the faults happened
    expect(result.kills).toBe(2);
    expect(result.injectedFailures).toBeGreaterThan(0);
    expect(result.inbound).toMatchObject({
      injected: 500,
      stored: 500,
      lost: 0,
      doubled: 0,
      chatsOutOfOrder: 0,
      contactsWithoutOneOpenTicket: 0,
    });
    expect(result.outbound).toMatchObject({ sent: 60, onPhone: 60, lost: 0, doubled: 0, storedWrong: 0 });
    // every queue of the manifest, each with an empty dead-letter queue
    expect(Object.keys(result.deadLetters).sort()).toEqual(manifest.queues.map((q) => q.name).sort());
    expect(Object.values(result.deadLetters).every((n) => n === 0)).toBe(true);
  });
});
