import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SQSEvent } from 'aws-lambda';
import webpush from 'web-push';
import { manifest, SESSION_RUNNER_CONSUMER, type RouteKey } from '../manifest';
import { queueEnvName } from '../../functions/lib/queue';
import { COMMAND_QUEUE as SESSION_COMMANDS } from '../../shared/whatsapp-protocol';
import { startDynamo, uniqueTableName } from './dynamo';
import { startS3 } from './s3';
import { startGateway, type GatewayRoute, type HttpHandler, type LocalEndpoint } from './gateway';
import { ExternalConsumer, LocalQueue, withFaults } from './queues';
import { startSessionRunner, type SessionRunnerChild } from './session-runner';
import { type RunningHub, type SimulatorHub, startSimulatorHub } from './simulator-hub';
import { freePort } from './ports';
import { asaasFake } from './asaas-fake';
import { metaFake } from './meta-fake';
import { dialogflowFake, openAiFake, typebotFake, webhookFake } from './ai-fakes';
import { startPushFake } from './push-fake';
import { startStreamPoller } from './streams';
import { closeSearch } from '../../functions/lib/search/index';
import { answeredWorkSettled } from '../../functions/lib/after-answer';

const ROOT = resolve(import.meta.dirname, '../..');
const TABLE_NAME = 'inbox';
const MEDIA_BUCKET = 'inbox-media';
const LOCAL_CONSUMER_CONCURRENCY = 16;
/** a queue's dead letters answer at `<queue URL>-dlq` (SQS: a queue of their own) */
const DEAD_LETTERS = '-dlq';

export interface StackOptions {
  port?: number;
  /** data on disk under this folder; omitted: everything in memory (tests) */
  dataDir?: string;
  adminEmail?: string;
  adminPassword?: string;
  webDir?: string;
  logLevel?: string;
  /** milliseconds before a failed queue message is retried (doubles per attempt) */
  retryBaseMs?: number;
  /** run timers on their schedule (tests drive them through /@timers instead) */
  timers?: boolean;
  host?: string;
  /** run the WhatsApp session runners as child processes (default true) */
  sessionRunner?: boolean;
  /** how many session runner processes share the sessions (default RUNNERS, else 1) */
  runners?: number;
  /** seconds a runner has to hand its work over on SIGTERM (default STOP_TIMEOUT_SECONDS, else 20) */
  stopTimeoutSeconds?: number;
  /** its provider: `simulator` (default locally) or `baileys` */
  whatsappProvider?: string;
  /** tests: the gateway takes the client address from `x-forwarded-for` */
  trustForwardedFor?: boolean;
  /** tests: client addresses the per-address rate limits skip (the suite's own traffic) */
  rateLimitExemptAddresses?: string[];
  /** seconds a checked session is cached (default 5); tests use 0 to see revocations at once */
  sessionCacheSeconds?: number;
  /** log2 of the scrypt cost for new password hashes (default 17) */
  passwordHashCost?: number;
  /**
   * the table's change stream and its consumers, the search index (default true). The attendance
   * bench turns them off: on AWS the index lives in OpenSearch, not in the process that answers the
   * API, and DynamoDB Local reads slower from a table with a stream (infra/local/dynamo.ts)
   */
  streams?: boolean;
  /**
   * expired items deleted (default true). The attendance bench turns it off: DynamoDB Local's sweep
   * over the whole table blocks reads for a moment every 10 s (infra/local/dynamo.ts)
   */
  timeToLive?: boolean;
  /** a stack for minutes, not hours (test runs): DynamoDB Local's JVM tuned for it (infra/local/dynamo.ts) */
  shortRun?: boolean;
  /**
   * tests: the runners probe their sessions only when asked (`POST /@runners/health-check`), not
   * every 2 s: hundreds of idle test connections otherwise write their health all run long
   */
  healthOnDemand?: boolean;
  /**
   * tests: a table of its own on the DynamoDB Local at this endpoint (the test run's, SHARED_DYNAMO_ENV
   * in infra/local/dynamo.ts) rather than a JVM of its own; ignored with `dataDir`
   */
  sharedDynamo?: string;
  /**
   * tests: extra environment of the `index`-th runner started (0 first, added runners included): a
   * runner of its own rhythm, or one that reaches DynamoDB through a proxy the test can cut
   */
  runnerEnv?: (index: number) => Record<string, string>;
  /** tests only: the consumers of these queues fail `failRate` of their batches at random (see withFaults) */
  faultInjection?: { failRate: number; queues: string[] };
}

