import { getItem } from '#lib/db';
import { log } from '#lib/log';
import type { SessionCommand } from '#shared/whatsapp-protocol';
import { markWanted, moveSession, readSession, type WantedSession, wantedSessions } from '#lib/fleet/ownership';
import { planRebalance, sessionKey } from './rebalance';
import { deregister, heartbeat, isAlive, type RunnerInfo, runners } from '#lib/fleet/registry';
import type { ForwardOutcome } from './runner-api';
import type { SessionManager } from './session-manager';
import { runnerCounters } from './counters';

export interface FleetSettings {
  heartbeatMs: number;
  heartbeatTtlMs: number;
  rebalanceMs: number;
  handoversPerTick: number;
}

/** What the command loop does with a command it received: delete it, or give it back after a delay. */
export type RouteOutcome = { outcome: 'done' } | { outcome: 'retry'; seconds: number };

/** A runner that has not written its heartbeat for its TTL minus this (at most a fifth of the TTL) closes its sockets. */
const FENCE_MARGIN_MS = 3_000;
/** A forwarded command the owner never answers is given up after this (the queue then redelivers it). */
const FORWARD_TIMEOUT_MS = 150_000;
/** A peer that cannot be reached is retried for this long (at most a fifth of the TTL) before the command goes back to the queue. */
const UNREACHABLE_GRACE_MS = 3_000;
/** Rounds of "ask the table, try the owner" before a command goes back to the queue. */
const MAX_ROUTE_ROUNDS = 40;
/**
 * After a fence lifts, this runner waits a random part of this (at most twice the heartbeat TTL)
 * before taking sessions again: a table stall fences every runner at once, and they would otherwise
 * all re-adopt and reconnect together (R10 of whatsapp-review-3).
 */
const READOPT_SPREAD_MS = 30_000;
/** How long a handover or a drain waits for one session's running commands and events. */
const SESSION_DRAIN_MS = 10_000;
/** Sessions drained at once on shutdown. */
const DRAIN_CONCURRENCY = 8;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * This runner's place in the fleet of runners that share the sessions (issue 23):
 * - heartbeat: `WRUNNERS/<id>` every few seconds; the sessions a runner owns (ownership.ts) are its
 *   while the heartbeat is fresh. A runner that cannot write it closes its sockets before its peers
 *   may take them (self-fencing), so two runners never hold a session at once;
 * - rebalance: sessions of dead runners are taken, each runner up to its share; a runner above its
 *   share hands the surplus to peers (drain, move the owner conditionally, tell the peer). New
 *   runners get their share this way, without a QR code (the new holder resumes from the stored
 *   auth state);
 * - routing: a command received from the queue runs here when this runner holds its session, is
 *   forwarded to the holder's runner API when a live peer holds it, and takes the session over when
 *   its holder is dead;
 * - drain: on SIGTERM every session is handed to a peer (or released), then the runner leaves the
 *   registry.
 */
export class Fleet {
  private state: RunnerInfo['state'] = 'running';
  private startedAt = Date.now();
  /** when the last heartbeat that reached the table was started */
  private lastBeat = 0;
  private fenced = false;
  private beatTimer?: NodeJS.Timeout;
  private tickTimer?: NodeJS.Timeout;
  private fenceTimer?: NodeJS.Timeout;
  private ticking = false;
  /** no rebalance before this time: the re-adoption after a fence, spread over the fleet */
  private resumeAfter = 0;
  /** sessions being handed to a peer: commands for them wait for the handover, then go to the peer */
  private handing = new Map<string, Promise<void>>();

  constructor(
    private manager: SessionManager,
    private me: { runnerId: string; url: string; token: string },
    private settings: FleetSettings,
    /** writes the heartbeat (tests make it fail) */
    private writeHeartbeat: (info: RunnerInfo) => Promise<void> = heartbeat,
  ) {}

  get runnerId() {
    return this.me.runnerId;
  }

  get draining() {
    return this.state === 'draining';
  }

  /** Registers, takes its share, and keeps both up until `drain()`. */
  async start() {
    await this.beat();
    await this.tick().catch((err) => log.error('rebalance failed', { error: (err as Error).message }));
    this.beatTimer = setInterval(
      () => void this.beat().catch((err) => log.warn('heartbeat failed', { error: (err as Error).message })),
      this.settings.heartbeatMs,
    );
    this.tickTimer = setInterval(
      () => void this.tick().catch((err) => log.error('rebalance failed', { error: (err as Error).message })),
      this.settings.rebalanceMs,
    );
    // checked often enough that the fence closes well inside the margin, however short the TTL
    this.fenceTimer = setInterval(() => this.checkFence(), Math.min(500, this.fenceMarginMs / 4));
  }

