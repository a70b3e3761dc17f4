import { AsyncLocalStorage } from 'node:async_hooks';

/** DynamoDB calls and consumed capacity, per request and in total (the benchmarks read these). */
export interface DbUsage {
  calls: number;
  capacity: number;
  byCommand: Record<string, number>;
  /** attempts the SDK repeated (throttling, a connection reset) before the answer */
  retries: number;
}

const store = new AsyncLocalStorage<DbUsage>();
const total: DbUsage = { calls: 0, capacity: 0, byCommand: {}, retries: 0 };

function add(usage: DbUsage, command: string, capacity: number, retries: number) {
  usage.calls++;
  usage.retries += retries;
  usage.capacity += capacity;
  usage.byCommand[command] = (usage.byCommand[command] ?? 0) + 1;
}

export const metrics = {
  record(command: string, consumed: unknown, retries = 0) {
    const list = Array.isArray(consumed) ? consumed : consumed ? [consumed] : [];
    const capacity = list.reduce(
      (sum: number, c: { CapacityUnits?: number } | undefined) => sum + (c?.CapacityUnits ?? 0),
      0,
    );
    add(total, command, capacity, retries);
    const current = store.getStore();
    if (current) add(current, command, capacity, retries);
  },
  /** Runs fn with a fresh per-request usage record and returns both. */
  async measure<T>(fn: () => Promise<T>): Promise<{ result: T; usage: DbUsage }> {
    const usage: DbUsage = { calls: 0, capacity: 0, byCommand: {}, retries: 0 };
    const result = await store.run(usage, fn);
    return { result, usage };
  },
  total: () => ({ ...total, byCommand: { ...total.byCommand } }),
};
