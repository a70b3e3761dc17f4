import { describe, expect, it } from 'vitest';
import { Lru } from './lru';

describe('Lru (the bound on every cache of the runner)', () => {
  it('holds at most max entries, dropping the least recently used first', () => {
    const cache = new Lru<number>({ max: 3 });
    for (const k of ['a', 'b', 'c']) cache.set(k, 1);
    cache.get('a');
    cache.set('d', 1);
    expect(cache.size).toBe(3);
    expect(cache.has('b')).toBe(false);
    expect(['a', 'c', 'd'].every((k) => cache.has(k))).toBe(true);
  });

  it('forgets an entry once ttlMs have passed since it was set, reads or not', () => {
    let now = 1_000;
    const cache = new Lru<string>({ max: 10, ttlMs: 100, now: () => now });
    cache.set('a', 'x');
    now += 100;
    expect(cache.get('a')).toBe('x');
    now += 1;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.has('a')).toBe(false);
  });

  it('keeps null (a key known to be absent) apart from a key it does not know; undefined forgets', () => {
    const cache = new Lru<string | null>({ max: 10 });
    cache.set('absent', null);
    expect(cache.has('absent')).toBe(true);
    expect(cache.get('absent')).toBeNull();
    expect(cache.get('unknown')).toBeUndefined();
    cache.set('absent', undefined as unknown as null);
    expect(cache.has('absent')).toBe(false);
  });

  it('takes memory for the entries it holds, not for its bound (500 sessions keep nine caches each)', () => {
    const used = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const before = used();
    // with room kept for every entry of its bound, these would take hundreds of MB
    const caches = Array.from({ length: 10 }, () => new Lru<string>({ max: 1_000_000, ttlMs: 60_000 }));
    for (const cache of caches) cache.set('k', 'v');
    expect(used() - before).toBeLessThan(20 * 1024 * 1024);
    expect(caches.every((c) => c.size === 1)).toBe(true);
  });
});