export interface LocalStack {
  url: string;
  queues: Map<string, LocalQueue>;
  runTimer(name: string): Promise<unknown>;
  /** tests: the first session runner (kill it as a crash does, start it again) */
  runner?: LocalRunner;
  /** every session runner started, in order (stopped and killed ones included) */
  runners: LocalRunner[];
  /** scale out: starts one more runner; resolves when it answers */
  addRunner(): Promise<LocalRunner>;
  /** the simulated WhatsApp (provider `simulator`) */
  simulator?: SimulatorHub;
  /** tests: batches failed on purpose by `faultInjection` */
  faults: { injected: number };
  /** resolves when every queue is empty and nothing is in flight (of that company's, with one) */
  idle(companyId?: string): Promise<void>;
  stop(): Promise<void>;
}

/** A session runner of the stack; `kill()` also hands back at once the session commands it had received. */
export type LocalRunner = SessionRunnerChild;

/** A handler as the runtime calls it: an AWS-shaped event in, the handler's own result out. */
type Handler = (event: unknown, context?: unknown) => Promise<unknown>;

const importHandler = async <H = Handler>(modulePath: string) => {
  const mod = await import(pathToFileURL(join(ROOT, 'functions', `${modulePath}.ts`)).href);
  if (typeof mod.handler !== 'function') throw new Error(`functions/${modulePath}.ts exports no handler`);
  return mod.handler as H;
};

