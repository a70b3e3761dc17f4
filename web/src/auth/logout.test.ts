import { describe, expect, test } from 'vitest';
import { endSession, type LogoutSteps } from './logout';

/** A logout's steps, recording what happened in order. */
function steps(opts: { push?: 'subscribed' | 'none' | 'unsupported'; serverFails?: boolean } = {}) {
  const done: string[] = [];
  const bodies: unknown[] = [];
  const s: LogoutSteps = {
    devicePush: async () => {
      if (opts.push === 'unsupported') throw new Error('no service worker');
      if (opts.push === 'none') return null;
      return {
        endpoint: 'https://push.example/device-1',
        unsubscribe: async () => {
          done.push('browser drops the subscription');
          return true;
        },
      };
    },
    endOnServer: async (body) => {
      bodies.push(body);
      done.push('server logout');
      if (opts.serverFails) throw new Error('offline');
    },
    clearLocal: () => done.push('local session cleared'),
  };
  return { s, done, bodies };
}

describe('logout ends this device push subscription with the session', () => {
  test('the server is told the endpoint, then the browser drops the subscription, then the session ends here', async () => {
    const { s, done, bodies } = steps();
    await endSession(s);
    expect(bodies).toEqual([{ pushEndpoint: 'https://push.example/device-1' }]);
    expect(done).toEqual(['server logout', 'browser drops the subscription', 'local session cleared']);
  });

  test('a server out of reach still drops the subscription and ends the session here; the error reaches the caller', async () => {
    const { s, done } = steps({ serverFails: true });
    await expect(endSession(s)).rejects.toThrow('offline');
    expect(done).toEqual(['server logout', 'browser drops the subscription', 'local session cleared']);
  });

  test('without a subscription, or without push support, the logout carries no endpoint', async () => {
    for (const push of ['none', 'unsupported'] as const) {
      const { s, done, bodies } = steps({ push });
      await endSession(s);
      expect(bodies).toEqual([undefined]);
      expect(done).toEqual(['server logout', 'local session cleared']);
    }
  });
});
