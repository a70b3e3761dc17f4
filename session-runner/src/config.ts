import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';

/** The session runner's own settings, read once at start (table, bucket and queues come from functions/lib/config). */
export interface RunnerConfig {
  /** `baileys` (real WhatsApp) or `simulator` (a fake phone, local only) */
  provider: 'baileys' | 'simulator';
  /** local runtime only: port of the simulator's endpoints */
  simulatorPort?: number;
  /** who holds a session lease */
  runnerId: string;
  /** simulator: how long a QR code lives before the next one */
  qrIntervalMs: number;
}

let cached: RunnerConfig | undefined;

export function runnerConfig(): RunnerConfig {
  if (cached) return cached;
  const provider = process.env.WHATSAPP_PROVIDER === 'simulator' ? 'simulator' : 'baileys';
  cached = {
    provider,
    simulatorPort: process.env.SIMULATOR_PORT ? Number(process.env.SIMULATOR_PORT) : undefined,
    runnerId: process.env.RUNNER_ID || `${hostname()}-${randomUUID().slice(0, 8)}`,
    qrIntervalMs: Number(process.env.SIMULATOR_QR_INTERVAL_MS || 30_000),
  };
  return cached;
}