/** A generated secret, kept under DATA_DIR so a restart reuses it (fresh per run without one). */
function localSecret(dataDir: string | undefined, name: string) {
  if (!dataDir) return randomBytes(32).toString('hex');
  const file = join(dataDir, name);
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/** The Web Push VAPID keys, made once and kept in `<dataDir>/vapid.json` (fresh per run without one). */
function localVapidKeys(dataDir: string | undefined): webpush.VapidKeys {
  if (!dataDir) return webpush.generateVAPIDKeys();
  const file = join(dataDir, 'vapid.json');
  if (!existsSync(file)) writeFileSync(file, JSON.stringify(webpush.generateVAPIDKeys()), { mode: 0o600 });
  return JSON.parse(readFileSync(file, 'utf8')) as webpush.VapidKeys;
}

/**
 * The whole product on one machine, wired from the app manifest: DynamoDB Local, s3rver, the
 * HTTP and WebSocket gateway, in-process queues and timers, then the platform seed.
 */
export async function startStack(opts: StackOptions = {}): Promise<LocalStack> {
  const dataDir = opts.dataDir ? resolve(opts.dataDir) : undefined;
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const port = opts.port || (await freePort());
  const publicHost = '127.0.0.1';
  const base = `http://${publicHost}:${port}`;
  const [dynamoPort, s3Port] = [await freePort(), await freePort()];

  const shared = dataDir ? undefined : opts.sharedDynamo;
  const tableName = shared ? uniqueTableName(TABLE_NAME) : TABLE_NAME;
  const dynamo = await startDynamo({
    port: dynamoPort,
    dataDir: dataDir && join(dataDir, 'dynamodb'),
    tableName,
    shared,
    stream: opts.streams !== false,
    ttl: opts.timeToLive !== false,
    shortRun: opts.shortRun,
  });
  // In-memory stacks (tests, benchmarks) keep their files in a temporary folder removed on stop.
  const s3Dir = dataDir ? join(dataDir, 's3') : mkdtempSync(join(tmpdir(), 'inbox-s3-'));
  const s3 = await startS3({ port: s3Port, dir: s3Dir, buckets: [MEDIA_BUCKET] });
  // a push service of its own origin (infra/local/push-fake.ts); real browsers' endpoints still work
  const pushFake = await startPushFake(publicHost);
  const vapid = localVapidKeys(dataDir);

  Object.assign(process.env, {
    TABLE_NAME: tableName,
    MEDIA_BUCKET,
    AWS_REGION: 'us-east-1',
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    S3_ENDPOINT: s3.endpoint,
    SQS_ENDPOINT: base,
    WS_ENDPOINT: base,
    JWT_SECRET: localSecret(dataDir, 'jwt-secret'),
    DATA_KEY_SECRET: localSecret(dataDir, 'data-key'),
    APP_ORIGIN: base,
    MAIL_LOG: '1',
    // payments: the sandbox until the platform's `asaas` setting holds a key; Asaas is the local fake
    PAYMENTS_SANDBOX: '1',
    // the AI and integration fakes listen on this machine
    PROVIDER_PRIVATE_URLS: '1',
    ASAAS_URL: process.env.ASAAS_URL || `${base}/@asaas/v3`,
    // WhatsApp Cloud API connections: Meta's Graph API is the local fake (meta-fake.ts) unless set
    WHATSAPP_GRAPH_URL: process.env.WHATSAPP_GRAPH_URL || `${base}/@meta/v23.0`,
    // AI prompts and integrations: local fakes unless real providers are configured (see ai-fakes.ts)
    OPENAI_BASE_URL: process.env.OPENAI_BASE_URL || `${base}/@openai/v1`,
    DIALOGFLOW_API_URL: process.env.DIALOGFLOW_API_URL || `${base}/@dialogflow`,
    DIALOGFLOW_TOKEN_URL: process.env.DIALOGFLOW_TOKEN_URL || `${base}/@dialogflow/token`,
    // Web Push: the keys under the data folder; subscriptions may also name the local fake push service
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: process.env.VAPID_SUBJECT || `mailto:${opts.adminEmail ?? 'admin@admin.com'}`,
    PUSH_FAKE_ORIGIN: pushFake.origin,
    // the embedded search index persists beside the table (in memory without a data folder)
    SEARCH_DIR: dataDir ? join(dataDir, 'search') : '',
    RATE_LIMIT_EXEMPT_ADDRESSES: (opts.rateLimitExemptAddresses ?? []).join(','),
    ...(opts.sessionCacheSeconds !== undefined ? { SESSION_CACHE_SECONDS: String(opts.sessionCacheSeconds) } : {}),
    ...(opts.passwordHashCost !== undefined ? { PASSWORD_HASH_COST: String(opts.passwordHashCost) } : {}),
    LOG_LEVEL: opts.logLevel ?? process.env.LOG_LEVEL ?? 'warn',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    ...Object.fromEntries(
      manifest.queues.flatMap((q) => [
        [`QUEUE_URL_${q.name.toUpperCase().replace(/-/g, '_')}`, `${base}/@sqs/${q.name}`],
        [`DLQ_URL_${q.name.toUpperCase().replace(/-/g, '_')}`, `${base}/@sqs/${q.name}${DEAD_LETTERS}`],
      ]),
    ),
  });

  // The runners start while the rest of the stack loads; their queue polls retry until the gateway listens.
  const provider = opts.whatsappProvider ?? process.env.WHATSAPP_PROVIDER ?? 'simulator';
  const withRunners = opts.sessionRunner !== false;
  const stopTimeoutSeconds = opts.stopTimeoutSeconds ?? Number(process.env.STOP_TIMEOUT_SECONDS || 20);
  const simDir = mkdtempSync(join(tmpdir(), 'inbox-sim-'));
  // the simulated phones live here, outside the runners: a killed runner loses nothing they hold
  const hub: RunningHub | undefined =
    withRunners && provider === 'simulator'
      ? await startSimulatorHub({
          sentLog: join(simDir, 'sent.jsonl'),
          qrIntervalMs: Number(process.env.SIMULATOR_QR_INTERVAL_MS || 30_000),
        })
      : undefined;
  const runners: LocalRunner[] = [];
  const external = new Map<string, ExternalConsumer>();
  const spawnRunner = async () => {
    const index = runners.length;
    const id = `local-${process.pid}-${index + 1}`;
    const runner = startSessionRunner({
      root: ROOT,
      provider,
      id,
      apiPort: await freePort(),
      stopTimeoutSeconds,
      env: {
        // the runner's receives name it, so a kill hands back only its own messages
        [queueEnvName(SESSION_COMMANDS)]: `${base}/@sqs/${id}/${SESSION_COMMANDS}`,
        ...(hub ? { SIMULATOR_HUB_URL: hub.url } : {}),
        ...(opts.healthOnDemand ? { HEALTH_PROBE_MS: '0' } : {}),
        ...opts.runnerEnv?.(index),
      },
      onKilled: () => {
        for (const e of external.values()) e.abandonLeases(id);
      },
    });
    runners.push(runner);
    return runner;
  };
  const runnerCount = withRunners ? (opts.runners ?? Number(process.env.RUNNERS || 1)) : 0;
  for (let i = 0; i < runnerCount; i++) await spawnRunner();

  const routes: GatewayRoute[] = [];
  for (const mod of manifest.http) {
    const handler = await importHandler<HttpHandler>(`http/${mod.name}`);
    for (const routeKey of mod.routes) routes.push({ routeKey: routeKey as RouteKey, handler });
  }
  const ws = {
    connect: await importHandler(manifest.ws.connect),
    disconnect: await importHandler(manifest.ws.disconnect),
    default: await importHandler(manifest.ws.default),
  };

  const queues = new Map<string, LocalQueue>();
  const faults = { injected: 0 };
  for (const def of manifest.queues) {
    let consumer: (event: SQSEvent) => Promise<unknown>;
    if (def.consumer === SESSION_RUNNER_CONSUMER) {
      const polled = new ExternalConsumer(def.visibilityTimeoutSeconds ?? 30);
      external.set(def.name, polled);
      consumer = polled.consumer;
    } else consumer = await importHandler(def.consumer);
    if (opts.faultInjection?.queues.includes(def.name))
      consumer = withFaults(consumer, opts.faultInjection.failRate, faults);
    queues.set(
      def.name,
      new LocalQueue(
        def,
        consumer,
        (queue, message, error) =>
          console.error(
            JSON.stringify({
              level: 'error',
              msg: 'dead letter',
              queue,
              messageId: message.id,
              receiveCount: message.receiveCount,
              error,
            }),
          ),
        opts.retryBaseMs,
        // Lambda consumers run with bounded concurrency; so do local ones (DynamoDB Local would
        // otherwise take thousands of parallel requests under load). The runner polls at its own pace.
        def.consumer === SESSION_RUNNER_CONSUMER ? undefined : LOCAL_CONSUMER_CONCURRENCY,
      ),
    );
  }

  const timers = new Map<string, () => Promise<unknown>>();
  for (const def of manifest.timers) {
    const handler = await importHandler(def.handler);
    timers.set(def.name, () =>
      handler({ source: 'local.timer', 'detail-type': 'Scheduled Event', time: new Date().toISOString(), detail: {} }),
    );
  }
  const intervals =
    opts.timers === false
      ? []
      : manifest.timers.map((def) =>
          setInterval(
            () =>
              void timers.get(def.name)!().catch((err) =>
                console.error(
                  JSON.stringify({ level: 'error', msg: 'timer failed', timer: def.name, error: String(err) }),
                ),
              ),
            def.everyMinutes * 60_000,
          ),
        );

  const runTimer = async (name: string) => {
    const timer = timers.get(name);
    if (!timer) throw new Error(`no timer ${name}`);
    return timer();
  };
  /** With a company: its work and work no company owns only (LocalQueue.idle), not other companies'. */
  const idle = async (companyId?: string) => {
    // A consumer may enqueue into another queue: wait until a full pass finds every queue idle.
    const drained = (q: LocalQueue) => (companyId === undefined ? q.isDrained() : q.isDrainedFor(companyId));
    for (let pass = 0; pass < 50; pass++) {
      await Promise.all([...queues.values()].map((q) => q.idle(companyId)));
      await new Promise((r) => setTimeout(r, 5));
      if ([...queues.values()].every(drained)) return;
    }
  };

  const asaas = asaasFake(`${base}/api/payments/asaas/webhook`);
  const localEndpoints: Record<string, LocalEndpoint> = {
    '/@timers/': async (req, res) => {
      const name = decodeURIComponent(new URL(req.url!, base).pathname.slice('/@timers/'.length));
      const result = await runTimer(name);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, result: result ?? null }));
    },
    '/@mail': async (_req, res) => {
      const { localOutbox } = await import('../../functions/lib/mail');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(localOutbox));
    },
    '/@simulator/': (req, res, body) => {
      if (!hub) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return Promise.resolve(void res.end(JSON.stringify({ error: 'the simulator is not running' })));
      }
      return hub.hub.handle(req, res, body);
    },
    // payments: the sandbox provider's confirmation, and a fake Asaas (ASAAS_URL) that calls our webhook
    '/@payments/': async (req, res) => {
      const match = /^\/@payments\/([^/]+)\/confirm$/.exec(new URL(req.url!, base).pathname);
      const { confirmSandboxPayment } = await import('../../functions/lib/billing/payments');
      const outcome =
        match && req.method === 'POST' ? await confirmSandboxPayment(decodeURIComponent(match[1]!)) : null;
      res.writeHead(outcome && outcome !== 'unknown' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ outcome }));
    },
    '/@asaas/': asaas,
    // Meta's Graph API for Cloud API connections (WHATSAPP_GRAPH_URL), whose test hooks call our webhook
    '/@meta/': metaFake(base, `${base}/api/webhooks/whatsapp-cloud`),
    '/@openai/': openAiFake(),
    '/@typebot/': typebotFake(),
    '/@webhook/': webhookFake(),
    '/@dialogflow/': dialogflowFake(`${base}/@dialogflow/token`),
    '/@push/': pushFake.control,
    // one health tick on every runner now (a stack with healthOnDemand probes only then)
    '/@runners/health-check': async (_req, res) => {
      await Promise.all(runners.map((r) => r.checkHealth()));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true }));
    },
    // tests: a queue's delayed messages arrive now (`?queue=<name>`), as if its delays had passed
    '/@queues/release-delayed': async (req, res) => {
      const queue = queues.get(new URL(req.url!, base).searchParams.get('queue') ?? '');
      res.writeHead(queue ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(queue ? { released: queue.releaseDelayed() } : { error: 'no such queue' }));
    },
    '/@queues/idle': async (req, res) => {
      await idle(new URL(req.url!, base).searchParams.get('companyId') ?? undefined);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          ok: true,
          deadLetters: Object.fromEntries([...queues].map(([n, q]) => [n, q.deadLetters.length])),
          // every arrival in the dead letters, redriven ones included: a redrive shows as a new arrival
          deadLettered: Object.fromEntries([...queues].map(([n, q]) => [n, q.deadLettered])),
        }),
      );
    },
  };

  const gateway = await startGateway({
    port,
    host: opts.host,
    routes,
    ws,
    webDir: opts.webDir ?? (process.env.WEB_DIST || join(ROOT, 'web', 'dist')),
    webConfig: { apiUrl: '/api', wsUrl: '/ws', version: '6.0.0' },
    localEndpoints,
    trustForwardedFor: opts.trustForwardedFor,
    onSqsSend: (input) => {
      const name = input.QueueUrl.split('/').pop()!;
      const queue = queues.get(name);
      if (!queue) throw new Error(`unknown queue ${input.QueueUrl}`);
      return queue.send(input.MessageBody, {
        groupId: input.MessageGroupId,
        dedupId: input.MessageDeduplicationId,
        delaySeconds: input.DelaySeconds,
      });
    },
    onSqsAction: async (action, input) => {
      // the fleet view: depths, and the redrive of dead letters (`<queue>-dlq` names a queue's dead letters)
      if (action === 'GetQueueAttributes') {
        const name = String(input.QueueUrl ?? '')
          .split('/')
          .pop()!;
        const dead = name.endsWith(DEAD_LETTERS);
        const queue = queues.get(dead ? name.slice(0, -DEAD_LETTERS.length) : name);
        if (!queue) throw new Error(`unknown queue ${input.QueueUrl}`);
        const counts = queue.counts();
        return {
          Attributes: {
            QueueArn: `arn:aws:sqs:local:000000000000:${name}`,
            ApproximateNumberOfMessages: String(dead ? counts.deadLetters : counts.visible),
            ApproximateNumberOfMessagesNotVisible: String(dead ? 0 : counts.notVisible),
            ApproximateNumberOfMessagesDelayed: String(dead ? 0 : counts.delayed),
          },
        };
      }
      if (action === 'StartMessageMoveTask') {
        const source = String(input.SourceArn ?? '')
          .split(':')
          .pop()!;
        const queue = source.endsWith(DEAD_LETTERS) && queues.get(source.slice(0, -DEAD_LETTERS.length));
        if (!queue) throw new Error(`unknown dead-letter queue ${input.SourceArn}`);
        queue.redrive();
        return { TaskHandle: `local-${source}-${Date.now()}` };
      }
      // `.../@sqs/<runner id>/<queue>`: the runner's own URL of the queue
      const [consumerId, name] = String(input.QueueUrl ?? '')
        .split('/')
        .slice(-2);
      const polled = external.get(name!);
      if (!polled) throw new Error(`queue ${input.QueueUrl} is not polled externally`);
      if (action === 'ReceiveMessage') {
        const got = await polled.receive(
          input.MaxNumberOfMessages ?? 1,
          input.WaitTimeSeconds ?? 0,
          input.VisibilityTimeout,
          consumerId,
        );
        return {
          Messages: got.map(({ record, receiptHandle }) => ({
            MessageId: record.messageId,
            ReceiptHandle: receiptHandle,
            MD5OfBody: record.md5OfBody,
            Body: record.body,
            Attributes: record.attributes,
          })),
        };
      }
      if (action === 'DeleteMessage') return void polled.delete(String(input.ReceiptHandle));
      if (action === 'ChangeMessageVisibility')
        return void polled.changeVisibility(String(input.ReceiptHandle), Number(input.VisibilityTimeout ?? 0));
      throw new Error(`unsupported action ${action}`);
    },
  });

  // the table's change stream -> its consumers (the search index), as the Lambdas on the stream on AWS
  const streamPollers = await Promise.all(
    (opts.streams === false ? [] : manifest.streamConsumers).map(async (def) => {
      const consumer = await importHandler(def.handler);
      return startStreamPoller({
        endpoint: dynamo.endpoint,
        tableName,
        batchSize: def.batchSize,
        consumer,
        onError: (error) =>
          console.error(
            JSON.stringify({ level: 'error', msg: 'stream consumer failed', consumer: def.name, error: String(error) }),
          ),
      });
    }),
  );

  const seed = await importHandler('jobs/seed');
  await seed({ adminEmail: opts.adminEmail ?? 'admin@admin.com', adminPassword: opts.adminPassword ?? 'admin123' });
  await Promise.all(runners.map((r) => r.ready));

  return {
    url: gateway.url,
    queues,
    runTimer,
    runner: runners[0],
    runners,
    async addRunner() {
      const runner = await spawnRunner();
      await runner.ready;
      return runner;
    },
    simulator: hub?.hub,
    faults,
    idle,
    async stop() {
      intervals.forEach(clearInterval);
      await Promise.all(runners.map((r) => r.stop()));
      await hub?.close();
      rmSync(simDir, { recursive: true, force: true });
      for (const q of queues.values()) q.stop();
      for (const e of external.values()) e.stop();
      await Promise.all(streamPollers.map((p) => p.stop()));
      closeSearch();
      await gateway.close();
      // what requests left running after their answers (an unread reset) ends before the table stops
      await answeredWorkSettled();
      await pushFake.close();
      await s3.stop();
      if (!dataDir) rmSync(s3Dir, { recursive: true, force: true });
      await dynamo.stop();
    },
  };
}
