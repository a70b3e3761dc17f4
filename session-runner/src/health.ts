import type { ConnectionHealth, DisconnectReason } from '#shared/schemas/whatsapp';

/**
 * The session health monitor (issue 15): per session, when traffic last moved, a periodic
 * round-trip probe, "connected but silent" (zombie) detection, and why the socket last closed.
 * Pure bookkeeping with an injected clock; the session manager runs the probes and the restarts.
 */
export interface HealthSettings {
  /** how often each connected session is probed (and the runner's metrics line is written); 0: only on demand */
  probeEveryMs: number;
  /** a probe not answered within this counts as failed */
  probeTimeoutMs: number;
  /** consecutive failed probes after which a connected socket counts as a zombie and is restarted */
  silentProbes: number;
  /** health reports go to the API at most this often (state changes go at once) */
  reportEveryMs: number;
  /** write CloudWatch Embedded Metric Format lines (AWS only: CloudWatch Logs turns them into metrics) */
  metrics: boolean;
}

export const DEFAULT_HEALTH: HealthSettings = {
  probeEveryMs: 60_000,
  probeTimeoutMs: 10_000,
  silentProbes: 2,
  reportEveryMs: 30_000,
  metrics: false,
};

/** The close codes close-policy.ts acts on, as the reason the web app explains with its fix. */
const REASONS: Record<number, DisconnectReason> = {
  401: 'loggedOut',
  403: 'forbidden',
  406: 'banned',
  402: 'tempBanned',
  405: 'clientTooOld',
  409: 'badUserAgent',
  411: 'multiDeviceMismatch',
  440: 'replaced',
  408: 'timedOut',
  428: 'connectionLost',
  503: 'connectionLost',
};

export function disconnectReason(code: number | undefined, qrExhausted = false): DisconnectReason {
  if (qrExhausted) return 'qrExpired';
  if (code === undefined) return 'connectionLost';
  return REASONS[code] ?? 'unknown';
}

export class SessionHealth {
  private readonly since: string;
  private lastInboundAt?: string;
  private lastOutboundAt?: string;
  private lastAckAt?: string;
  private lastProbeAt?: string;
  private probeMs?: number;
  private reconnects = 0;
  private zombieRestarts = 0;
  private undecryptable = 0;
  private lastDisconnect?: ConnectionHealth['lastDisconnect'];
  /** consecutive probes without an answer */
  failedProbes = 0;

  constructor(private now: () => number = Date.now) {
    this.since = this.iso();
  }

  private iso() {
    return new Date(this.now()).toISOString();
  }

  inbound() {
    this.lastInboundAt = this.iso();
  }

  outbound() {
    this.lastOutboundAt = this.iso();
  }

  ack() {
    this.lastAckAt = this.iso();
  }

  probeAnswered(ms: number) {
    this.failedProbes = 0;
    this.lastProbeAt = this.iso();
    this.probeMs = ms;
  }

  /** A probe went unanswered; true when the socket now counts as a zombie (restart it). */
  probeFailed(silentProbes: number) {
    this.failedProbes++;
    return this.failedProbes >= silentProbes;
  }

  /**
   * The socket closed. 515 (restart required) is WhatsApp's normal step right after a scan, not a
   * disconnect worth showing, and its reconnect is not counted.
   */
  closed(code: number | undefined, opts: { qrExhausted?: boolean; reconnecting: boolean }) {
    this.failedProbes = 0;
    if (code === 515) return;
    this.lastDisconnect = { reason: disconnectReason(code, opts.qrExhausted), code, at: this.iso() };
    if (opts.reconnecting) this.reconnects++;
  }

  /** A message arrived that could not be decrypted (R4 of whatsapp-review-3). */
  couldNotDecrypt() {
    this.undecryptable++;
  }

  /** A zombie socket is restarted: a disconnect of its own kind, and a reconnect. */
  restartedSilent() {
    this.failedProbes = 0;
    this.zombieRestarts++;
    this.reconnects++;
    this.lastDisconnect = { reason: 'silent', at: this.iso() };
  }

