import { getObject } from '#lib/storage';
import { log } from '#lib/log';
import type { ConnectionStatus } from '#shared/constants';
import { ACK, ADDRESS_BOOK_PART, type SessionCommand } from '#shared/whatsapp-protocol';
import { AuthStore } from './auth-store';
import { decideClose } from './close-policy';
import { emit } from './emit';
import { DEFAULT_HEALTH, type HealthSettings, metricsLine, SessionHealth, withTimeout } from './health';
import { acquireLease, markWanted, releaseLease, unmarkWanted, wantedSessions } from './lease';
import { storeMedia } from './media';
import type { Provider, ProviderEvents, ProviderSession, SendCommand } from './provider';
import { claimSend, recordFailed, recordSent, sentContent } from './sent-store';

/** QR codes shown before a session gives up waiting for a scan (TIMEOUT). */
export const MAX_QR_CODES = 5;
/** How long a send waits for a reconnecting session before it fails. */
const SEND_WAIT_MS = 15_000;

/** For promises nobody awaits: a failed SQS or DynamoDB call is logged, never an unhandled rejection. */
const logFailure = (what: string, ids: Record<string, unknown>) => (err: unknown) =>
  log.error(what, { ...ids, error: (err as Error)?.message });

/** Whether the command was handled here, or must go back to the queue for the runner that holds the session. */
export type CommandOutcome = 'done' | 'elsewhere';

/** Runner-wide counts since the last metrics line. */
interface Tally {
  reconnects: number;
  zombieRestarts: number;
}

/** What every session of a manager shares: health settings, clock, metric counts. */
interface HealthContext {
  settings: HealthSettings;
  now: () => number;
  tally: Tally;
}

