import { beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * settlePresence: the status is announced and the assignment hook called only on a change, and only
 * by the change that records it (a concurrent one that lost the conditional write stays quiet).
 */
const calls = vi.hoisted(() => ({
  recorded: true,
  writes: [] as unknown[],
  posts: [] as { conn: { connectionId: string }; message: { data: unknown } }[],
  available: [] as [number, number][],
}));

vi.mock('../db', () => ({
  getItem: async () => undefined,
  query: async () => ({ items: [] }),
  updateItem: async (_key: unknown, spec: unknown) => {
    calls.writes.push(spec);
    return calls.recorded ? {} : undefined;
  },
}));
vi.mock('../realtime', () => ({
  companyConnections: async () => [
    { connectionId: 'admin', userId: 1, profile: 'admin' },
    { connectionId: 'own', userId: 7, profile: 'user' },
    { connectionId: 'colleague', userId: 8, profile: 'user' },
  ],
  postAll: async (posts: typeof calls.posts) => void calls.posts.push(...posts),
}));
vi.mock('../tickets/assignment', () => ({
  onUserAvailable: async (companyId: number, userId: number) => void calls.available.push([companyId, userId]),
}));
vi.mock('../log', () => ({ log: { info: () => undefined, warn: () => undefined, error: () => undefined } }));

const { settlePresence } = await import('./service');

const live = (id: string) => `${id}@${Math.floor(Date.now() / 1000) + 600}`;

describe('settlePresence', () => {
  beforeEach(() => {
    calls.recorded = true;
    calls.writes = [];
    calls.posts = [];
    calls.available = [];
  });

  it('first socket: online announced to admins and the user, and the assignment hook called', async () => {
    await settlePresence(5, 7, { sockets: new Set([live('a')]) });
    expect(calls.posts.map((p) => p.conn.connectionId)).toEqual(['admin', 'own']);
    expect(calls.posts[0]!.message.data).toEqual({ action: 'update', userId: 7, status: 'online' });
    expect(calls.available).toEqual([[5, 7]]);
  });

  it('back from away: the hook is called again; going away is announced without it', async () => {
    await settlePresence(5, 7, { sockets: new Set([live('a')]), idle: new Set(['a']), presenceStatus: 'online' });
    expect(calls.posts[0]!.message.data).toMatchObject({ status: 'away' });
    expect(calls.available).toEqual([]);
    await settlePresence(5, 7, { sockets: new Set([live('a')]), presenceStatus: 'away' });
    expect(calls.available).toEqual([[5, 7]]);
  });

  it('no change: nothing written, announced or called', async () => {
    await settlePresence(5, 7, { sockets: new Set([live('a'), live('b')]), presenceStatus: 'online' });
    expect(calls.writes).toEqual([]);
    expect(calls.posts).toEqual([]);
    expect(calls.available).toEqual([]);
  });

  it('a change another one recorded first stays quiet', async () => {
    calls.recorded = false;
    await settlePresence(5, 7, { sockets: new Set([live('a')]) });
    expect(calls.writes).toHaveLength(1);
    expect(calls.posts).toEqual([]);
    expect(calls.available).toEqual([]);
  });
});