  health() {
    const held = this.manager.held();
    return {
      runnerId: this.me.runnerId,
      state: this.state,
      fenced: this.fenced,
      sessions: held.length,
      connected: held.filter((s) => s.status === 'CONNECTED').length,
      rss: process.memoryUsage().rss,
      counters: { ...runnerCounters },
    };
  }

  async beat() {
    const startedAt = Date.now();
    await this.writeHeartbeat({
      runnerId: this.me.runnerId,
      state: this.state,
      sessions: this.manager.size,
      rss: process.memoryUsage().rss,
      url: this.me.url,
      token: this.me.token,
      startedAt: this.startedAt,
      expiresAt: startedAt + this.settings.heartbeatTtlMs,
    });
    this.lastBeat = startedAt;
    if (this.fenced) {
      this.fenced = false;
      const wait = Math.round(Math.random() * Math.min(READOPT_SPREAD_MS, this.settings.heartbeatTtlMs * 2));
      this.resumeAfter = Date.now() + wait;
      log.warn('heartbeat back: taking sessions again', { runnerId: this.me.runnerId, inMs: wait });
    }
  }

  private get fenceMarginMs() {
    return Math.min(FENCE_MARGIN_MS, this.settings.heartbeatTtlMs / 5);
  }

  /**
   * Peers count this runner dead once its last heartbeat's TTL runs out; its sockets must be
   * closed before that, or the session's next holder and this one would both be connected.
   */
  checkFence() {
    if (this.fenced || !this.lastBeat) return;
    if (Date.now() - this.lastBeat < this.settings.heartbeatTtlMs - this.fenceMarginMs) return;
    this.fenced = true;
    log.error('no heartbeat: closing every session before the peers take them', {
      runnerId: this.me.runnerId,
      sessions: this.manager.size,
    });
    void this.manager.closeAll().catch(() => undefined);
  }

  /** Whether this runner still holds the session, by the table. */
  async owns(companyId: number, whatsappId: number) {
    return (await readSession(companyId, whatsappId))?.owner === this.me.runnerId && !this.fenced;
  }

  private async runner(runnerId: string) {
    return getItem<RunnerInfo>({ pk: 'WRUNNERS', sk: runnerId }, { consistent: true });
  }

  /** One rebalance: reconcile what is open here with the table, take orphans, hand over surplus. */
  async tick() {
    if (this.ticking || this.fenced || this.draining || Date.now() < this.resumeAfter) return;
    this.ticking = true;
    try {
      const [sessions, registry] = await Promise.all([wantedSessions(), runners()]);
      const local = new Map(
        this.manager
          .held()
          .map((s) => [
            sessionKey(s),
            { movable: s.status === 'CONNECTED' && !s.leaving && !this.handing.has(sessionKey(s)) },
          ]),
      );
      const plan = planRebalance({
        me: this.me.runnerId,
        now: Date.now(),
        sessions,
        runners: registry,
        local,
        handoversPerTick: this.settings.handoversPerTick,
      });
      for (const s of plan.drop) {
        if (this.handing.has(sessionKey(s))) continue;
        // the query may lag a write: confirm with a consistent read before closing anything
        if ((await readSession(s.companyId, s.whatsappId))?.owner === this.me.runnerId) continue;
        log.info('session no longer held here: closing it', { ...s, runnerId: this.me.runnerId });
        await this.manager.drop(s.companyId, s.whatsappId);
      }
      for (const s of plan.adopt) if (!this.handing.has(sessionKey(s))) this.manager.open(s.companyId, s.whatsappId);
      for (const s of plan.take) await this.takeOver(s);
      await Promise.all(plan.handOver.map(({ session, to }) => this.handOver(session, to)));
    } finally {
      this.ticking = false;
    }
  }

  /** Takes a session whose holder is dead (confirmed by a consistent read) or that has none, and opens it. */
  private async takeOver(session: WantedSession) {
    if (session.owner) {
      const holder = await this.runner(session.owner);
      if (isAlive(holder, Date.now())) return false;
    }
    const epoch = await moveSession(session, this.me.runnerId);
    if (epoch === undefined) return false;
    log.info('session taken over', {
      companyId: session.companyId,
      whatsappId: session.whatsappId,
      from: session.owner,
      runnerId: this.me.runnerId,
      epoch,
    });
    this.manager.open(session.companyId, session.whatsappId);
    return true;
  }

