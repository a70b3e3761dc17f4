import { manifest } from '../../infra/manifest';
import { describe, expect, it } from 'vitest';
import { runFaultInjection } from './scenario';

/**
 * Delivery under faults (issue 15), as CI runs it (`npm run test:fault-full`, beside `npm test`,
 * which runs a smaller cut, fault-injection.test.ts): 2,000 inbound messages from 100 chats and 200
 * outbound sends while the session runner is killed (SIGKILL) and restarted twice in each phase and
 * the inbound consumer fails 5% of its records at random. The full size (20,000 from 500 chats,
 * 2,000 sends) is `npx tsx tests/bench/fault-injection.ts`.
 */
describe('fault injection, larger', () => {
  it('with runner kills and 5% failing inbound records, every message is stored once and in order, each contact has one open ticket, every send reaches the phone once, and no queue dead-letters', async () => {
    const result = await runFaultInjection({ inbound: 2_000, chats: 100, outbound: 200, failRate: 0.05, kills: 2 });
    // the faults happened
    expect(result.kills).toBe(4);
    expect(result.injectedFailures).toBeGreaterThan(0);
    expect(result.inbound).toMatchObject({
      injected: 2_000,
      stored: 2_000,
      lost: 0,
      doubled: 0,
      chatsOutOfOrder: 0,
      contactsWithoutOneOpenTicket: 0,
    });
    expect(result.outbound).toMatchObject({ sent: 200, onPhone: 200, lost: 0, doubled: 0, storedWrong: 0 });
    // every queue of the manifest, each with an empty dead-letter queue
    expect(Object.keys(result.deadLetters).sort()).toEqual(manifest.queues.map((q) => q.name).sort());
    expect(Object.values(result.deadLetters).every((n) => n === 0)).toBe(true);
  });
});
