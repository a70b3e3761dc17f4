import { log } from '#lib/log';
import type { ConnectionStatus } from '#shared/constants';
import {
  ACK,
  ADDRESS_BOOK_PART,
  isCheckRestriction,
  type InboundEvent,
  type NumberCheckError,
  type SessionCommand,
} from '#shared/whatsapp-protocol';
import { AuthStore } from './auth-store';
import { ByteBudget } from './byte-budget';
import { CheckPacer } from './check-pacer';
import { decideClose } from './close-policy';
import { emit } from './emit';
import {
  DEFAULT_HEALTH,
  disconnectReason,
  type HealthSettings,
  metricsLine,
  SESSION_UNHEALTHY_MINUTES,
  SessionHealth,
  stoppedLine,
  withTimeout,
} from './health';
import { type Holder, markStopped, markWanted, readSession, unmarkWanted } from '#lib/fleet/ownership';
import { storeMedia } from '#lib/inbound-media';
import type { Provider, ProviderEvents, ProviderSession, SendCommand } from './provider';
import { type HeldMedia, holdMedia, MEDIA_BYTES_IN_FLIGHT } from './outbound-media';
import { claimSend, recordFailed, recordSent, sentContent } from './sent-store';
import { perGroupSequencer } from './sequencer';
import { runnerCounters } from './counters';

/** QR codes shown before a session gives up waiting for a scan (TIMEOUT). */
export const MAX_QR_CODES = 5;
/** How long a send waits for a session that is not connected before it fails. */
const SEND_WAIT_MS = 15_000;
/**
 * A session still opening (taken over from a crashed runner, handed over, many handshakes at once
 * after a start) is given this long before a send to it fails; the command loop keeps the command
 * in flight meanwhile.
 */
const OPENING_WAIT_MS = 60_000;
/**
 * How long a session leaving this runner waits for its auth writes to be stored, on top of its
 * drain: past it the session is not moved (a DynamoDB outage; its writes go on being tried here).
 */
export const AUTH_FLUSH_MS = 5_000;
/** A handshake holds one of the runner's handshake slots at most this long. */
const HANDSHAKE_SLOT_MS = 30_000;

/** For promises nobody awaits: a failed SQS or DynamoDB call is logged, never an unhandled rejection. */
const logFailure = (what: string, ids: Record<string, unknown>) => (err: unknown) =>
  log.error(what, { ...ids, error: (err as Error)?.message });

/**
 * `done`: handled; `moved`: the session is leaving this runner (handed over, or the runner drains)
 * before the command could act on it, so it must be routed again.
 */
export type CommandOutcome = 'done' | 'moved';

/** Statuses in which a session is on its way to CONNECTED without anybody scanning a QR code. */
const isOpening = (status: ConnectionStatus) => status === 'OPENING';

/** Runner-wide counts since the last metrics line. */
interface Tally {
  reconnects: number;
  zombieRestarts: number;
  undecryptable: number;
}

/** What every session of a manager shares: health settings, clock, metric counts. */
interface HealthContext {
  settings: HealthSettings;
  now: () => number;
  tally: Tally;
  writeMetrics: (line: string) => void;
}

class ManagedSession {
  status: ConnectionStatus = 'DISCONNECTED';
  private socket?: ProviderSession;
  private closedSocket?: ProviderSession;
  private attempt = 0;
  /** 515 closes in a row (see close-policy.ts) */
  private restarts = 0;
  private replaced = 0;
  private versionRefusals = 0;
  private qrCodes = 0;
  private qrExhausted = false;
  private intentional = false;
  private reconnectTimer?: NodeJS.Timeout;
  /** woken on every change of status, and when the session starts leaving this runner */
  private waiters: (() => void)[] = [];
  /** provider events being handed to the queue right now */
  private inbound = new Set<Promise<unknown>>();
  /** set while the session is drained for a handover: commands must go to its next holder */
  leaving = false;
  /** waiting for a handshake slot: opening, though no socket exists yet */
  private queued = false;
  private probing = false;
  private healthTimer?: NodeJS.Timeout;
  private lastHealthReport = 0;
  readonly auth: AuthStore;
  readonly health: SessionHealth;

  constructor(
    readonly companyId: number,
    readonly whatsappId: number,
    private provider: Provider,
    private onGone: (s: ManagedSession) => void,
    private hc: HealthContext,
    /** whether this runner still holds the session (a 440 after a takeover is not ours to act on) */
    private owns: () => Promise<boolean>,
    /** this runner, as the fleet's ownership item names its holder */
    private runnerId?: string,
  ) {
    this.auth = new AuthStore(companyId, whatsappId);
    this.auth.onLost = () => {
      log.warn('session taken by another runner: closing it here', { companyId, whatsappId, runnerId });
      void this.close()
        .catch(this.logFailure('closing a session failed'))
        .finally(() => this.onGone(this));
    };
    this.health = new SessionHealth(hc.now);
  }

  private bound = false;
  /** the one binding read, shared by connects that overlap */
  private binding?: Promise<boolean>;

