import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunnerInfo } from '#lib/fleet/registry';

// the table is not needed: the fence is about this runner's own clock
const wantedSessions = vi.hoisted(() => vi.fn(async () => [] as unknown[]));
vi.mock('#lib/fleet/ownership', () => ({
  wantedSessions,
  readSession: async () => undefined,
  markWanted: async () => undefined,
  moveSession: async () => undefined,
}));
vi.mock('#lib/fleet/registry', () => ({
  runners: async () => [],
  deregister: async () => undefined,
  heartbeat: async () => undefined,
  isAlive: (r: RunnerInfo | undefined, now: number) => Boolean(r && r.expiresAt > now),
}));

vi.mock('#lib/log', () => ({ log: { info() {}, warn() {}, error() {}, debug() {} } }));

const { Fleet } = await import('./fleet');

afterEach(() => {
  vi.useRealTimers();
});

/** When the runner closed its sockets, against when its peers count its last heartbeat expired. */
async function fenceAgainstExpiry(heartbeatMs: number, heartbeatTtlMs: number) {
  vi.useFakeTimers({ now: 1_000_000 });
  let closedAt: number | undefined;
  const manager = {
    size: 3,
    held: () => [],
    closeAll: async () => {
      closedAt ??= Date.now();
    },
  };
  let lastExpiry = 0;
  let failing = false;
  const fleet = new Fleet(
    manager as never,
    { runnerId: 'r1', url: 'http://127.0.0.1:1', token: 't' },
    { heartbeatMs, heartbeatTtlMs, rebalanceMs: heartbeatMs, handoversPerTick: 1 },
    async (info) => {
      if (failing) throw new Error('DynamoDB unreachable');
      lastExpiry = info.expiresAt;
    },
  );
  await fleet.start();
  // a few good beats, then the table goes away at an instant that is not a multiple of any interval
  await vi.advanceTimersByTimeAsync(heartbeatMs * 3 + 7);
  failing = true;
  await vi.advanceTimersByTimeAsync(heartbeatTtlMs * 2);
  fleet.halt();
  return { closedAt, lastExpiry, health: fleet.health() };
}

describe('self-fencing', () => {
  it.each([
    ['production settings', 5_000, 15_000],
    ['a short TTL', 200, 1_500],
    ['a TTL shorter than the default check interval', 100, 400],
  ])('with %s, the sockets close before the last heartbeat expires', async (_, beat, ttl) => {
    const { closedAt, lastExpiry, health } = await fenceAgainstExpiry(beat, ttl);
    expect(health.fenced).toBe(true);
    expect(closedAt).toBeDefined();
    expect(closedAt!).toBeLessThan(lastExpiry);
  });
});

describe('after a fence (R10: the re-adoption is spread over time)', () => {
  it('a runner whose heartbeat comes back waits a random part of the spread before it rebalances again', async () => {
    vi.useFakeTimers({ now: 2_000_000 });
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const manager = { size: 0, held: () => [], closeAll: async () => undefined };
    let failing = false;
    const heartbeatMs = 1_000;
    const heartbeatTtlMs = 15_000;
    const fleet = new Fleet(
      manager as never,
      { runnerId: 'r2', url: 'http://127.0.0.1:1', token: 't' },
      { heartbeatMs, heartbeatTtlMs, rebalanceMs: 1_000, handoversPerTick: 1 },
      async () => {
        if (failing) throw new Error('DynamoDB unreachable');
      },
    );
    await fleet.start();
    failing = true;
    await vi.advanceTimersByTimeAsync(heartbeatTtlMs * 2);
    expect(fleet.health().fenced).toBe(true);
    failing = false;
    await vi.advanceTimersByTimeAsync(heartbeatMs);
    expect(fleet.health().fenced).toBe(false);
    const healedAt = Date.now();
    wantedSessions.mockClear();
    // half of the spread (the smaller of 30 s and twice the TTL): no rebalance before it
    await vi.advanceTimersByTimeAsync(15_000 - 1_500);
    expect(wantedSessions).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(wantedSessions).toHaveBeenCalled();
    expect(Date.now() - healedAt).toBeGreaterThanOrEqual(15_000);
    fleet.halt();
    vi.restoreAllMocks();
  });
});
