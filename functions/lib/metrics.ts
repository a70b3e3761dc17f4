import { AsyncLocalStorage } from 'node:async_hooks';

/** DynamoDB calls and consumed capacity, per request and in total (the benchmarks read these). */
export interface DbUsage {
  calls: number;
  capacity: number;
  byCommand: Record<string, number>;
  /** attempts the SDK repeated (throttling, a connection reset) before the answer */
  retries: number;
  /**
   * sequential round trips: calls that started while none of this record's calls was in flight
   * (calls sent together, as by Promise.all, are one round trip)
   */
  rounds: number;
}

interface Tally extends DbUsage {
  inFlight: number;
  /** an enclosing record (a test's `measure` around a request's): it counts the same calls */
  parent?: Tally;
}

const store = new AsyncLocalStorage<Tally>();
const fresh = (parent?: Tally): Tally => ({
  calls: 0,
  capacity: 0,
  byCommand: {},
  retries: 0,
  rounds: 0,
  inFlight: 0,
  parent,
});
const total: DbUsage & { answered: number } = {
  calls: 0,
  capacity: 0,
  byCommand: {},
  retries: 0,
  rounds: 0,
  answered: 0,
};

function add(usage: DbUsage, command: string, capacity: number, retries: number) {
  usage.calls++;
  usage.retries += retries;
  usage.capacity += capacity;
  usage.byCommand[command] = (usage.byCommand[command] ?? 0) + 1;
}
const usageOf = ({ calls, capacity, byCommand, retries, rounds }: Tally): DbUsage => ({
  calls,
  capacity,
  byCommand,
  retries,
  rounds,
});

export const metrics = {
  record(command: string, consumed: unknown, retries = 0) {
    const list = Array.isArray(consumed) ? consumed : consumed ? [consumed] : [];
    const capacity = list.reduce(
      (sum: number, c: { CapacityUnits?: number } | undefined) => sum + (c?.CapacityUnits ?? 0),
      0,
    );
    add(total, command, capacity, retries);
    for (let r = store.getStore(); r; r = r.parent) add(r, command, capacity, retries);
  },
  /** A call leaves (`started`) and its answer arrives (`ended`): the round trips of each record. */
  started() {
    for (let r = store.getStore(); r; r = r.parent) if (r.inFlight++ === 0) r.rounds++;
  },
  ended() {
    for (let r = store.getStore(); r; r = r.parent) r.inFlight--;
  },
  /** Runs fn with a fresh per-request usage record and returns both. */
  async measure<T>(fn: () => Promise<T>): Promise<{ result: T; usage: DbUsage }> {
    const usage = fresh(store.getStore());
    const result = await store.run(usage, fn);
    return { result, usage: usageOf(usage) };
  },
  /**
   * An API request (the HTTP wrapper): its round trips until it answers are added to the total's
   * `rounds` and `answered`; what it leaves running after its answer counts in calls, not in rounds.
   */
  async request<T>(fn: () => Promise<T>): Promise<T> {
    const usage = fresh(store.getStore());
    try {
      return await store.run(usage, fn);
    } finally {
      total.rounds += usage.rounds;
      total.answered++;
    }
  },
  total: () => ({ ...total, byCommand: { ...total.byCommand } }),
};
