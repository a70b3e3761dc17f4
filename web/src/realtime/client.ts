import type { ClientAction, EventName } from '#shared/events';
import { SOCKET_PING_MS, USER_STATUS_INTERVAL_MS } from '#shared/constants';
import { TYPING_SIGNAL_MS } from '#shared/presence';

/** The subset of the browser WebSocket the client uses (a fake one stands in for tests). */
export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

export interface RealtimeOptions {
  companyId: number;
  /** the socket URL with a fresh ticket (`POST /auth/ws-ticket`); rejects when the session is gone */
  connectUrl: () => Promise<string>;
  createSocket: (url: string) => SocketLike;
  /**
   * After every open: refetch what the screen shows. Events published before the socket was
   * registered never reach it: those of a drop, and those between the screen's first load and the
   * first open (a post to a socket whose `$connect` still runs is refused, 410).
   */
  onResync?: () => void;
  onStatus?: (connected: boolean) => void;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (id: unknown) => void;
  setRepeat?: (fn: () => void, ms: number) => unknown;
  clearRepeat?: (id: unknown) => void;
  random?: () => number;
  now?: () => number;
}

type RoomAction = 'joinChatBox' | 'joinTickets' | 'joinNotification';
const LEAVE: Record<RoomAction, ClientAction> = {
  joinChatBox: 'leaveChatBox',
  joinTickets: 'leaveTickets',
  joinNotification: 'leaveNotification',
};
const OPEN = 1;

/** Backoff before reconnect attempt n (0-based): 1 s doubling to 30 s, with up to 30 % jitter. */
export function backoffMs(attempt: number, random = Math.random) {
  const base = Math.min(30_000, 1000 * 2 ** attempt);
  return Math.round(base * (1 + 0.3 * random()));
}

/**
 * One WebSocket per company and user (attendance.md 4.3). Rooms are remembered and rejoined after
 * every reconnect; `userStatus` goes out every 300000 ms and a ping every 18 s keeps the link alive
 * (a ping from a socket the server no longer knows makes it close the socket, and this reconnects).
 */
export class RealtimeClient {
  private socket: SocketLike | null = null;
  private rooms = new Map<string, { action: RoomAction; value?: string | number; count: number }>();
  private handlers = new Map<string, Set<(data: unknown) => void>>();
  private attempt = 0;
  private stopped = false;
  private retryTimer: unknown;
  private pingTimer: unknown;
  private statusTimer: unknown;
  /** this tab's idleness (issue 24), told again to every new socket */
  private idle = false;
  private typedAt = new Map<number, number>();
  connected = false;

  constructor(private readonly opts: RealtimeOptions) {}

  private get t() {
    return {
      setTimer: this.opts.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms)),
      clearTimer: this.opts.clearTimer ?? ((id: unknown) => clearTimeout(id as number)),
      setRepeat: this.opts.setRepeat ?? ((fn: () => void, ms: number) => setInterval(fn, ms)),
      clearRepeat: this.opts.clearRepeat ?? ((id: unknown) => clearInterval(id as number)),
    };
  }

  start() {
    this.stopped = false;
    void this.connect();
  }

  stop() {
    this.stopped = true;
    this.t.clearTimer(this.retryTimer);
    this.stopTimers();
    const s = this.socket;
    this.socket = null;
    if (s) {
      s.onclose = null;
      s.close();
    }
    this.setConnected(false);
  }

  /** Subscribe to one event name of this company (`company-<id>-<name>`). */
  on<T = unknown>(name: EventName, handler: (data: T) => void): () => void {
    const key = `company-${this.opts.companyId}-${name}`;
    const set = this.handlers.get(key) ?? new Set();
    // Frames are unchecked JSON: `T` is the subscriber's own declaration of the event's shape.
    const listener = handler as (data: unknown) => void;
    set.add(listener);
    this.handlers.set(key, set);
    return () => void set.delete(listener);
  }

  /** Join a room; joins are counted so two screens may share one room. Returns the leave function. */
  join(action: RoomAction, value?: string | number): () => void {
    const key = `${action}:${value ?? ''}`;
    const room = this.rooms.get(key);
    if (room) room.count += 1;
    else {
      this.rooms.set(key, { action, value, count: 1 });
      this.send(action, value);
    }
    return () => {
      const r = this.rooms.get(key);
      if (!r) return;
      r.count -= 1;
      if (r.count > 0) return;
      this.rooms.delete(key);
      this.send(LEAVE[action], value);
    };
  }

  send(action: ClientAction, value?: string | number) {
    if (this.socket?.readyState !== OPEN) return false;
    this.socket.send(JSON.stringify(value === undefined ? { action } : { action, value }));
    return true;
  }

  /** This tab went idle or has input again: the server counts the user away when every tab is idle. */
  setIdle(idle: boolean) {
    if (this.idle === idle) return;
    this.idle = idle;
    this.send(idle ? 'idle' : 'active');
  }

  /** A keystroke in a ticket's composer: at most one `typing` signal per ticket every TYPING_SIGNAL_MS. */
  typing(ticketId: number) {
    const now = (this.opts.now ?? Date.now)();
    if (now - (this.typedAt.get(ticketId) ?? Number.NEGATIVE_INFINITY) < TYPING_SIGNAL_MS) return;
    if (this.send('typing', ticketId)) this.typedAt.set(ticketId, now);
  }

  /** Dispatch one raw frame to the handlers of its event. */
  dispatch(raw: unknown) {
    let msg: { event?: string; data?: unknown };
    try {
      msg = typeof raw === 'string' ? JSON.parse(raw) : (raw as typeof msg);
    } catch {
      return;
    }
    if (!msg?.event) return;
    for (const h of this.handlers.get(msg.event) ?? []) h(msg.data);
  }

  private async connect() {
    if (this.stopped) return;
    let url: string;
    try {
      url = await this.opts.connectUrl();
    } catch (err) {
      // No session any more: the API client has logged out; nothing to reconnect to.
      if ((err as { status?: number }).status === 401) return this.stop();
      return this.scheduleReconnect();
    }
    if (this.stopped) return;
    const socket = this.opts.createSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.setConnected(true);
      for (const room of this.rooms.values()) this.send(room.action, room.value);
      // a new socket starts active: an idle tab says so again
      if (this.idle) this.send('idle');
      this.send('userStatus');
      this.startTimers();
      this.opts.onResync?.();
    };
    socket.onmessage = (ev) => this.dispatch(ev.data);
    socket.onerror = () => socket.close();
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.stopTimers();
      this.setConnected(false);
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect() {
    if (this.stopped) return;
    const delay = backoffMs(this.attempt++, this.opts.random);
    this.retryTimer = this.t.setTimer(() => void this.connect(), delay);
  }

  private startTimers() {
    this.stopTimers();
    this.pingTimer = this.t.setRepeat(() => this.send('ping'), SOCKET_PING_MS);
    this.statusTimer = this.t.setRepeat(() => this.send('userStatus'), USER_STATUS_INTERVAL_MS);
  }

  private stopTimers() {
    this.t.clearRepeat(this.pingTimer);
    this.t.clearRepeat(this.statusTimer);
  }

  private setConnected(value: boolean) {
    if (this.connected === value) return;
    this.connected = value;
    this.opts.onStatus?.(value);
  }
}
