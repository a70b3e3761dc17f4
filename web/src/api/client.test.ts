import { beforeEach, describe, expect, test } from 'vitest';
import { installMemoryStorage } from '../test/memory-storage';
import { ApiClient, buildQuery } from './client';
import { ApiError } from './errors';
import { sessionStore } from '../auth/storage';

installMemoryStorage();

type Call = { url: string; auth?: string; method: string };

/** A fake server: the access token "good" works, "old" is expired; refresh returns "good". */
function fakeServer(opts: { refreshOk?: boolean; alwaysExpired?: boolean } = {}) {
  const calls: Call[] = [];
  let refreshes = 0;
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const fetchImpl = (async (url: string, init: RequestInit) => {
    const auth = (init.headers as Record<string, string>).Authorization;
    calls.push({ url, auth, method: init.method! });
    if (url.endsWith('/auth/refresh_token')) {
      refreshes += 1;
      await new Promise((r) => setTimeout(r, 10));
      return opts.refreshOk === false
        ? json(401, { error: 'ERR_SESSION_EXPIRED' })
        : json(200, { token: 'good', user: { id: 1, companyId: 1 } });
    }
    if (url.endsWith('/gone')) return json(401, { error: 'ERR_SESSION_EXPIRED' });
    if (auth === 'Bearer good' && !opts.alwaysExpired) return json(200, { ok: url });
    return json(403, { error: 'ERR_SESSION_EXPIRED' });
  }) as unknown as typeof fetch;
  return { fetchImpl, calls, refreshes: () => refreshes };
}

describe('API client session handling (attendance.md 4.1)', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStore.save({ token: 'old', companyId: 1, userId: 1, dueDate: '01/01/2030' });
  });

  test('a 403 ERR_SESSION_EXPIRED refreshes once and the queued calls are retried with the new token', async () => {
    const server = fakeServer();
    const client = new ApiClient(server.fetchImpl, () => '/api');
    const results = await Promise.all([client.get('/a'), client.get('/b'), client.get('/c')]);
    expect(results).toEqual([{ ok: '/api/a' }, { ok: '/api/b' }, { ok: '/api/c' }]);
    expect(server.refreshes()).toBe(1);
    expect(sessionStore.token()).toBe('good');
    expect(server.calls.filter((c) => c.auth === 'Bearer good')).toHaveLength(3);
  });

  test('a failed refresh logs the user out and clears token and company id', async () => {
    const server = fakeServer({ refreshOk: false });
    const client = new ApiClient(server.fetchImpl, () => '/api');
    let loggedOut = 0;
    client.onLogout = () => loggedOut++;
    await expect(client.get('/a')).rejects.toBeInstanceOf(ApiError);
    expect(loggedOut).toBe(1);
    expect(sessionStore.token()).toBeNull();
    expect(sessionStore.companyId()).toBeNull();
  });

  test('a 403 after the retry logs out (no refresh loop)', async () => {
    const server = fakeServer({ alwaysExpired: true });
    const client = new ApiClient(server.fetchImpl, () => '/api');
    let loggedOut = 0;
    client.onLogout = () => loggedOut++;
    await expect(client.get('/a')).rejects.toMatchObject({ status: 403 });
    expect(server.refreshes()).toBe(1);
    expect(loggedOut).toBe(1);
  });

  test('a 401 logs out without trying a refresh', async () => {
    const server = fakeServer();
    const client = new ApiClient(server.fetchImpl, () => '/api');
    let loggedOut = 0;
    client.onLogout = () => loggedOut++;
    await expect(client.get('/gone')).rejects.toMatchObject({ status: 401, code: 'ERR_SESSION_EXPIRED' });
    expect(server.refreshes()).toBe(0);
    expect(loggedOut).toBe(1);
  });

  test('public calls (login) never refresh nor log out on 401', async () => {
    const server = fakeServer();
    const client = new ApiClient(server.fetchImpl, () => '/api');
    let loggedOut = 0;
    client.onLogout = () => loggedOut++;
    await expect(client.request('POST', '/gone', { public: true })).rejects.toMatchObject({ status: 401 });
    expect(server.calls[0].auth).toBeUndefined();
    expect(loggedOut).toBe(0);
    expect(sessionStore.token()).toBe('old');
  });

  test('query strings skip empty values and send arrays as JSON', () => {
    expect(buildQuery({ a: 1, b: '', c: undefined, d: null, queueIds: [1, 2], showAll: false })).toBe(
      '?a=1&queueIds=%5B1%2C2%5D&showAll=false',
    );
    expect(buildQuery({})).toBe('');
  });
});
