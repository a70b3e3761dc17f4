export interface LruLimits {
  /** entries kept; the least recently used goes first */
  max: number;
  /** age at which an entry is dropped, counted from its last set */
  ttlMs?: number;
  /** the clock ages are read from (tests move it) */
  now?: () => number;
}

interface Entry<V> {
  value: V;
  setAt: number;
}

/**
 * The runner's one bounded cache: at most `max` entries, each forgotten `ttlMs` after it was set,
 * without timers. Its get/set/del/flushAll are Baileys' `CacheStore`, so the socket's caches are
 * bounded the same way. Setting `undefined` forgets a key; `null` is kept as a value ("known to be
 * absent" is worth caching).
 * A Map in recency order (a read moves its entry to the end; the first is the least recently used):
 * memory grows with the entries held, never with `max`. (lru-cache allocates arrays for `max`
 * entries up front: the nine caches of an idle Baileys session took 328 KB.)
 */
export class Lru<V = unknown> {
  private entries = new Map<string, Entry<V>>();
  private max: number;
  private ttlMs?: number;
  private now: () => number;

  constructor({ max, ttlMs, now = Date.now }: LruLimits) {
    this.max = max;
    this.ttlMs = ttlMs;
    this.now = now;
  }

  /** The entry, unless it has aged out (then it goes). */
  private live(key: string) {
    const entry = this.entries.get(key);
    if (entry && this.ttlMs !== undefined && this.now() - entry.setAt > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  get<T extends V = V>(key: string): T | undefined {
    const entry = this.live(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value as T;
  }

  /** Whether the key is held (not aged out); does not count as a use. */
  has(key: string) {
    return this.live(key) !== undefined;
  }

  set<T extends V = V>(key: string, value: T) {
    this.entries.delete(key);
    if (value === undefined) return;
    this.entries.set(key, { value, setAt: this.now() });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  del(key: string) {
    this.entries.delete(key);
  }

  flushAll() {
    this.entries.clear();
  }

  get size() {
    return this.entries.size;
  }
}