class ManagedSession {
  status: ConnectionStatus = 'DISCONNECTED';
  private socket?: ProviderSession;
  private attempt = 0;
  private replaced = 0;
  private qrCodes = 0;
  private qrExhausted = false;
  private intentional = false;
  private reconnectTimer?: NodeJS.Timeout;
  private waiters: (() => void)[] = [];
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
  ) {
    this.auth = new AuthStore(companyId, whatsappId);
    this.health = new SessionHealth(hc.now);
  }

  /** Connected, but the last probe went unanswered. */
  get silent() {
    return this.status === 'CONNECTED' && this.health.failedProbes > 0;
  }

  private last: { qrcode?: string; retries?: number; number?: string } = {};

  private async report(status: ConnectionStatus, extra: { qrcode?: string; retries?: number; number?: string } = {}) {
    this.status = status;
    this.last = extra;
    if (status === 'CONNECTED') for (const w of this.waiters.splice(0)) w();
    await emit({ type: 'session', companyId: this.companyId, whatsappId: this.whatsappId, status, ...extra });
    await this.reportHealth();
  }

  /** Health goes with every change of state; traffic and probes at most every `reportEveryMs`. */
  private async reportHealth() {
    clearTimeout(this.healthTimer);
    this.healthTimer = undefined;
    this.lastHealthReport = this.hc.now();
    await emit({
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
          this.qrCodes = 0;
        }
        void this.report(u.status, { number: u.number, retries: this.qrCodes }).catch(
          this.logFailure('reporting the session status failed'),
        );
      },
      message: async (m) => {
        this.traffic(m.fromMe ? 'outbound' : 'inbound');
        await emit({ type: 'message', ...base, message: await storeMedia(this.companyId, m) });
      },
      ack: async (e) => {
        this.traffic('ack');
        await emit({ type: 'ack', ...base, ...e });
      },
      edit: async (e) => emit({ type: 'edit', ...base, ...e }),
      revoke: async (e) => emit({ type: 'revoke', ...base, ...e }),
      call: async (e) => emit({ type: 'call', ...base, ...e }),
      lidMapping: async (e) => emit({ type: 'lidMapping', ...base, ...e }),
      closed: (code) => void this.onClosed(code).catch(this.logFailure('handling a closed socket failed')),
    };
  }

  private async onClosed(code: number | undefined) {
    this.socket = undefined;
    // Deliberate closes (disconnect, new QR, shutdown, lease lost) are handled by whoever closed.
    if (this.intentional) return;
    const decision = decideClose({
      code,
      attempt: this.attempt,
      replaced: this.replaced,
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
    this.health.closed(code, { qrExhausted: this.qrExhausted, reconnecting: decision.action === 'reconnect' });
    if (decision.action === 'reconnect' && code !== 515) this.hc.tally.reconnects++;
    if (decision.action === 'reconnect') {
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
    if (decision.action === 'logout') await this.auth.clear();
    // a stop holds: the lease loop must not start the session again (a replaced session would ping-pong)
    await unmarkWanted(this.companyId, this.whatsappId);
    await this.report(decision.status);
    this.onGone(this);
  }

  async connect() {
    clearTimeout(this.reconnectTimer);
    // already running (a retry pressed on a live session): tell the API where it stands
    if (this.socket) return this.report(this.status, this.last);
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

  /** Closes the socket without logging out (runner shutdown, lease lost). */
  async close() {
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.healthTimer);
    this.intentional = true;
    const socket = this.socket;
    this.socket = undefined;
    await socket?.close();
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

  async connected(waitMs: number): Promise<ProviderSession | undefined> {
    if (this.status === 'CONNECTED' && this.socket) return this.socket;
    if (!this.socket && !this.reconnectTimer) return undefined;
    await new Promise<void>((done) => {
      const timer = setTimeout(done, waitMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        done();
      });
    });
    return this.status === 'CONNECTED' ? this.socket : undefined;
  }
}

/** The sessions this runner holds, and how commands act on them. */
export class SessionManager {
  private sessions = new Map<string, ManagedSession>();
  private renewTimer?: NodeJS.Timeout;
  private healthTimer?: NodeJS.Timeout;
  private hc: HealthContext;
  private writeMetrics: (line: string) => void;

  constructor(
    private provider: Provider,
    readonly runnerId: string,
    private sendWaitMs = SEND_WAIT_MS,
    opts: { health?: Partial<HealthSettings>; now?: () => number; writeMetrics?: (line: string) => void } = {},
  ) {
    this.hc = {
      settings: { ...DEFAULT_HEALTH, ...opts.health },
      now: opts.now ?? Date.now,
      tally: { reconnects: 0, zombieRestarts: 0 },
    };
    this.writeMetrics = opts.writeMetrics ?? ((line) => process.stdout.write(`${line}\n`));
  }

  private key = (companyId: number, whatsappId: number) => `${companyId}#${whatsappId}`;

  get(companyId: number, whatsappId: number) {
    return this.sessions.get(this.key(companyId, whatsappId));
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
          void releaseLease(companyId, whatsappId, this.runnerId).catch(() => undefined);
        },
        this.hc,
      );
      this.sessions.set(key, s);
    }
    return s;
  }

  private own(companyId: number, whatsappId: number) {
    return acquireLease(companyId, whatsappId, this.runnerId);
  }

  async handle(command: SessionCommand): Promise<CommandOutcome> {
    const { companyId, whatsappId } = command;
    const base = { companyId, whatsappId };
    switch (command.type) {
      case 'start': {
        await markWanted(companyId, whatsappId);
        if (!(await this.own(companyId, whatsappId))) return 'elsewhere';
        await this.ensure(companyId, whatsappId).connect();
        return 'done';
      }
      case 'newQr': {
        if (!(await this.own(companyId, whatsappId))) return 'elsewhere';
        const current = this.get(companyId, whatsappId);
        this.sessions.delete(this.key(companyId, whatsappId));
        if (current) await current.close();
        const fresh = this.ensure(companyId, whatsappId);
        await fresh.auth.clear();
        await markWanted(companyId, whatsappId);
        await fresh.connect();
        return 'done';
      }
      case 'disconnect': {
        if (!(await this.own(companyId, whatsappId))) return 'elsewhere';
        const session = this.ensure(companyId, whatsappId);
        await unmarkWanted(companyId, whatsappId);
        await session.logout();
        this.sessions.delete(this.key(companyId, whatsappId));
        await releaseLease(companyId, whatsappId, this.runnerId);
        return 'done';
      }
      case 'stop': {
        if (!(await this.own(companyId, whatsappId))) return 'elsewhere';
        await unmarkWanted(companyId, whatsappId);
        const current = this.get(companyId, whatsappId);
        this.sessions.delete(this.key(companyId, whatsappId));
        if (current) await current.close();
        await releaseLease(companyId, whatsappId, this.runnerId);
        return 'done';
      }
      case 'send': {
        const socket = await this.socketFor(companyId, whatsappId);
        if (socket === 'elsewhere') return 'elsewhere';
        if (await this.send(socket, command)) this.get(companyId, whatsappId)?.traffic('outbound');
        return 'done';
      }
      case 'delete': {
        const socket = await this.socketFor(companyId, whatsappId);
        if (socket === 'elsewhere') return 'elsewhere';
        await socket
          ?.deleteMessage({ wid: command.wid, to: command.to, fromMe: command.fromMe })
          .catch((err) => log.warn('delete failed', { companyId, whatsappId, error: (err as Error).message }));
        return 'done';
      }
      case 'checkNumber': {
        const socket = await this.socketFor(companyId, whatsappId, 5_000);
        if (socket === 'elsewhere') return 'elsewhere';
        const reply = { type: 'checkNumberResult' as const, ...base, number: command.number, replyTo: command.replyTo };
        if (!socket) {
          await emit({ ...reply, exists: false, error: 'ERR_WAPP_NOT_INITIALIZED' });
          return 'done';
        }
        try {
          const found = await socket.checkNumber(command.number);
          await emit({ ...reply, exists: found.exists, jid: found.jid });
        } catch {
          await emit({ ...reply, exists: false, error: 'ERR_WAPP_CHECK_CONTACT' });
        }
        return 'done';
      }
      case 'importContacts': {
        const socket = await this.socketFor(companyId, whatsappId, 5_000);
        if (socket === 'elsewhere') return 'elsewhere';
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
        const socket = await this.socketFor(companyId, whatsappId, 0);
        if (socket === 'elsewhere') return 'elsewhere';
        await socket?.rejectCall(command.callId, command.from).catch(() => undefined);
        return 'done';
      }
      case 'repairSession': {
        // a repair of a session that is not up now has nothing to act on: the next send re-syncs anyway
        const socket = await this.socketFor(companyId, whatsappId, 0);
        if (socket === 'elsewhere') return 'elsewhere';
        await socket
          ?.repair(command.to)
          .catch((err) => log.warn('session repair failed', { companyId, whatsappId, error: (err as Error).message }));
        return 'done';
      }
    }
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
    if (!socket) return failed(new Error('session not connected'));
    let media: Buffer | undefined;
    try {
      media = command.media ? await getObject(command.media.key) : undefined;
    } catch (err) {
      return failed(err);
    }
    const claim = await claimSend(companyId, wid);
    if (!claim.claimed) {
      log.warn('send command redelivered', { companyId, whatsappId, messageId, wid, earlier: claim.earlier });
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
      await recordFailed(companyId, wid).catch(logFailure('recording a failed send failed', { companyId, whatsappId }));
      return failed(err);
    }
    await recordSent(companyId, wid, sent.content).catch(logFailure('recording a send failed', { companyId, wid }));
    await emit({ ...result, chatJid: sent.chatJid, wid, ack: ACK.sent });
    return true;
  }

  /** The connected socket of a session this runner holds (starting it if nobody does). */
  private async socketFor(
    companyId: number,
    whatsappId: number,
    waitMs = this.sendWaitMs,
  ): Promise<ProviderSession | undefined | 'elsewhere'> {
    let session = this.get(companyId, whatsappId);
    if (!session) {
      if (!(await acquireLease(companyId, whatsappId, this.runnerId))) return 'elsewhere';
      const wanted = (await wantedSessions()).some((w) => w.companyId === companyId && w.whatsappId === whatsappId);
      if (!wanted) {
        await releaseLease(companyId, whatsappId, this.runnerId);
        return undefined;
      }
      session = this.ensure(companyId, whatsappId);
      await session.connect();
    }
    return session.connected(waitMs);
  }

  /** Starts the sessions that should run and that no live runner holds (start-up, crashed runners). */
  async resume() {
    for (const { companyId, whatsappId } of await wantedSessions()) {
      if (this.get(companyId, whatsappId)) continue;
      if (!(await acquireLease(companyId, whatsappId, this.runnerId))) continue;
      await this.ensure(companyId, whatsappId)
        .connect()
        .catch((err) => log.error('resume failed', { companyId, whatsappId, error: (err as Error).message }));
    }
  }

  /** Renews the leases every `everyMs`; a lease taken by another runner closes the local socket. */
  startLeaseLoop(everyMs: number) {
    this.renewTimer = setInterval(() => {
      void (async () => {
        for (const s of [...this.sessions.values()]) {
          const held = await acquireLease(s.companyId, s.whatsappId, this.runnerId).catch(() => true);
          if (!held) {
            this.sessions.delete(this.key(s.companyId, s.whatsappId));
            await s.close();
          }
        }
        await this.resume();
      })().catch((err) => log.error('lease loop failed', { error: (err as Error).message }));
    }, everyMs);
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
    const line = metricsLine(
      {
        connected: sessions.filter((s) => s.status === 'CONNECTED').length,
        down: sessions.filter((s) => s.status !== 'CONNECTED' && !waitingForScan(s)).length,
        silent: sessions.filter((s) => s.silent).length,
        reconnects: tally.reconnects,
        zombieRestarts: tally.zombieRestarts,
        probeMsMax: answered.length ? Math.max(...answered) : undefined,
      },
      this.hc.now(),
    );
    tally.reconnects = 0;
    tally.zombieRestarts = 0;
    this.writeMetrics(line);
  }

  startHealthLoop() {
    this.healthTimer = setInterval(
      () => void this.checkHealth().catch((err) => log.error('health check failed', { error: (err as Error).message })),
      this.hc.settings.probeEveryMs,
    );
  }

  async stopAll() {
    clearInterval(this.renewTimer);
    clearInterval(this.healthTimer);
    for (const s of this.sessions.values()) {
      await s.close().catch(() => undefined);
      await releaseLease(s.companyId, s.whatsappId, this.runnerId).catch(() => undefined);
    }
    this.sessions.clear();
  }
}
