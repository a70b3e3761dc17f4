import { describe, expect, test } from 'vitest';
import { backoffMs, RealtimeClient, type SocketLike } from './client';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: any[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
    this.onclose?.({});
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
}

function harness() {
  const sockets: FakeSocket[] = [];
  const timers: { fn: () => void; ms: number }[] = [];
  const repeats: { fn: () => void; ms: number }[] = [];
  let tickets = 0;
  let resyncs = 0;
  const clock = { now: 0 };
  const client = new RealtimeClient({
    companyId: 7,
    connectUrl: async () => `ws://x/ws?ticket=t${++tickets}`,
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    onResync: () => resyncs++,
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    clearTimer: () => {},
    setRepeat: (fn, ms) => repeats.push({ fn, ms }),
    clearRepeat: () => {},
    random: () => 0,
    now: () => clock.now,
  });
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return { client, sockets, timers, repeats, flush, clock, resyncs: () => resyncs };
}

describe('realtime client (attendance.md 4.3)', () => {
  test('rooms joined before connecting are sent on open, with userStatus; events dispatch by company event name', async () => {
    const h = harness();
    h.client.join('joinTickets', 'open');
    h.client.start();
    await h.flush();
    h.sockets[0].open();
    expect(h.sockets[0].url).toBe('ws://x/ws?ticket=t1');
    expect(h.sockets[0].sent).toEqual([{ action: 'joinTickets', value: 'open' }, { action: 'userStatus' }]);
    const got: unknown[] = [];
    h.client.on('ticket', (d) => got.push(d));
    h.client.dispatch(JSON.stringify({ event: 'company-7-ticket', data: { action: 'update', ticketId: 1 } }));
    h.client.dispatch(JSON.stringify({ event: 'company-8-ticket', data: { action: 'update', ticketId: 2 } }));
    expect(got).toEqual([{ action: 'update', ticketId: 1 }]);
  });

  test('the first open asks for a refetch too: what the screen loaded before the socket was registered may have missed events', async () => {
    const h = harness();
    h.client.start();
    await h.flush();
    expect(h.resyncs()).toBe(0);
    h.sockets[0].open();
    expect(h.resyncs()).toBe(1);
  });

  test('userStatus is emitted every 300000 ms and a ping every 18 s', async () => {
    const h = harness();
    h.client.start();
    await h.flush();
    h.sockets[0].open();
    expect(h.repeats.map((r) => r.ms).sort((a, b) => a - b)).toEqual([18_000, 300_000]);
    h.repeats.find((r) => r.ms === 300_000)!.fn();
    expect(h.sockets[0].sent.at(-1)).toEqual({ action: 'userStatus' });
  });

  test('after a drop it reconnects with backoff and a fresh ticket, rejoins every room and asks for a refetch', async () => {
    const h = harness();
    h.client.start();
    await h.flush();
    h.sockets[0].open();
    const leaveChat = h.client.join('joinChatBox', 42);
    h.client.join('joinNotification');
    h.client.join('joinTickets', 'pending');
    leaveChat();
    expect(h.sockets[0].sent.slice(-3)).toEqual([
      { action: 'joinNotification' },
      { action: 'joinTickets', value: 'pending' },
      { action: 'leaveChatBox', value: 42 },
    ]);
    h.sockets[0].close();
    expect(h.timers).toHaveLength(1);
    expect(h.timers[0].ms).toBe(1000);
    h.timers[0].fn();
    await h.flush();
    h.sockets[1].open();
    expect(h.sockets[1].url).toBe('ws://x/ws?ticket=t2');
    expect(h.sockets[1].sent).toEqual([
      { action: 'joinNotification' },
      { action: 'joinTickets', value: 'pending' },
      { action: 'userStatus' },
    ]);
    expect(h.resyncs()).toBe(2);
  });

  test('a room shared by two screens is left only when both leave', async () => {
    const h = harness();
    h.client.start();
    await h.flush();
    h.sockets[0].open();
    const a = h.client.join('joinChatBox', 5);
    const b = h.client.join('joinChatBox', 5);
    a();
    expect(h.sockets[0].sent.filter((m) => m.action === 'leaveChatBox')).toHaveLength(0);
    b();
    expect(h.sockets[0].sent.at(-1)).toEqual({ action: 'leaveChatBox', value: 5 });
  });

  test('stop() closes without reconnecting', async () => {
    const h = harness();
    h.client.start();
    await h.flush();
    h.sockets[0].open();
    h.client.stop();
    expect(h.timers).toHaveLength(0);
  });

  test('backoff doubles from 1 s and caps at 30 s', () => {
    expect([0, 1, 2, 3, 10].map((n) => backoffMs(n, () => 0))).toEqual([1000, 2000, 4000, 8000, 30000]);
    expect(backoffMs(0, () => 1)).toBe(1300);
  });

  test('typing is signalled at most once per ticket every 3 s however fast one types (issue 24)', async () => {
    const h = harness();
    h.client.start();
    await h.flush();
    h.sockets[0].open();
    h.sockets[0].sent = [];
    for (let ms = 0; ms < 7000; ms += 100) {
      h.clock.now = ms;
      h.client.typing(5);
    }
    h.client.typing(6);
    expect(h.sockets[0].sent).toEqual([
      { action: 'typing', value: 5 },
      { action: 'typing', value: 5 },
      { action: 'typing', value: 5 },
      { action: 'typing', value: 6 },
    ]);
  });

  test('idleness is sent on change only, and told again to a new socket (issue 24)', async () => {
    const h = harness();
    h.client.start();
    await h.flush();
    h.sockets[0].open();
    h.sockets[0].sent = [];
    h.client.setIdle(true);
    h.client.setIdle(true);
    expect(h.sockets[0].sent).toEqual([{ action: 'idle' }]);
    h.sockets[0].close();
    h.timers.at(-1)!.fn();
    await h.flush();
    h.sockets[1].open();
    expect(h.sockets[1].sent).toContainEqual({ action: 'idle' });
    h.client.setIdle(false);
    expect(h.sockets[1].sent.at(-1)).toEqual({ action: 'active' });
  });
});
