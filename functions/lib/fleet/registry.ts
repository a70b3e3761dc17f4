import { deleteItem, putItem, queryAll } from '../db';
import { ttlIn } from '../keys';

/**
 * The fleet registry: `WRUNNERS` / `<runnerId>`, one item per runner process, rewritten by its
 * heartbeat. A runner is alive while `expiresAt` is ahead; the sessions it owns (ownership.ts) are
 * its for exactly that long, so one write per runner every few seconds keeps every session held,
 * however many there are.
 */
export interface RunnerInfo {
  runnerId: string;
  /** `draining`: stopping, handing its sessions over; it takes none */
  state: 'running' | 'draining';
  /** sessions it holds now */
  sessions: number;
  rss: number;
  /** its runner API, and the token a peer forwarding a command presents */
  url: string;
  token: string;
  startedAt: number;
  expiresAt: number;
}

const runnerKeys = (runnerId: string) => ({ pk: 'WRUNNERS', sk: runnerId });

/** Through a client of its own with a short timeout: bulk writes on a slow connection never delay it. */
export async function heartbeat(info: RunnerInfo) {
  await putItem({ ...runnerKeys(info.runnerId), ...info, ttl: ttlIn(3600) }, { urgent: true });
}

/** Every registered runner, dead ones included (their items linger until the TTL removes them). */
export async function runners(): Promise<RunnerInfo[]> {
  return queryAll<RunnerInfo>({ pk: 'WRUNNERS' });
}

/** A runner that stopped cleanly leaves the registry. */
export async function deregister(runnerId: string) {
  await deleteItem(runnerKeys(runnerId));
}

export const isAlive = (runner: RunnerInfo | undefined, now: number) => Boolean(runner && runner.expiresAt > now);