  /**
   * Before the first socket: the auth store writes only while this runner holds the session with
   * the epoch it holds it with now (the fleet's ownership item). False when another runner holds
   * it: the session is not opened here. A session nobody holds (no fleet) writes unguarded.
   */
  private async bindHolder(): Promise<boolean> {
    if (this.bound || !this.runnerId) return true;
    const held = await readSession(this.companyId, this.whatsappId);
    if (held?.owner === undefined) {
      this.bound = true;
      return true;
    }
    if (held.owner !== this.runnerId) {
      log.info('session held by another runner: not opened here', {
        companyId: this.companyId,
        whatsappId: this.whatsappId,
        holder: held.owner,
      });
      this.auth.close();
      this.onGone(this);
      return false;
    }
    this.auth.guard({ runnerId: this.runnerId, epoch: held.epoch ?? 0 });
    this.bound = true;
    return true;
  }

  /** Connected, but the last probe went unanswered. */
  get silent() {
    return this.status === 'CONNECTED' && this.health.failedProbes > 0;
  }

  private last: { qrcode?: string; retries?: number; number?: string } = {};

  /**
   * The session's status and health reports, one after the other. The queue keeps a group's
   * messages in the order it receives them, and two sends in flight at once may arrive either way
   * round (or one be retried after the other is taken): an OPENING that overtook by its CONNECTED
   * would show the session opening for good.
   */
  private reports = perGroupSequencer();

  private inOrder(event: InboundEvent): Promise<void> {
    return this.reports('reports', () => emit(event));
  }

  private async report(status: ConnectionStatus, extra: { qrcode?: string; retries?: number; number?: string } = {}) {
    this.status = status;
    this.last = extra;
    this.wake();
    await this.inOrder({ type: 'session', companyId: this.companyId, whatsappId: this.whatsappId, status, ...extra });
    await this.reportHealth();
  }

  /** Health goes with every change of state; traffic and probes at most every `reportEveryMs`. */
  private async reportHealth() {
    clearTimeout(this.healthTimer);
    this.healthTimer = undefined;
    this.lastHealthReport = this.hc.now();
    await this.inOrder({
      type: 'health',
      companyId: this.companyId,
      whatsappId: this.whatsappId,
      health: this.health.snapshot(),
    });
  }

  private healthChanged() {
    if (this.healthTimer) return;
    const wait = Math.max(0, this.lastHealthReport + this.hc.settings.reportEveryMs - this.hc.now());
    this.healthTimer = setTimeout(
      () => void this.reportHealth().catch(this.logFailure('reporting the session health failed')),
      wait,
    );
  }

  /** Traffic the health monitor shows: a message in or out, an ack. */
  traffic(kind: 'inbound' | 'outbound' | 'ack') {
    this.health[kind]();
    this.healthChanged();
  }

  /**
   * One round-trip probe of a connected socket; returns its time in ms when answered. After
   * `silentProbes` unanswered probes in a row the socket is "connected but silent" (a half-open
   * connection that delivers nothing) and is replaced by a new one.
   */
  async probe(): Promise<number | undefined> {
    const socket = this.socket;
    if (this.status !== 'CONNECTED' || !socket || this.probing) return undefined;
    this.probing = true;
    const started = this.hc.now();
    try {
      await withTimeout(socket.probe(), this.hc.settings.probeTimeoutMs);
      const ms = this.hc.now() - started;
      this.health.probeAnswered(ms);
      this.healthChanged();
      return ms;
    } catch {
      if (this.socket !== socket || !this.health.probeFailed(this.hc.settings.silentProbes)) return undefined;
      await this.restartSilent(socket);
      return undefined;
    } finally {
      this.probing = false;
    }
  }

