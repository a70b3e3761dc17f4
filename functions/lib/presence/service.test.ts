import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionChange } from '../realtime';

/**
 * settlePresence: the status is announced and the assignment hook called only on a change, and only
 * by the change that records it (a concurrent one that lost the conditional write stays quiet).
 * Realtime's connection changes: presence registers for them when it loads and keeps the user's
 * socket set by them.
 */
const calls = vi.hoisted(() => ({
  handler: undefined as ((change: ConnectionChange) => Promise<void>) | undefined,
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
  onConnectionChange: (handler: typeof calls.handler) => {
    calls.handler = handler;
  },
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

describe('connection changes (realtime)', () => {
  beforeEach(() => {
    calls.recorded = true;
    calls.writes = [];
    calls.posts = [];
  });

  it('presence registers for them when it loads', () => {
    expect(calls.handler).toBeTypeOf('function');
  });

  it("an opened socket joins the user's socket set and moves the roster's version", async () => {
    await calls.handler!({ kind: 'opened', companyId: 5, userId: 7, connectionId: 'a', entry: 'a@100' });
    expect(calls.writes[0]).toMatchObject({ add: { sockets: new Set(['a@100']) }, condition: 'attribute_exists(pk)' });
    expect(calls.writes[1]).toEqual({ add: { v: 1 } });
  });

  it('a moved socket swaps its entry, leaving the idle set alone', async () => {
    await calls.handler!({
      kind: 'moved',
      companyId: 5,
      userId: 7,
      connectionId: 'a',
      entry: 'a@200',
      previous: 'a@100',
    });
    expect(calls.writes).toMatchObject([
      { add: { sockets: new Set(['a@200']) } },
      { add: { v: 1 } },
      { deleteFromSet: { sockets: new Set(['a@100']) } },
      { add: { v: 1 } },
    ]);
    expect((calls.writes[2] as { deleteFromSet: object }).deleteFromSet).not.toHaveProperty('idle');
  });

  it('a closed socket leaves the socket and idle sets, and the tickets it had open lose a viewer', async () => {
    await calls.handler!({
      kind: 'closed',
      connectionId: 'own',
      user: { companyId: 5, userId: 7, entry: 'own@100' },
      companyId: 5,
      chatBoxes: [],
    });
    expect(calls.writes[0]).toMatchObject({ deleteFromSet: { sockets: new Set(['own@100']), idle: new Set(['own']) } });
    calls.posts = [];
    await calls.handler!({ kind: 'closed', connectionId: 'gone', companyId: 5, chatBoxes: [9] });
    expect(calls.posts).toEqual([]);
  });
});
