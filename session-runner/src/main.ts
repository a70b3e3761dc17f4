/**
 * The WhatsApp session runner: holds the sockets, keeps their auth state in DynamoDB, turns
 * provider events into InboundEvents on the `inbound` queue and executes the commands of the
 * `session-commands` queue. Any number of runners share the sessions (fleet.ts): Fargate tasks on
 * AWS, child processes of the local stack (RUNNERS=N).
 *   npx tsx session-runner/src/main.ts
 */
import { randomBytes } from 'node:crypto';
import { log } from '#lib/log';
import { runnerConfig } from './config';
import { startCommandLoop } from './command-loop';
import { drainEmits } from './emit';
import { Fleet } from './fleet';
import type { Provider } from './provider';
import { startRunnerApi } from './runner-api';
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

if (cfg.provider === 'simulator') {
  const { simulatorProvider } = await import('./providers/simulator');
  provider = simulatorProvider(cfg.simulatorHubUrl!, cfg.runnerId, { signalKeys: cfg.simulatorSignalKeys });
} else {
  const { baileysProvider } = await import('./providers/baileys/provider');
  provider = baileysProvider();
}

/** Where peers reach this runner: configured, the task's address on ECS, else loopback. */
async function advertisedUrl(port: number) {
  if (cfg.apiUrl) return cfg.apiUrl;
  const metadata = process.env.ECS_CONTAINER_METADATA_URI_V4;
  if (metadata) {
    const task = (await (await fetch(`${metadata}/task`)).json()) as {
      Containers?: { Networks?: { IPv4Addresses?: string[] }[] }[];
    };
    const ip = task.Containers?.[0]?.Networks?.[0]?.IPv4Addresses?.[0];
    if (ip) return `http://${ip}:${port}`;
  }
  return `http://127.0.0.1:${port}`;
}

let fleet: Fleet | undefined;
const manager = new SessionManager(provider, cfg.runnerId, undefined, {
  health: cfg.health,
  maxHandshakes: cfg.fleet.maxHandshakes,
  checkIntervalMs: cfg.checkIntervalMs,
  mediaBytesInFlight: cfg.mediaBytesInFlight,
  owns: (companyId, whatsappId) => fleet!.owns(companyId, whatsappId),
});
// the local stack names the token so that tests can ask for a health tick; otherwise a random one
const token = process.env.RUNNER_API_TOKEN || randomBytes(24).toString('hex');
const api = await startRunnerApi({
  port: cfg.apiPort,
  host: cfg.apiHost,
  token,
  handlers: {
    command: (command) => fleet!.forwarded(command),
    adopt: (companyId, whatsappId) => fleet!.adopt(companyId, whatsappId),
    health: () => fleet?.health() ?? { runnerId: cfg.runnerId, state: 'starting', rss: process.memoryUsage().rss },
    checkHealth: () => manager.checkHealth(),
  },
});
fleet = new Fleet(manager, { runnerId: cfg.runnerId, url: await advertisedUrl(api.port), token }, cfg.fleet);
await fleet.start();
manager.startHealthLoop();
const loop = startCommandLoop((command) => fleet!.route(command));
log.info('session runner started', { provider: cfg.provider, runnerId: cfg.runnerId });

/**
 * SIGTERM (a deploy, a scale-in): receive nothing more, let the commands in flight finish (a send
 * waiting for its session goes back to the queue), hand every session to a peer (each drained
 * first: its inbound events on the queue, its socket closed), leave the registry and exit, all
 * within the stop timeout.
 */
let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  const started = Date.now();
  const deadline = started + cfg.stopTimeoutSeconds * 1000 - 2_000;
  setTimeout(
    () => {
      log.error('stop timeout reached: exiting with work left', { runnerId: cfg.runnerId, sessions: manager.size });
      process.exit(1);
    },
    cfg.stopTimeoutSeconds * 1000 - 1_000,
  ).unref();
  log.info('draining', { runnerId: cfg.runnerId, sessions: manager.size });
  await loop.stopReceiving().catch(() => undefined);
  await fleet!.drain(deadline).catch((err) => log.error('drain failed', { error: (err as Error).message }));
  await loop.settled(deadline);
  // results of the last commands (sendResult) and events still being retried into the queue
  await Promise.race([
    Promise.all([provider.drain?.(), drainEmits()]),
    new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now()))),
  ]);
  manager.stopHealthLoop();
  await manager.closeAll().catch(() => undefined);
  await api.close();
  log.info('drained', { runnerId: cfg.runnerId, seconds: (Date.now() - started) / 1000 });
  process.exit(0);
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