  private async restartSilent(socket: ProviderSession) {
    log.warn('session connected but silent: restarting the socket', {
      companyId: this.companyId,
      whatsappId: this.whatsappId,
    });
    this.health.restartedSilent();
    this.hc.tally.zombieRestarts++;
    this.hc.tally.reconnects++;
    this.socket = undefined;
    await socket.close().catch(() => undefined);
    await this.report('OPENING');
    await this.connect();
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Waits for the next change of status (or leaving), at most `ms`. */
  private changed(ms: number) {
    return new Promise<void>((done) => {
      const wake = () => {
        clearTimeout(timer);
        done();
      };
      // a wait that times out leaves the list: a session that never changes does not collect them
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== wake);
        done();
      }, ms);
      this.waiters.push(wake);
    });
  }

  /** Counts a provider event until it is on the queue: a drain waits for these before the socket closes. */
  private tracked<A extends unknown[], R>(handler: (...args: A) => Promise<R>) {
    return (...args: A): Promise<R> => {
      const work = handler(...args);
      this.inbound.add(work);
      void work.finally(() => this.inbound.delete(work)).catch(() => undefined);
      return work;
    };
  }

  /** Resolves when no provider event is being handed to the queue. */
  async settleInbound() {
    while (this.inbound.size) await Promise.allSettled([...this.inbound]);
  }

  /** The session leaves this runner: waiting commands give up and are routed again. */
  startLeaving() {
    this.leaving = true;
    this.wake();
  }

  /** A handover given up (its writes were not stored in time): the session is this runner's again. */
  stayHere() {
    this.leaving = false;
    this.wake();
  }

  /** Resolves once the handshake has an outcome (connected, a QR code, stopped) or after `ms`. */
  async handshake(ms: number) {
    const until = this.hc.now() + ms;
    while (isOpening(this.status) && !this.leaving && this.hc.now() < until) await this.changed(until - this.hc.now());
  }

  private logFailure(what: string) {
    return logFailure(what, { companyId: this.companyId, whatsappId: this.whatsappId });
  }

  private events(): ProviderEvents {
    const base = { companyId: this.companyId, whatsappId: this.whatsappId };
    return {
      status: (u) => {
        if (u.status === 'qrcode') {
          this.qrCodes++;
          if (this.qrCodes > MAX_QR_CODES) {
            // nobody scanned: our own close (providers report no close event for it) ends as TIMEOUT
            this.qrExhausted = true;
            const socket = this.socket;
            this.socket = undefined;
            void (socket ? socket.close() : Promise.resolve())
              .finally(() => this.onClosed(undefined))
              .catch(this.logFailure('closing after the last QR code failed'));
            return;
          }
          void this.report('qrcode', { qrcode: u.qrcode, retries: this.qrCodes }).catch(
            this.logFailure('reporting a QR code failed'),
          );
          return;
        }
        if (u.status === 'CONNECTED') {
          this.attempt = 0;
          this.replaced = 0;
          this.restarts = 0;
          this.versionRefusals = 0;
          this.qrCodes = 0;
        }
        void this.report(u.status, { number: u.number, retries: this.qrCodes }).catch(
          this.logFailure('reporting the session status failed'),
        );
      },
      message: this.tracked(async (m) => {
        this.traffic(m.fromMe ? 'outbound' : 'inbound');
        await emit({ type: 'message', ...base, message: await storeMedia(this.companyId, m) });
      }),
      ack: this.tracked(async (e) => {
        this.traffic('ack');
        await emit({ type: 'ack', ...base, ...e });
      }),
      edit: this.tracked(async (e) => emit({ type: 'edit', ...base, ...e })),
      revoke: this.tracked(async (e) => emit({ type: 'revoke', ...base, ...e })),
      reaction: this.tracked(async (e) => emit({ type: 'reaction', ...base, ...e })),
      call: this.tracked(async (e) => emit({ type: 'call', ...base, ...e })),
      lidMapping: this.tracked(async (e) => emit({ type: 'lidMapping', ...base, ...e })),
      restriction: async (e) => {
        log.warn('WhatsApp restricted the session', { ...base, ...e });
        await emit({ type: 'restriction', ...base, ...e });
      },
      undecryptable: this.tracked(async (e) => {
        // the connection's health shows the count; the runner's metric line carries the spike
        log.warn('a message could not be decrypted', { ...base, wid: e.wid, reason: e.reason });
        this.health.couldNotDecrypt();
        this.hc.tally.undecryptable++;
        runnerCounters.undecryptable++;
        this.healthChanged();
        // the ticket shows a placeholder until the real message (same wid) replaces it
        await emit({ type: 'undecryptable', ...base, ...e });
      }),
      closed: (code) => void this.onClosed(code).catch(this.logFailure('handling a closed socket failed')),
    };
  }

  private async onClosed(code: number | undefined) {
    this.socket = undefined;
    // Deliberate closes (disconnect, new QR, shutdown, handover) are handled by whoever closed.
    if (this.intentional) return;
    if (code === 440 && !(await this.owns().catch(() => true))) {
      // replaced by the runner that took the session over: it is theirs now, nothing to report or stop
      log.info('session replaced by its new holder', { companyId: this.companyId, whatsappId: this.whatsappId });
      this.intentional = true;
      this.onGone(this);
      return;
    }
    const decision = decideClose({
      code,
      attempt: this.attempt,
      replaced: this.replaced,
      restarts: this.restarts,
      versionRefusals: this.versionRefusals,
      qrExhausted: this.qrExhausted,
      intentional: this.intentional,
    });
    log.info('session closed', {
      companyId: this.companyId,
      whatsappId: this.whatsappId,
      code,
      decision: decision.action,
    });
    if (code === 440) this.replaced++;
    this.versionRefusals = code === 405 ? this.versionRefusals + 1 : 0;
    this.restarts = code === 515 ? this.restarts + 1 : 0;
    this.health.closed(code, { qrExhausted: this.qrExhausted, reconnecting: decision.action === 'reconnect' });
    if (decision.action === 'reconnect' && code !== 515) this.hc.tally.reconnects++;
    if (decision.action === 'reconnect') {
      if (decision.alert)
        log.error('session waiting to reconnect', {
          companyId: this.companyId,
          whatsappId: this.whatsappId,
          code,
          reason: decision.alert,
          retryInMs: decision.delayMs,
        });
      this.attempt++;
      await this.report('OPENING');
      this.reconnectTimer = setTimeout(
        () => void this.connect().catch(this.logFailure('reconnecting failed')),
        decision.delayMs,
      );
      return;
    }
    if (decision.action === 'stop' && decision.alert)
      log.error('session stopped', {
        companyId: this.companyId,
        whatsappId: this.whatsappId,
        code,
        reason: decision.alert,
      });
    // the session leaves this runner's map (and its health lines): the stop is counted on its own,
    // and noted for the fleet view
    if (!this.intentional && !this.qrExhausted) {
      const reason = disconnectReason(code);
      if (this.hc.settings.metrics) this.hc.writeMetrics(stoppedLine(reason, this.hc.now()));
      await markStopped({ companyId: this.companyId, whatsappId: this.whatsappId, reason, code }).catch(
        this.logFailure('noting a stopped session failed'),
      );
    }
    if (decision.action === 'logout') await this.auth.clear();
    // a stop holds: no runner may start the session again (a replaced session would ping-pong)
    await unmarkWanted(this.companyId, this.whatsappId);
    await this.report(decision.status);
    this.onGone(this);
  }

  /** The session will connect once a handshake slot is free: sends wait for it meanwhile. */
  queue() {
    this.queued = true;
    this.status = 'OPENING';
  }

  async connect() {
    clearTimeout(this.reconnectTimer);
    // already running (a retry pressed on a live session): tell the API where it stands
    if (this.socket) {
      this.queued = false;
      return this.report(this.status, this.last);
    }
    if (!this.bound) {
      // connects that overlap share one read; after it, one of them creates the socket and the
      // others find it (the check and the creation below never have an await between them). The
      // session stays queued meanwhile: a send waits for it instead of finding no socket.
      this.binding ??= this.bindHolder();
      const held = await this.binding;
      if (!held || this.socket) {
        this.queued = false;
        if (held) return this.report(this.status, this.last);
        return;
      }
    }
    this.queued = false;
    if (this.auth.isClosed) return;
    this.intentional = false;
    this.qrExhausted = false;
    const socket = this.provider.create({
      companyId: this.companyId,
      whatsappId: this.whatsappId,
      auth: this.auth,
      events: this.events(),
      getMessage: (wid) => sentContent(this.companyId, wid),
    });
    // set before connect(): the provider reports CONNECTED from inside it
    this.socket = socket;
    this.status = 'OPENING';
    try {
      await socket.connect();
    } catch (err) {
      // a socket that never opened must not stay in place (every later connect() would be a no-op)
      this.logFailure('connecting failed')(err);
      if (this.socket !== socket) return;
      this.socket = undefined;
      await socket.close().catch(() => undefined);
      await this.onClosed(undefined);
    }
  }

  /** Closes the socket without logging out (handover, drain, ownership lost). */
  async close() {
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.healthTimer);
    this.intentional = true;
    this.wake();
    const socket = this.socket;
    this.socket = undefined;
    await socket?.close();
    // events the provider still holds for that socket (its per-chat queue) and its address book
    this.closedSocket = socket;
  }

  /** Resolves once the provider has handed on everything the last closed socket received. */
  async settleProvider() {
    await this.closedSocket?.settle?.();
  }

  /** Logs the phone out and drops every stored key. */
  async logout() {
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.healthTimer);
    this.intentional = true;
    const socket = this.socket;
    this.socket = undefined;
    if (socket && this.status === 'CONNECTED') await socket.logout().catch(() => undefined);
    else await socket?.close();
    await this.auth.clear();
    await this.report('DISCONNECTED', { qrcode: '', retries: 0 });
  }

  /**
   * The connected socket, waiting up to `waitMs` for one, longer (up to `openingWaitMs`) while the
   * session is still opening; `moved` when the session leaves this runner meanwhile.
   */
  async connected(waitMs: number, openingWaitMs = waitMs): Promise<ProviderSession | undefined | 'moved'> {
    const started = this.hc.now();
    for (;;) {
      if (this.leaving) return 'moved';
      if (this.status === 'CONNECTED' && this.socket) return this.socket;
      if (this.intentional || (!this.socket && !this.reconnectTimer && !this.queued)) return undefined;
      const limit = isOpening(this.status) ? Math.max(waitMs, openingWaitMs) : waitMs;
      const left = started + limit - this.hc.now();
      if (left <= 0) return undefined;
      await this.changed(left);
    }
  }
}

