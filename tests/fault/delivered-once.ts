import { expect } from 'vitest';
import { manifest } from '../../infra/manifest';
import { type FaultRunOptions, runFaultInjection } from './scenario';

/**
 * Runs the fault scenario at the given size and checks what both its cuts promise (fault-injection
 * .test.ts in `npm test`, fault-injection.full.test.ts in CI): the faults happened, every message is
 * stored once and in order, each contact has one open ticket, every send reaches the phone once,
 * and no queue dead-letters.
 */
export async function expectDeliveredOnce(opts: Omit<FaultRunOptions, 'failRate'>) {
  const result = await runFaultInjection({ ...opts, failRate: 0.05 });
  // the faults happened: a kill per mark in each of the two phases, and failed batches
  expect(result.kills).toBe(2 * opts.kills);
  expect(result.injectedFailures).toBeGreaterThan(0);
  expect(result.inbound).toMatchObject({
    injected: opts.inbound,
    stored: opts.inbound,
    lost: 0,
    doubled: 0,
    chatsOutOfOrder: 0,
    contactsWithoutOneOpenTicket: 0,
  });
  expect(result.outbound).toMatchObject({
    sent: opts.outbound,
    onPhone: opts.outbound,
    lost: 0,
    doubled: 0,
    storedWrong: 0,
  });
  // every queue of the manifest, each with an empty dead-letter queue
  expect(Object.keys(result.deadLetters).sort()).toEqual(manifest.queues.map((q) => q.name).sort());
  expect(Object.values(result.deadLetters).every((n) => n === 0)).toBe(true);
}
