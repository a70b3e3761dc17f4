import { describe, expect, it } from 'vitest';
import { UNDELIVERED_AFTER_MINUTES } from '#shared/constants';
import { newMessageId } from '../messages/repo';
import { dueUpperBound } from '../due';
import { WATCH_SHARDS, watchDueAt, watchKeys, watchShardPk } from './repo';

describe('undelivered watchdog wake-up keys', () => {
  const at = Date.parse('2030-01-02T03:04:05.000Z');

  it('a wake-up falls due UNDELIVERED_AFTER_MINUTES after the send, not a millisecond earlier', () => {
    const dueAt = watchDueAt(at);
    const keys = watchKeys({ companyId: 7, messageId: newMessageId(at, at), dueAt });
    expect(dueAt).toBe(new Date(at + UNDELIVERED_AFTER_MINUTES * 60_000).toISOString());
    expect(keys.sk <= dueUpperBound(new Date(Date.parse(dueAt)))).toBe(true);
    expect(keys.sk <= dueUpperBound(new Date(Date.parse(dueAt) - 1))).toBe(false);
  });

  it('every message lands on one of the shards the timer reads, the same one each time', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const w = { companyId: 1, messageId: newMessageId(at, at), dueAt: watchDueAt(at) };
      expect(watchKeys(w)).toEqual(watchKeys({ ...w }));
      seen.add(watchKeys(w).pk);
    }
    const shards = Array.from({ length: WATCH_SHARDS }, (_, n) => watchShardPk(n));
    expect([...seen].every((pk) => shards.includes(pk))).toBe(true);
    expect(seen.size).toBe(WATCH_SHARDS);
  });

  it('two companies with the same message id never share a wake-up', () => {
    const w = { messageId: newMessageId(at, at), dueAt: watchDueAt(at) };
    expect(watchKeys({ ...w, companyId: 1 }).sk).not.toBe(watchKeys({ ...w, companyId: 10 }).sk);
  });
});