/** Options of a manager; tests shorten the waits. */
export interface ManagerOptions {
  health?: Partial<HealthSettings>;
  now?: () => number;
  writeMetrics?: (line: string) => void;
  /** whether this runner still holds a session (the fleet asks the table); default: yes */
  owns?: (companyId: number, whatsappId: number) => Promise<boolean>;
  /** how long a send waits for a session still opening */
  openingWaitMs?: number;
  /** sessions opening at once */
  maxHandshakes?: number;
  /** the spacing of a session's batched number checks (check-pacer.ts) */
  checkIntervalMs?: number;
  /** outbound media bytes in flight at once on this runner (config.ts, MEDIA_BYTES_IN_FLIGHT) */
  mediaBytesInFlight?: number;
}

/**
 * The sessions this runner holds, and how commands act on them. Which runner holds which session
 * is the fleet's business (fleet.ts): a command reaches `handle` here only on the runner that holds
 * its session.
 */
export class SessionManager {
  private sessions = new Map<string, ManagedSession>();
  private healthTimer?: NodeJS.Timeout;
  private hc: HealthContext;
  private writeMetrics: (line: string) => void;
  private owns: (companyId: number, whatsappId: number) => Promise<boolean>;
  private openingWaitMs: number;
  /** outbound media bytes in flight on this runner (R6 of whatsapp-review-3) */
  private mediaBudget: ByteBudget;
  /** commands running per session: a handover waits for them */
  private busy = new Map<string, number>();
  private handshakes: ReturnType<typeof perGroupSequencer>;
  private draining = false;
  private checks: CheckPacer;
  /** since when each session held here has been down or silent, as the health ticks saw it */
  private unhealthySince = new Map<string, number>();

