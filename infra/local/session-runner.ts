import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface RunnerHealth {
  runnerId: string;
  state: string;
  sessions: number;
  /** of those, connected (absent while the runner starts) */
  connected?: number;
  rss: number;
  /** since the process started: stale auth writes refused, undecryptable messages, journal bypasses */
  counters?: { staleWritesRefused: number; undecryptable: number; journalBypasses: number };
}

export interface SessionRunnerChild {
  /** its RUNNER_ID, kept across restarts of this child */
  readonly id: string;
  /** its runner API (health, commands forwarded by peers) */
  readonly apiUrl: string;
  /** resolves when the runner answers on its API */
  readonly ready: Promise<void>;
  readonly running: boolean;
  /** its process id while it runs (benchmarks read its memory from /proc/<pid>/status) */
  readonly pid: number | undefined;
  /** tests: ends the runner as a crash does (SIGKILL: no drain, sockets and ownership left as they were) */
  kill(): Promise<void>;
  /** a deploy: SIGTERM, then waits for the runner to hand its work over and exit; how it ended and how long it took */
  terminate(): Promise<{ code: number | null; seconds: number }>;
  /** starts it again after `kill()` or `terminate()`, same id and port; resolves when it answers */
  start(): Promise<void>;
  /** its own report (GET /health on the runner API), undefined when it does not answer */
  health(): Promise<RunnerHealth | undefined>;
  /** one health tick now: every connected session probed, silent ones restarted (POST /health-check) */
  checkHealth(): Promise<void>;
  /** stack shutdown: SIGTERM, SIGKILL if it outlives its stop timeout */
  stop(): Promise<void>;
}

export interface SessionRunnerOptions {
  root: string;
  provider: string;
  id: string;
  apiPort: number;
  /** extra environment (queue URL tagged with the runner, the simulator hub, stop timeout) */
  env: Record<string, string>;
  stopTimeoutSeconds: number;
  /** after a SIGKILL: what the dead process held comes back (the local SQS' receipts) */
  onKilled?: () => void;
}

/**
 * Runs `session-runner/src/main.ts` as a child process with the stack's environment (same
 * table, bucket, queue URLs and SQS endpoint as the functions), as on AWS a Fargate task does; the
 * stack starts one per RUNNERS. tsx is loaded into this Node binary with `--import` (no npx, no
 * tsx CLI: one process, so a SIGKILL ends the runner itself, not a wrapper that leaves it orphaned).
 * With RUNNER_BUNDLE (the output of `npm run build:runner`) it runs that bundle with plain `node`,
 * as the container image does.
 */
export function startSessionRunner(opts: SessionRunnerOptions): SessionRunnerChild {
  const bundle = process.env.RUNNER_BUNDLE;
  // a test run with a fixed "today" (TEST_NOW) moves the runner's clock with the stack's
  const clock = process.env.TEST_CLOCK_OFFSET_MS
    ? ['--import', pathToFileURL(join(opts.root, 'infra/local/clock-shift.mjs')).href]
    : [];
  const args = bundle
    ? [...clock, '--enable-source-maps', join(opts.root, bundle)]
    : [
        ...clock,
        '--import',
        pathToFileURL(createRequire(join(opts.root, 'package.json')).resolve('tsx')).href,
        join(opts.root, 'session-runner/src/main.ts'),
      ];
  const apiUrl = `http://127.0.0.1:${opts.apiPort}`;
  // the runner's API token, known here so that the stack can ask it for a health tick
  const token = randomBytes(16).toString('hex');
  let child: ChildProcess;
  let exited = true;
  let exitCode: number | null = null;
  let exit = Promise.resolve();
  let ready = Promise.resolve();

  const spawnChild = () => {
    child = spawn(process.execPath, args, {
      cwd: opts.root,
      env: {
        ...process.env,
        ...opts.env,
        WHATSAPP_PROVIDER: opts.provider,
        RUNNER_ID: opts.id,
        RUNNER_API_PORT: String(opts.apiPort),
        RUNNER_API_TOKEN: token,
        STOP_TIMEOUT_SECONDS: String(opts.stopTimeoutSeconds),
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    exited = false;
    exit = new Promise<void>((done) =>
      child.once('exit', (code) => {
        exited = true;
        exitCode = code;
        done();
      }),
    );
    ready = (async () => {
      for (let i = 0; i < 600 && !exited; i++) {
        const ok = await fetch(`${apiUrl}/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(exited ? `session runner ${opts.id} exited at start` : `session runner ${opts.id} did not start`);
    })();
    ready.catch(() => undefined);
  };
  const killOnExit = () => {
    if (!exited) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  spawnChild();

  const terminate = async () => {
    const started = Date.now();
    if (exited) return { code: exitCode, seconds: 0 };
    child.kill('SIGTERM');
    const timer = setTimeout(() => !exited && child.kill('SIGKILL'), (opts.stopTimeoutSeconds + 5) * 1000);
    await exit;
    clearTimeout(timer);
    return { code: exitCode, seconds: (Date.now() - started) / 1000 };
  };

  return {
    id: opts.id,
    apiUrl,
    get ready() {
      return ready;
    },
    get running() {
      return !exited;
    },
    get pid() {
      return exited ? undefined : child.pid;
    },
    async kill() {
      if (!exited) child.kill('SIGKILL');
      await exit;
      opts.onKilled?.();
    },
    terminate,
    async start() {
      if (!exited) throw new Error(`session runner ${opts.id} is running`);
      spawnChild();
      await ready;
    },
    health: () =>
      fetch(`${apiUrl}/health`, { signal: AbortSignal.timeout(2000) }).then(
        async (r) => (r.ok ? ((await r.json()) as RunnerHealth) : undefined),
        () => undefined,
      ),
    async checkHealth() {
      if (exited) return;
      const res = await fetch(`${apiUrl}/health-check`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      if (!res.ok) throw new Error(`session runner ${opts.id} health check: ${res.status}`);
    },
    async stop() {
      process.removeListener('exit', killOnExit);
      await terminate();
    },
  };
}
