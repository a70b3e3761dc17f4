import { beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * `$connect` against a session that ends while it runs: the order of its writes is what keeps such a
 * socket from staying open (the integration suite cannot time a logout into the middle of a connect).
 */
const calls = vi.hoisted(() => ({ order: [] as string[], attached: 'attached' as 'attached' | 'ended' | 'full' }));

vi.mock('#lib/auth', () => ({
  verifyWsTicket: async () => ({ companyId: 7, userId: 3, sessionId: 'sid-1', jti: 'jti-1', exp: 0 }),
}));
vi.mock('#lib/accounts/sessions', () => ({
  consumeWsTicket: async () => undefined,
  currentSession: async () => ({ companyId: 7, userId: 3, profile: 'user', super: false, sessionId: 'sid-1' }),
  attachSocket: async (_session: unknown, connectionId: string) => {
    calls.order.push(`attach ${connectionId}`);
    return calls.attached;
  },
}));
vi.mock('#lib/accounts/users', () => ({
  getUser: async () => ({
    id: 3,
    companyId: 7,
    profile: 'user',
    super: false,
    queueIds: [],
    allTicket: 'desabled',
    showNoQueue: false,
  }),
}));
vi.mock('#lib/realtime', () => ({
  saveConnection: async (conn: { connectionId: string; sessionId: string }) => {
    calls.order.push(`save ${conn.connectionId} ${conn.sessionId}`);
  },
  removeConnection: async (connectionId: string) => {
    calls.order.push(`remove ${connectionId}`);
  },
  onConnectionChange: () => undefined,
}));
vi.mock('#lib/log', () => ({ log: { info: () => undefined, warn: () => undefined, error: () => undefined } }));

const { handler } = await import('./connect');

const connect = () =>
  handler({
    requestContext: { connectionId: 'conn-1' },
    queryStringParameters: { ticket: 'ticket' },
  } as unknown as Parameters<typeof handler>[0]);

describe('$connect and the end of its session', () => {
  beforeEach(() => {
    calls.order = [];
    calls.attached = 'attached';
  });

  it('a socket is listed on its session only after its records are saved (an ending session then finds and removes them)', async () => {
    expect(await connect()).toEqual({ statusCode: 200 });
    expect(calls.order).toEqual(['save conn-1 sid-1', 'attach conn-1']);
  });

  it('a session that ended while the socket connected: the socket is refused and the records it saved are removed', async () => {
    calls.attached = 'ended';
    expect(await connect()).toEqual({ statusCode: 401 });
    expect(calls.order).toEqual(['save conn-1 sid-1', 'attach conn-1', 'remove conn-1']);
  });

  it('a session that already holds its most sockets: the socket is refused with 429 and its records removed', async () => {
    calls.attached = 'full';
    expect(await connect()).toEqual({ statusCode: 429 });
    expect(calls.order).toEqual(['save conn-1 sid-1', 'attach conn-1', 'remove conn-1']);
  });
});