  /**
   * Hands a session this runner holds to a peer (`to` undefined: to nobody, the next runner to look
   * takes it): drains it here, moves the owner conditionally, then tells the peer to open it now.
   * Commands arriving meanwhile wait for the handover and then go to the new holder.
   */
  handOver(session: { companyId: number; whatsappId: number }, to: RunnerInfo | undefined) {
    const key = sessionKey(session);
    const running = this.handing.get(key);
    if (running) return running;
    const work = (async () => {
      const { companyId, whatsappId } = session;
      const item = await readSession(companyId, whatsappId);
      if (item?.owner !== this.me.runnerId) return void (await this.manager.drop(companyId, whatsappId));
      // its writes not all stored: it stays here (a later tick hands it over), never moved unflushed
      if (!(await this.manager.release(companyId, whatsappId, SESSION_DRAIN_MS))) return;
      const epoch = await moveSession(item, to?.runnerId);
      log.info('session handed over', { companyId, whatsappId, from: this.me.runnerId, to: to?.runnerId, epoch });
      if (epoch !== undefined && to) await this.tell(to, companyId, whatsappId);
    })()
      .catch((err) => log.error('handover failed', { ...session, error: (err as Error).message }))
      .finally(() => this.handing.delete(key));
    this.handing.set(key, work);
    return work;
  }

