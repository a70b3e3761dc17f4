import { beforeEach, describe, expect, it, vi } from 'vitest';

const db = vi.hoisted(() => ({
  puts: [] as Record<string, unknown>[],
  deletes: [] as { pk: string; sk: string }[],
  queried: [] as string[],
}));
vi.mock('../db', () => ({
  putItem: async (item: Record<string, unknown>) => void db.puts.push(item),
  deleteItem: async (key: { pk: string; sk: string }) => void db.deletes.push(key),
  query: async (opts: { pk: string }) => {
    db.queried.push(opts.pk);
    return { items: [] };
  },
}));

const { BOT_DUE_SHARDS, dueItems, retryDue, scheduleDue } = await import('./timers');

describe('chatbot wake-ups', () => {
  beforeEach(() => {
    db.puts = [];
    db.deletes = [];
    db.queried = [];
  });

  it('carry no TTL (one that fell due while the timer was stopped still fires) and spread over shards', async () => {
    await scheduleDue('expire', 3, 10, 5, 'marker', Date.parse('2026-01-01T00:00:00Z'));
    await scheduleDue('expire', 3, 11, 5, 'marker', Date.parse('2026-01-01T00:00:00Z'));
    expect(db.puts.map((p) => p.ttl)).toEqual([undefined, undefined]);
    expect(new Set(db.puts.map((p) => p.pk)).size).toBe(2);
    await dueItems(new Date());
    expect(db.queried).toHaveLength(BOT_DUE_SHARDS);
  });

  it('a failed one comes back later with one more attempt, and is dropped after five failures', async () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const item = { kind: 'transfer' as const, companyId: 3, ticketId: 10, dueAt: '2025-12-31T23:00:00.000Z' };
    expect(await retryDue(item, now)).toBe(true);
    expect(db.puts[0]).toMatchObject({ attempts: 1, dueAt: '2026-01-01T00:01:00.000Z' });
    expect(db.deletes[0]?.sk).toBe('2025-12-31T23:00:00.000Z#transfer#3#10');
    expect(await retryDue({ ...item, attempts: 3 }, now)).toBe(true);
    expect(db.puts[1]).toMatchObject({ attempts: 4, dueAt: '2026-01-01T00:08:00.000Z' });
    expect(await retryDue({ ...item, attempts: 4 }, now)).toBe(false);
    expect(db.puts).toHaveLength(2);
    expect(db.deletes).toHaveLength(3);
  });
});