  constructor(
    private provider: Provider,
    readonly runnerId: string,
    private sendWaitMs = SEND_WAIT_MS,
    opts: ManagerOptions = {},
  ) {
    this.writeMetrics = opts.writeMetrics ?? ((line) => process.stdout.write(`${line}\n`));
    this.hc = {
      settings: { ...DEFAULT_HEALTH, ...opts.health },
      now: opts.now ?? Date.now,
      tally: { reconnects: 0, zombieRestarts: 0, undecryptable: 0 },
      writeMetrics: this.writeMetrics,
    };
    this.owns = opts.owns ?? (async () => true);
    this.openingWaitMs = opts.openingWaitMs ?? OPENING_WAIT_MS;
    this.handshakes = perGroupSequencer(opts.maxHandshakes ?? 8);
    this.checks = new CheckPacer(opts.checkIntervalMs);
    this.mediaBudget = new ByteBudget(opts.mediaBytesInFlight ?? MEDIA_BYTES_IN_FLIGHT);
  }

  private key = (companyId: number, whatsappId: number) => `${companyId}#${whatsappId}`;

  get(companyId: number, whatsappId: number) {
    return this.sessions.get(this.key(companyId, whatsappId));
  }

  /** The sessions held here. */
  held() {
    return [...this.sessions.values()];
  }

  get size() {
    return this.sessions.size;
  }

  private ensure(companyId: number, whatsappId: number) {
    const key = this.key(companyId, whatsappId);
    let s = this.sessions.get(key);
    if (!s) {
      s = new ManagedSession(
        companyId,
        whatsappId,
        this.provider,
        (gone) => {
          if (this.sessions.get(key) === gone) this.sessions.delete(key);
        },
        this.hc,
        () => this.owns(companyId, whatsappId),
        this.runnerId,
      );
      this.sessions.set(key, s);
    }
    return s;
  }

  /**
   * Opens a session this runner now holds, from its stored auth state (no QR code when it has
   * credentials). At most `maxHandshakes` open at once: after a crash the survivors take many
   * sessions together, and the sends waiting for them wait a little longer instead of failing.
   */
  open(companyId: number, whatsappId: number) {
    const existing = this.get(companyId, whatsappId);
    if (existing) return existing;
    const session = this.ensure(companyId, whatsappId);
    session.queue();
    void this.handshakes(`${companyId}#${whatsappId}`, async () => {
      if (this.get(companyId, whatsappId) !== session || session.leaving) return;
      await session.connect();
      await session.handshake(HANDSHAKE_SLOT_MS);
    }).catch(logFailure('opening a session failed', { companyId, whatsappId }));
    return session;
  }

  /** Runs `work` as a command of this session: a handover waits until it is done. */
  private async counted<T>(companyId: number, whatsappId: number, work: () => Promise<T>) {
    const key = this.key(companyId, whatsappId);
    this.busy.set(key, (this.busy.get(key) ?? 0) + 1);
    try {
      return await work();
    } finally {
      const left = (this.busy.get(key) ?? 1) - 1;
      if (left) this.busy.set(key, left);
      else this.busy.delete(key);
    }
  }