  private async tell(to: RunnerInfo, companyId: number, whatsappId: number) {
    await fetch(`${to.url}/adopt`, {
      method: 'POST',
      headers: { authorization: `Bearer ${to.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ companyId, whatsappId }),
      signal: AbortSignal.timeout(5_000),
    })
      .then((r) => r.body?.cancel())
      // its own rebalance opens it a few seconds later anyway
      .catch(() => undefined);
  }

  /** A peer handed this runner a session: open it now if the table agrees. */
  async adopt(companyId: number, whatsappId: number) {
    if (this.draining || this.fenced) return;
    if ((await readSession(companyId, whatsappId))?.owner === this.me.runnerId)
      this.manager.open(companyId, whatsappId);
  }

  /**
   * Runs a command received from the queue where its session is held. Answers `retry` (the command
   * goes back to the queue for a while) when nobody can take it now.
   */
  async route(command: SessionCommand): Promise<RouteOutcome> {
    const out = await this.routeOnce(command, false);
    if (out.outcome === 'elsewhere') return { outcome: 'retry', seconds: 1 };
    return out;
  }

  /** A command a peer forwarded: runs only if this runner holds the session, else `elsewhere`. */
  async forwarded(command: SessionCommand): Promise<ForwardOutcome> {
    return this.routeOnce(command, true);
  }

  private async routeOnce(command: SessionCommand, forwarded: boolean): Promise<ForwardOutcome> {
    const { companyId, whatsappId } = command;
    const key = sessionKey(command);
    let unreachableSince: number | undefined;
    for (let round = 0; round < MAX_ROUTE_ROUNDS; round++) {
      if (this.fenced) return forwarded ? { outcome: 'elsewhere' } : { outcome: 'retry', seconds: 5 };
      const handover = this.handing.get(key);
      if (handover) {
        await handover;
        if (forwarded) return { outcome: 'elsewhere' };
        continue;
      }
      const local = this.manager.get(companyId, whatsappId);
      if (local && !local.leaving) {
        if ((await this.manager.handle(command)) === 'done') return { outcome: 'done' };
        if (forwarded || this.draining) return forwarded ? { outcome: 'elsewhere' } : { outcome: 'retry', seconds: 1 };
        continue;
      }
      if (local?.leaving) {
        if (forwarded || this.draining) return forwarded ? { outcome: 'elsewhere' } : { outcome: 'retry', seconds: 1 };
        await sleep(100);
        continue;
      }
      const item = await readSession(companyId, whatsappId);
      if (!item) {
        if (forwarded) return { outcome: 'elsewhere' };
        if (command.type === 'start' || command.type === 'newQr') {
          if (this.draining) return { outcome: 'retry', seconds: 1 };
          await markWanted(companyId, whatsappId);
          continue;
        }
        // nobody should run it: commands that need a socket find none (a send fails visibly)
        await this.manager.handle(command, { unheld: true });
        return { outcome: 'done' };
      }
      if (item.owner === this.me.runnerId) {
        if (this.draining) return forwarded ? { outcome: 'elsewhere' } : { outcome: 'retry', seconds: 1 };
        if ((await this.manager.handle(command)) === 'done') return { outcome: 'done' };
        continue;
      }
      const holder = item.owner ? await this.runner(item.owner) : undefined;
      if (holder && isAlive(holder, Date.now())) {
        if (forwarded) return { outcome: 'elsewhere' };
        const answer = await this.forward(holder, command);
        if (answer === 'unreachable') {
          unreachableSince ??= Date.now();
          // a holder that died keeps its heartbeat for a while: the command waits on the queue
          // until it runs out (not counted against the queue's receives over and over)
          if (Date.now() - unreachableSince > Math.min(UNREACHABLE_GRACE_MS, this.settings.heartbeatTtlMs / 5))
            return { outcome: 'retry', seconds: Math.max(1, Math.ceil((holder.expiresAt - Date.now()) / 1000) + 1) };
          await sleep(100);
          continue;
        }
        if (answer.outcome !== 'elsewhere') return answer;
        await sleep(100);
        continue;
      }
      if (forwarded) return { outcome: 'elsewhere' };
      if (this.draining) return { outcome: 'retry', seconds: 1 };
      await this.takeOver(item);
    }
    return forwarded ? { outcome: 'elsewhere' } : { outcome: 'retry', seconds: 2 };
  }

  private async forward(holder: RunnerInfo, command: SessionCommand): Promise<ForwardOutcome | 'unreachable'> {
    try {
      const res = await fetch(`${holder.url}/commands`, {
        method: 'POST',
        headers: { authorization: `Bearer ${holder.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(command),
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      });
      if (!res.ok) {
        await res.body?.cancel();
        return 'unreachable';
      }
      return (await res.json()) as ForwardOutcome;
    } catch {
      return 'unreachable';
    }
  }

  /**
   * Shutdown: takes nothing more, hands every session to the least loaded running peer (released to
   * nobody when there is none), then leaves the registry. Bounded by `deadline` (ms since epoch).
   */
  async drain(deadline: number) {
    this.state = 'draining';
    clearInterval(this.tickTimer);
    this.manager.beginDrain();
    await this.beat().catch(() => undefined);
    const [sessions, registry] = await Promise.all([wantedSessions(), runners()]);
    const now = Date.now();
    const peers = registry.filter((r) => r.runnerId !== this.me.runnerId && r.state === 'running' && isAlive(r, now));
    const load = new Map(peers.map((p) => [p.runnerId, sessions.filter((s) => s.owner === p.runnerId).length]));
    const next = () =>
      peers.reduce<RunnerInfo | undefined>(
        (best, p) => (!best || load.get(p.runnerId)! < load.get(best.runnerId)! ? p : best),
        undefined,
      );
    const queue = this.manager.held().map((s) => ({ companyId: s.companyId, whatsappId: s.whatsappId }));
    // sessions held in the table but not open here (handed to this runner a moment ago)
    for (const s of sessions)
      if (s.owner === this.me.runnerId && !queue.some((q) => sessionKey(q) === sessionKey(s))) queue.push(s);
    await Promise.all(
      Array.from({ length: DRAIN_CONCURRENCY }, async () => {
        for (let s = queue.shift(); s && Date.now() < deadline; s = queue.shift()) {
          const to = next();
          if (to) load.set(to.runnerId, load.get(to.runnerId)! + 1);
          await this.handOver(s, to);
        }
      }),
    );
    // what could not be handed over closes here with its writes stored, before the registry is left:
    // peers take a session only once its holder is gone from it
    await Promise.all(
      this.manager
        .held()
        .map((s) =>
          this.manager.release(
            s.companyId,
            s.whatsappId,
            Math.max(0, deadline - Date.now()),
            Math.max(0, deadline - Date.now()),
          ),
        ),
    );
    clearInterval(this.beatTimer);
    clearInterval(this.fenceTimer);
    await deregister(this.me.runnerId).catch(() => undefined);
    log.info('fleet drained', { runnerId: this.me.runnerId, left: this.manager.size });
  }

  /** Tests: stops the timers as a killed process would, changing nothing in the table. */
  halt() {
    clearInterval(this.beatTimer);
    clearInterval(this.tickTimer);
    clearInterval(this.fenceTimer);
  }
}
