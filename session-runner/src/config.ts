import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { DEFAULT_HEALTH, type HealthSettings } from './health';

/** The session runner's own settings, read once at start (table, bucket and queues come from functions/lib/config). */
export interface RunnerConfig {
  /** `baileys` (real WhatsApp) or `simulator` (a fake phone, local only) */
  provider: 'baileys' | 'simulator';
  /** local runtime only: port of the simulator's endpoints */
  simulatorPort?: number;
  /** local runtime only: file where the simulated phones keep what they received (survives a killed runner) */
  simulatorSentLog?: string;
  /** who holds a session lease */
  runnerId: string;
  /** simulator: how long a QR code lives before the next one */
  qrIntervalMs: number;
  /** the session health monitor; the simulator probes every 2 s so tests see a silent socket restarted */
  health: HealthSettings;
}

let cached: RunnerConfig | undefined;

export function runnerConfig(): RunnerConfig {
  if (cached) return cached;
  const provider = process.env.WHATSAPP_PROVIDER === 'simulator' ? 'simulator' : 'baileys';
  cached = {
    provider,
    simulatorPort: process.env.SIMULATOR_PORT ? Number(process.env.SIMULATOR_PORT) : undefined,
    simulatorSentLog: process.env.SIMULATOR_SENT_LOG || undefined,
    runnerId: process.env.RUNNER_ID || `${hostname()}-${randomUUID().slice(0, 8)}`,
    qrIntervalMs: Number(process.env.SIMULATOR_QR_INTERVAL_MS || 30_000),
    health: {
      probeEveryMs: Number(
        process.env.HEALTH_PROBE_MS || (provider === 'simulator' ? 2_000 : DEFAULT_HEALTH.probeEveryMs),
      ),
      probeTimeoutMs: Number(
        process.env.HEALTH_PROBE_TIMEOUT_MS || (provider === 'simulator' ? 1_000 : DEFAULT_HEALTH.probeTimeoutMs),
      ),
      silentProbes: Number(process.env.HEALTH_SILENT_PROBES || DEFAULT_HEALTH.silentProbes),
      reportEveryMs: Number(
        process.env.HEALTH_REPORT_MS || (provider === 'simulator' ? 1_000 : DEFAULT_HEALTH.reportEveryMs),
      ),
      metrics: process.env.HEALTH_METRICS === 'emf',
    },
  };
  return cached;
}
