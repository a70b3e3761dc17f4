import { Lru } from './lru';

/** A contact list's batches of number checks: at most one query per session this often. */
export const CHECK_INTERVAL_MS = 5_000;
/** Sessions whose last check is remembered (one entry per session that checked recently). */
const SESSIONS_MAX = 10_000;

/**
 * Spaces the batched number checks of each session (WhatsApp bans accounts that query numbers in
 * bursts): `wait` resolves at the session's next free slot and books it. Checks run in their own
 * command lane, so the wait holds back only the next batch, never a send.
 */
export class CheckPacer {
  private nextSlot: Lru<number>;

  constructor(
    private intervalMs = CHECK_INTERVAL_MS,
    private now = Date.now,
    private sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
  ) {
    this.nextSlot = new Lru<number>({ max: SESSIONS_MAX });
  }

  async wait(session: string) {
    const now = this.now();
    const at = Math.max(now, this.nextSlot.get(session) ?? 0);
    this.nextSlot.set(session, at + this.intervalMs);
    if (at > now) await this.sleep(at - now);
  }
}
