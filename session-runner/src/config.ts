import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { DEFAULT_HEALTH, type HealthSettings } from './health';
import { CHECK_INTERVAL_MS } from './check-pacer';
import { MEDIA_BYTES_IN_FLIGHT } from './outbound-media';

/** The session runner's own settings, read once at start (table, bucket and queues come from functions/lib/config). */
export interface RunnerConfig {
  /** `baileys` (real WhatsApp) or `simulator` (the local stack's simulated WhatsApp) */
  provider: 'baileys' | 'simulator';
  /** simulator only: the hub's WebSocket address (infra/local/simulator-hub.ts) */
  simulatorHubUrl?: string;
  /**
   * simulator only: each message received advances the chat's session record in the auth store, as
   * decrypting does with Baileys (tests of auth writes under faults; off by default: one more write
   * per message)
   */
  simulatorSignalKeys: boolean;
  /** this runner in the fleet registry, on session ownership and in logs; unique per process */
  runnerId: string;
  /** the runner API (commands forwarded by peers): port (0: any free port) and interface */
  apiPort: number;
  apiHost: string;
  /**
   * where peers reach the runner API; on ECS it is found from the task metadata when unset (see
   * main.ts), locally it is loopback
   */
  apiUrl?: string;
  /** on SIGTERM the runner hands its work over and exits within this (ECS stopTimeout must be longer) */
  stopTimeoutSeconds: number;
  /** the fleet's rhythm (see fleet.ts) */
  fleet: {
    heartbeatMs: number;
    /** a runner whose heartbeat is older than this is dead: its sessions are taken over */
    heartbeatTtlMs: number;
    rebalanceMs: number;
    /** sessions opening at once on this runner (a takeover after a crash, a start-up) */
    maxHandshakes: number;
    /** sessions handed to peers per rebalance tick when this runner holds more than its share */
    handoversPerTick: number;
  };
  /** the session health monitor; the simulator probes every 2 s so tests see a silent socket restarted */
  health: HealthSettings;
  /** at most one batched number check per session this often (check-pacer.ts; tests shorten it) */
  checkIntervalMs: number;
  /**
   * outbound media bytes streamed from storage and sent at once on this runner; a send waits until
   * its media fits (one larger than this goes alone)
   */
  mediaBytesInFlight: number;
}

let cached: RunnerConfig | undefined;

const num = (name: string, fallback: number) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, not ${raw}`);
  return value;
};

export function runnerConfig(): RunnerConfig {
  if (cached) return cached;
  const provider = process.env.WHATSAPP_PROVIDER === 'simulator' ? 'simulator' : 'baileys';
  const simulatorHubUrl = process.env.SIMULATOR_HUB_URL || undefined;
  if (provider === 'simulator' && !simulatorHubUrl) throw new Error('SIMULATOR_HUB_URL is required by the simulator');
  cached = {
    provider,
    simulatorHubUrl,
    simulatorSignalKeys: process.env.SIMULATOR_SIGNAL_KEYS === '1',
    runnerId: process.env.RUNNER_ID || `${hostname()}-${randomUUID().slice(0, 8)}`,
    apiPort: num('RUNNER_API_PORT', 8090),
    apiHost: process.env.RUNNER_API_HOST || '127.0.0.1',
    apiUrl: process.env.RUNNER_API_URL || undefined,
    stopTimeoutSeconds: num('STOP_TIMEOUT_SECONDS', 100),
    fleet: {
      heartbeatMs: num('FLEET_HEARTBEAT_MS', 5_000),
      heartbeatTtlMs: num('FLEET_HEARTBEAT_TTL_MS', 15_000),
      rebalanceMs: num('FLEET_REBALANCE_MS', 5_000),
      maxHandshakes: num('FLEET_MAX_HANDSHAKES', 8),
      handoversPerTick: num('FLEET_HANDOVERS_PER_TICK', 8),
    },
    health: {
      probeEveryMs: num('HEALTH_PROBE_MS', provider === 'simulator' ? 2_000 : DEFAULT_HEALTH.probeEveryMs),
      probeTimeoutMs: num('HEALTH_PROBE_TIMEOUT_MS', provider === 'simulator' ? 1_000 : DEFAULT_HEALTH.probeTimeoutMs),
      silentProbes: num('HEALTH_SILENT_PROBES', DEFAULT_HEALTH.silentProbes),
      reportEveryMs: num('HEALTH_REPORT_MS', provider === 'simulator' ? 1_000 : DEFAULT_HEALTH.reportEveryMs),
      metrics: process.env.HEALTH_METRICS === 'emf',
    },
    checkIntervalMs: num('NUMBER_CHECK_INTERVAL_MS', CHECK_INTERVAL_MS),
    mediaBytesInFlight: num('MEDIA_BYTES_IN_FLIGHT', MEDIA_BYTES_IN_FLIGHT),
  };
  return cached;
}