  snapshot(): ConnectionHealth {
    return {
      since: this.since,
      lastInboundAt: this.lastInboundAt,
      lastOutboundAt: this.lastOutboundAt,
      lastAckAt: this.lastAckAt,
      lastProbeAt: this.lastProbeAt,
      probeMs: this.probeMs,
      reconnects: this.reconnects,
      zombieRestarts: this.zombieRestarts,
      ...(this.undecryptable ? { undecryptable: this.undecryptable } : {}),
      lastDisconnect: this.lastDisconnect,
      updatedAt: this.iso(),
    };
  }
}

/** Rejects when `promise` does not settle within `ms` (a half-open socket never answers). */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export const METRICS_NAMESPACE = 'Inbox/Sessions';
/** Minutes a session may stay down or silent before it counts in SessionsUnhealthyLong (the alarm's metric). */
export const SESSION_UNHEALTHY_MINUTES = 15;
export const METRICS_SERVICE = 'session-runner';
/**
 * Messages that could not be decrypted, over every runner in 5 minutes, past which the alarm fires:
 * a few are normal (WhatsApp sends them again when asked), a spike means sessions whose keys went
 * wrong (R4 of whatsapp-review-3).
 */
export const UNDECRYPTABLE_ALARM_THRESHOLD = 50;

/** One runner-wide sample: per-connection metrics would cost a custom metric per tenant. */
export interface RunnerSample {
  /** every session this runner holds (autoscaling tracks the average over the runners) */
  held: number;
  connected: number;
  /** held by this runner but not connected (reconnecting, stopped by a close code) */
  down: number;
  /** connected, but the last probe went unanswered */
  silent: number;
  /**
   * down or silent at every health tick for SESSION_UNHEALTHY_MINUTES or more: counted by the
   * runner itself, so the alarm reads the worst runner's count (Maximum) whatever the task count
   */
  unhealthyLong: number;
  reconnects: number;
  zombieRestarts: number;
  /** messages that could not be decrypted since the last sample (the alarm watches a spike) */
  undecryptable: number;
  /** the slowest answered probe of the tick */
  probeMsMax?: number;
}

/**
 * The sample as a CloudWatch Embedded Metric Format line: the runner's log group turns it into
 * metrics without an SDK call or an IAM grant. The alarm watches `UnhealthyLong`; scaling `Held`.
 */
export function metricsLine(sample: RunnerSample, now = Date.now()) {
  const values = {
    SessionsHeld: sample.held,
    SessionsConnected: sample.connected,
    SessionsDown: sample.down,
    SessionsSilent: sample.silent,
    SessionsUnhealthy: sample.down + sample.silent,
    SessionsUnhealthyLong: sample.unhealthyLong,
    Reconnects: sample.reconnects,
    ZombieRestarts: sample.zombieRestarts,
    Undecryptable: sample.undecryptable,
    ...(sample.probeMsMax !== undefined ? { ProbeMsMax: sample.probeMsMax } : {}),
  };
  return JSON.stringify({
    _aws: {
      Timestamp: now,
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [['Service']],
          Metrics: Object.keys(values).map((Name) => ({
            Name,
            Unit: Name === 'ProbeMsMax' ? 'Milliseconds' : 'Count',
          })),
        },
      ],
    },
    Service: METRICS_SERVICE,
    msg: 'session health',
    ...values,
  });
}

/**
 * A session the runner stopped for good (banned, version refused, logged out on the phone, replaced
 * again and again): it leaves the runner and its health lines, so the stop is a metric of its own,
 * by reason too. The stopped-sessions alarm watches its sum.
 */
export function stoppedLine(reason: DisconnectReason, now = Date.now()) {
  return JSON.stringify({
    _aws: {
      Timestamp: now,
      CloudWatchMetrics: [
        {
          Namespace: METRICS_NAMESPACE,
          Dimensions: [['Service'], ['Service', 'Reason']],
          Metrics: [{ Name: 'SessionsStopped', Unit: 'Count' }],
        },
      ],
    },
    Service: METRICS_SERVICE,
    Reason: reason,
    msg: 'session stopped',
    SessionsStopped: 1,
  });
}
