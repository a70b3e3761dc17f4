import { LRUCache } from 'lru-cache';

/** Stands for a stored null (lru-cache keeps no nullish values): "known to be absent" is worth caching. */
const NULL = Symbol('null');

export interface LruLimits {
  /** entries kept; the least recently used goes first */
  max: number;
  /** age at which an entry is dropped, counted from its last set */
  ttlMs?: number;
  /** the clock ages are read from (tests move it) */
  now?: () => number;
}

/**
 * The runner's one bounded cache: at most `max` entries, each forgotten `ttlMs` after it was set,
 * without timers. Its get/set/del/flushAll are Baileys' `CacheStore`, so the socket's caches are
 * bounded the same way. Setting `undefined` forgets a key; `null` is kept as a value.
 */
export class Lru<V = unknown> {
  private entries: LRUCache<string, NonNullable<V> | typeof NULL>;

  constructor({ max, ttlMs, now = Date.now }: LruLimits) {
    this.entries = new LRUCache({ max, ttl: ttlMs, ttlResolution: 0, perf: { now } });
  }

  get<T extends V = V>(key: string): T | undefined {
    const value = this.entries.get(key);
    return (value === NULL ? null : value) as T | undefined;
  }

  has(key: string) {
    return this.entries.has(key);
  }

  set<T extends V = V>(key: string, value: T) {
    if (value === undefined) this.entries.delete(key);
    else this.entries.set(key, value === null ? NULL : (value as NonNullable<V>));
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
