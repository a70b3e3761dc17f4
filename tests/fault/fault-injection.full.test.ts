import { describe, it } from 'vitest';
import { expectDeliveredOnce } from './delivered-once';

/**
 * Delivery under faults (issue 15), as CI runs it (`npm run test:fault-full`, beside `npm test`,
 * which runs a smaller cut, fault-injection.test.ts): 2,000 inbound messages from 100 chats and 200
 * outbound sends while the session runner is killed (SIGKILL) and restarted twice in each phase and
 * the inbound consumer fails 5% of its records at random. The full size (20,000 from 500 chats,
 * 2,000 sends) is `npx tsx tests/bench/fault-injection.ts`.
 */
describe('fault injection, larger', () => {
  it('with runner kills and 5% failing inbound records, every message is stored once and in order, each contact has one open ticket, every send reaches the phone once, and no queue dead-letters', async () => {
    await expectDeliveredOnce({ inbound: 2_000, chats: 100, outbound: 200, kills: 2 });
  });
});