  /**
   * Drains one session before it leaves this runner (a handover, a shutdown): waiting commands give
   * up (they are routed again), running ones finish, the provider events it holds reach the queue,
   * then the socket closes and its pending auth writes land. At most `timeoutMs` of waiting for the
   * drain, then `flushMs` of its own for the writes (R2 of whatsapp-review-3: a slow send must not
   * eat the writes' time). True when every write is stored: the session may move. False when some
   * are not: the session must stay this runner's, or the next holder would read older keys than the
   * ones this socket used; outside a shutdown it opens here again with the same store, whose writes
   * go on being tried.
   */
  async release(companyId: number, whatsappId: number, timeoutMs: number, flushMs = AUTH_FLUSH_MS) {
    const session = this.get(companyId, whatsappId);
    if (!session) return true;
    session.startLeaving();
    const key = this.key(companyId, whatsappId);
    const until = this.hc.now() + timeoutMs;
    // never waits past the deadline (a command or an emit stuck on an outage)
    const withinDeadline = (work: Promise<unknown>) =>
      Promise.race([work, new Promise((r) => setTimeout(r, Math.max(0, until - this.hc.now())))]);
    while (this.busy.get(key) && this.hc.now() < until) await new Promise((r) => setTimeout(r, 20));
    await withinDeadline(session.settleInbound());
    await session.close().catch(logFailure('closing a session failed', { companyId, whatsappId }));
    // events that arrived while it closed, then every auth write: the next holder reads them from the table
    await withinDeadline(session.settleProvider());
    await withinDeadline(session.settleInbound());
    const stored = await Promise.race([
      session.auth.flush().then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), flushMs)),
    ]);
    if (!stored) {
      log.warn('auth writes not stored in time: the session stays on this runner', {
        companyId,
        whatsappId,
        runnerId: this.runnerId,
      });
      if (!this.draining && this.sessions.get(key) === session) {
        session.stayHere();
        void session.connect().catch(logFailure('opening a session failed', { companyId, whatsappId }));
      }
      return false;
    }
    // stored: nothing more is written from here, over the next holder's
    session.auth.close();
    if (this.sessions.get(key) === session) this.sessions.delete(key);
    return true;
  }

  /** This runner no longer holds the session (taken over, no longer wanted): closes it at once, reporting nothing. */
  async drop(companyId: number, whatsappId: number) {
    const session = this.get(companyId, whatsappId);
    if (!session) return;
    this.sessions.delete(this.key(companyId, whatsappId));
    session.startLeaving();
    // held elsewhere now: its pending auth writes are dropped, never landed over the holder's
    session.auth.close();
    await session.close().catch(logFailure('closing a session failed', { companyId, whatsappId }));
  }

  /**
   * Shutdown has begun: no session opens here any more. The sessions held here go on serving their
   * commands until their own handover starts (`release`), which hands the waiting ones back (R9 of
   * whatsapp-review-3: marking them all as leaving at once bounced a peer's commands through the
   * queue for as long as the drain took, into the dead-letter queue at the end of a long one).
   */
  beginDrain() {
    this.draining = true;
  }

  /**
   * Runs a command on a session this runner holds. `unheld`: nobody should run the session (it is
   * not wanted): commands that need a socket find none.
   */
  handle(command: SessionCommand, opts: { unheld?: boolean } = {}): Promise<CommandOutcome> {
    return this.counted(command.companyId, command.whatsappId, () => this.run(command, opts.unheld ?? false));
  }

  private async run(command: SessionCommand, unheld: boolean): Promise<CommandOutcome> {
    const { companyId, whatsappId } = command;
    const base = { companyId, whatsappId };
    const socketFor = (waitMs?: number) => this.socketFor(companyId, whatsappId, unheld, waitMs);
    switch (command.type) {
      case 'start': {
        await markWanted(companyId, whatsappId);
        const current = this.get(companyId, whatsappId);
        // already running (a retry pressed on a live session): it tells the API where it stands
        if (current) await current.connect();
        else this.open(companyId, whatsappId);
        return 'done';
      }
      case 'newQr': {
        const current = this.get(companyId, whatsappId);
        this.sessions.delete(this.key(companyId, whatsappId));
        // the old identity's writes stop before its keys are cleared, so none lands after the clear
        current?.auth.close();
        if (current) await current.close();
        // the clear is a write of the holder like any other: refused if the session changed hands meanwhile
        const cleared = new AuthStore(companyId, whatsappId);
        const holder = current?.auth.heldAs ?? (await this.holderHere(companyId, whatsappId));
        if (holder) cleared.guard(holder);
        await cleared.clear();
        await markWanted(companyId, whatsappId);
        this.open(companyId, whatsappId);
        return 'done';
      }
      case 'disconnect': {
        const session = this.ensure(companyId, whatsappId);
        await unmarkWanted(companyId, whatsappId);
        await session.logout();
        this.sessions.delete(this.key(companyId, whatsappId));
        return 'done';
      }
      case 'stop': {
        await unmarkWanted(companyId, whatsappId);
        const current = this.get(companyId, whatsappId);
        this.sessions.delete(this.key(companyId, whatsappId));
        if (current) await current.close();
        return 'done';
      }
      case 'send': {
        const socket = await socketFor();
        if (socket === 'moved') return 'moved';
        if (await this.send(socket, command)) this.get(companyId, whatsappId)?.traffic('outbound');
        return 'done';
      }
      case 'delete': {
        const socket = await socketFor();
        if (socket === 'moved') return 'moved';
        await socket
          ?.deleteMessage({ wid: command.wid, to: command.to, fromMe: command.fromMe })
          .catch((err) => log.warn('delete failed', { companyId, whatsappId, error: (err as Error).message }));
        return 'done';
      }
      case 'react': {
        const socket = await socketFor();
        if (socket === 'moved') return 'moved';
        const { wid, to, fromMe, participant, emoji } = command;
        await socket
          ?.react({ wid, to, fromMe, ...(participant ? { participant } : {}), emoji })
          .catch((err) => log.warn('reaction failed', { companyId, whatsappId, error: (err as Error).message }));
        return 'done';
      }
      case 'checkNumber': {
        const socket = await socketFor(5_000);
        if (socket === 'moved') return 'moved';
        const reply = { type: 'checkNumberResult' as const, ...base, number: command.number, replyTo: command.replyTo };
        if (!socket) {
          await emit({ ...reply, exists: false, error: 'ERR_WAPP_NOT_INITIALIZED' });
          return 'done';
        }
        try {
          const [found] = await socket.checkNumbers([command.number]);
          await emit({ ...reply, exists: found?.exists ?? false, jid: found?.jid });
        } catch (err) {
          await emit({
            ...reply,
            exists: false,
            error: isCheckRestriction(err) ? 'ERR_NUMBER_CHECK_RESTRICTED' : 'ERR_WAPP_CHECK_CONTACT',
          });
        }
        return 'done';
      }
      case 'checkNumbers': {
        const socket = await socketFor(5_000);
        if (socket === 'moved') return 'moved';
        const unanswered = (error: NumberCheckError) =>
          emit({
            type: 'checkNumberResults',
            ...base,
            results: command.checks.map((c) => ({ ...c, exists: false })),
            error,
          });
        if (!socket) {
          await unanswered('ERR_WAPP_NOT_INITIALIZED');
          return 'done';
        }
        await this.checks.wait(this.key(companyId, whatsappId));
        let refusal: unknown;
        const answers = await socket.checkNumbers(command.checks.map((c) => c.number)).catch((err) => {
          refusal = err;
          return undefined;
        });
        if (!answers)
          await unanswered(isCheckRestriction(refusal) ? 'ERR_NUMBER_CHECK_RESTRICTED' : 'ERR_WAPP_CHECK_CONTACT');
        else
          await emit({
            type: 'checkNumberResults',
            ...base,
            results: command.checks.map((c, i) => ({
              ...c,
              exists: answers[i]?.exists ?? false,
              jid: answers[i]?.jid,
            })),
          });
        return 'done';
      }
      case 'importContacts': {
        const socket = await socketFor(5_000);
        if (socket === 'moved') return 'moved';
        const contacts = socket ? await socket.addressBook() : [];
        const parts = Math.max(1, Math.ceil(contacts.length / ADDRESS_BOOK_PART));
        for (let part = 1; part <= parts; part++)
          await emit({
            type: 'addressBook',
            ...base,
            requestId: command.requestId,
            part,
            parts,
            contacts: contacts.slice((part - 1) * ADDRESS_BOOK_PART, part * ADDRESS_BOOK_PART),
          });
        return 'done';
      }
      case 'rejectCall': {
        const socket = await socketFor(0);
        if (socket === 'moved') return 'moved';
        await socket?.rejectCall(command.callId, command.from).catch(() => undefined);
        return 'done';
      }
      case 'repairSession': {
        // a repair of a session that is not up now has nothing to act on: the next send re-syncs anyway
        const socket = await socketFor(0);
        if (socket === 'moved') return 'moved';
        await socket
          ?.repair(command.to)
          .catch((err) => log.warn('session repair failed', { companyId, whatsappId, error: (err as Error).message }));
        return 'done';
      }
    }
  }

  /**
   * This runner as the holder of a session by the table (with the epoch it holds it with), for the
   * writes of a session not open here; undefined when nobody holds it (no fleet). A session another
   * runner holds answers this runner all the same: the holder check then refuses its writes.
   */
  private async holderHere(companyId: number, whatsappId: number): Promise<Holder | undefined> {
    const held = await readSession(companyId, whatsappId);
    return held?.owner === undefined ? undefined : { runnerId: this.runnerId, epoch: held.epoch ?? 0 };
  }

  /**
   * Sends once per WhatsApp id: the send is claimed in the table first, so a redelivered command
   * only reports what the earlier attempt did. An attempt that ended without a record (the runner
   * died during the send) is reported as sent with its id: the send most likely went out, WhatsApp
   * drops a second message with the same id, and a message that never arrives gets no delivery
   * ack, which the undelivered watchdog flags for a one-click resend; reporting an error would
   * invite a resend of a message the customer probably has. True when the message went out now.
   */
  private async send(socket: ProviderSession | undefined, command: SendCommand) {
    const { companyId, whatsappId, messageId, wid } = command;
    const result = {
      type: 'sendResult' as const,
      companyId,
      whatsappId,
      messageId,
      ticketId: command.ticketId,
      chatJid: command.to,
    };
    const failed = async (err: unknown) => {
      log.warn('send failed', { companyId, whatsappId, messageId, wid, error: (err as Error).message });
      await emit({ ...result, ack: ACK.pending, error: 'ERR_SENDING_WAPP_MSG' });
    };
    if (!socket) {
      // a connection with a Cloud API transport: the send's failover check moves it there (messages/failover.ts)
      if (command.fallback)
        return log.warn('send left to the Cloud API transport', { companyId, whatsappId, messageId });
      return failed(new Error('session not connected'));
    }
    let media: HeldMedia | undefined;
    try {
      media = command.media ? await holdMedia(command.media.key, this.mediaBudget) : undefined;
    } catch (err) {
      return failed(err);
    }
    try {
      const claim = await claimSend(companyId, wid);
      if (!claim.claimed) {
        log.warn('send command redelivered', { companyId, whatsappId, messageId, wid, earlier: claim.earlier });
        // the connection's Cloud API transport took the send: it reports the outcome
        if (claim.earlier === 'elsewhere') return;
        if (claim.earlier === 'failed') return failed(new Error('the earlier attempt failed'));
        if (claim.earlier === 'sent') return emit({ ...result, wid, ack: ACK.sent });
        // 'unknown': the earlier attempt died between its claim and its outcome, maybe before the
        // send. Sending again with the same id is safe: a phone drops a message whose id it already
        // has, so the customer sees it once either way, while not sending could lose it.
      }
      let sent: Awaited<ReturnType<ProviderSession['send']>>;
      try {
        sent = await socket.send(command, media);
      } catch (err) {
        await recordFailed(companyId, wid).catch(
          logFailure('recording a failed send failed', { companyId, whatsappId }),
        );
        return failed(err);
      }
      await recordSent(companyId, wid, sent.content).catch(logFailure('recording a send failed', { companyId, wid }));
      await emit({ ...result, chatJid: sent.chatJid, wid, ack: ACK.sent });
      return true;
    } finally {
      // the temp file goes and its bytes leave the budget whatever the send did
      await media?.discard();
    }
  }

  /**
   * The connected socket of a session this runner holds, opening the session when it is not open
   * here yet (just taken over or handed over). A session still opening is waited for longer than
   * one showing a QR code or stopped.
   */
  private async socketFor(
    companyId: number,
    whatsappId: number,
    unheld: boolean,
    waitMs = this.sendWaitMs,
  ): Promise<ProviderSession | undefined | 'moved'> {
    if (this.draining && !this.get(companyId, whatsappId)) return 'moved';
    const session = this.get(companyId, whatsappId) ?? (unheld ? undefined : this.open(companyId, whatsappId));
    if (!session) return undefined;
    return session.connected(waitMs, waitMs > 0 ? this.openingWaitMs : 0);
  }

  /**
   * One health tick: probes every connected session (restarting the silent ones) and, on AWS,
   * writes the runner's metrics line.
   */
  async checkHealth() {
    const sessions = [...this.sessions.values()];
    const answered = (await Promise.all(sessions.map((s) => s.probe().catch(() => undefined)))).filter(
      (ms): ms is number => ms !== undefined,
    );
    if (!this.hc.settings.metrics) return;
    const { tally } = this.hc;
    const waitingForScan = (s: ManagedSession) => s.status === 'qrcode' || s.status === 'PAIRING';
    const down = (s: ManagedSession) => s.status !== 'CONNECTED' && !waitingForScan(s);
    const now = this.hc.now();
    const since = new Map<string, number>();
    for (const s of sessions)
      if (down(s) || s.silent) {
        const key = this.key(s.companyId, s.whatsappId);
        since.set(key, this.unhealthySince.get(key) ?? now);
      }
    this.unhealthySince = since;
    const longEnough = now - SESSION_UNHEALTHY_MINUTES * 60_000;
    const line = metricsLine(
      {
        held: sessions.length,
        connected: sessions.filter((s) => s.status === 'CONNECTED').length,
        down: sessions.filter(down).length,
        silent: sessions.filter((s) => s.silent).length,
        unhealthyLong: [...since.values()].filter((t) => t <= longEnough).length,
        reconnects: tally.reconnects,
        zombieRestarts: tally.zombieRestarts,
        undecryptable: tally.undecryptable,
        probeMsMax: answered.length ? Math.max(...answered) : undefined,
      },
      this.hc.now(),
    );
    tally.reconnects = 0;
    tally.zombieRestarts = 0;
    tally.undecryptable = 0;
    this.writeMetrics(line);
  }

  /** Probes every `probeEveryMs`; with 0, only when asked (`checkHealth()`, the runner API). */
  startHealthLoop() {
    if (!this.hc.settings.probeEveryMs) return;
    this.healthTimer = setInterval(
      () => void this.checkHealth().catch((err) => log.error('health check failed', { error: (err as Error).message })),
      this.hc.settings.probeEveryMs,
    );
  }

  /** Closes every socket here, changing no ownership (tests; a fenced runner). */
  async closeAll() {
    clearInterval(this.healthTimer);
    const all = [...this.sessions.keys()];
    await Promise.all(
      all.map((key) => {
        const [companyId, whatsappId] = key.split('#').map(Number) as [number, number];
        return this.drop(companyId, whatsappId);
      }),
    );
  }

  stopHealthLoop() {
    clearInterval(this.healthTimer);
  }
}
