/**
 * The WhatsApp session runner: holds the sockets, keeps their auth state in DynamoDB, turns
 * provider events into InboundEvents on the `inbound` queue and executes the commands of the
 * `session-commands` queue. One Fargate task on AWS; a child process of the local stack.
 *   npx tsx session-runner/src/main.ts
 */
import { log } from '#lib/log';
import { runnerConfig } from './config';
import { startCommandLoop } from './command-loop';
import { LEASE_SECONDS } from './lease';
import type { Provider } from './provider';
import { SessionManager } from './session-manager';

// one failed AWS call nobody awaited must not end every tenant's socket with the process
process.on('unhandledRejection', (reason) =>
  log.error('unhandled rejection', {
    error: reason instanceof Error ? reason.message : String(reason),
    stack: reason instanceof Error ? reason.stack : undefined,
  }),
);

const cfg = runnerConfig();
let provider: Provider;
let closeServer: (() => void) | undefined;

if (cfg.provider === 'simulator') {
  const { SimulatorRegistry, simulatorProvider } = await import('./providers/simulator');
  const registry = new SimulatorRegistry(cfg.simulatorSentLog);
  provider = simulatorProvider(registry, cfg.qrIntervalMs);
  if (cfg.simulatorPort) {
    const { startSimulatorServer } = await import('./simulator-server');
    const server = await startSimulatorServer(registry, cfg.simulatorPort);
    closeServer = () => server.close();
  }
} else {
  const { baileysProvider } = await import('./providers/baileys/provider');
  provider = baileysProvider();
}

const manager = new SessionManager(provider, cfg.runnerId, undefined, { health: cfg.health });
await manager.resume().catch((err) => log.error('resume at start failed', { error: (err as Error).message }));
manager.startLeaseLoop((LEASE_SECONDS / 3) * 1000);
manager.startHealthLoop();
const loop = startCommandLoop(manager);
log.info('session runner started', { provider: cfg.provider, runnerId: cfg.runnerId });

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  await loop.stop().catch(() => undefined);
  await manager.stopAll().catch(() => undefined);
  closeServer?.();
  process.exit(0);
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
