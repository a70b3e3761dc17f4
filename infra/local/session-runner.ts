import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from './ports';

export interface SessionRunnerChild {
  /** where the runner's local-only simulator endpoints listen */
  simulatorUrl: string;
  /** resolves when the runner answers on its simulator port */
  ready: Promise<void>;
  /** tests: ends the runner as a crash does (SIGKILL: no clean shutdown, leases and sockets left as they were) */
  kill(): Promise<void>;
  /** tests: starts it again after `kill()`, same id and port; resolves when it answers */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Runs `session-runner/src/main.ts` as a child process with the stack's environment (same
 * table, bucket, queue URLs and SQS endpoint as the functions), as on AWS the Fargate task does.
 * tsx is loaded into this Node binary with `--import` (no npx, no tsx CLI: one process, so a
 * SIGKILL ends the runner itself, not a wrapper that leaves it orphaned).
 * With RUNNER_BUNDLE (the output of `npm run build:runner`) it runs that bundle with plain `node`,
 * as the container image does. The simulated phones write what they receive to a file of the
 * stack's, so a killed runner's successor (and the tests) still see every send.
 */
export async function startSessionRunner(opts: { root: string; provider: string }): Promise<SessionRunnerChild> {
  const port = await freePort();
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
  const phoneDir = mkdtempSync(join(tmpdir(), 'inbox-sim-'));
  const simulatorUrl = `http://127.0.0.1:${port}`;
  let child: ChildProcess;
  let exited = false;
  let exit = Promise.resolve();
  let ready = Promise.resolve();

  const spawnChild = () => {
    child = spawn(process.execPath, args, {
      cwd: opts.root,
      env: {
        ...process.env,
        WHATSAPP_PROVIDER: opts.provider,
        SIMULATOR_PORT: String(port),
        SIMULATOR_SENT_LOG: join(phoneDir, 'sent.jsonl'),
        RUNNER_ID: `local-${process.pid}`,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    exited = false;
    exit = new Promise<void>((done) =>
      child.once('exit', () => {
        exited = true;
        done();
      }),
    );
    ready = (async () => {
      for (let i = 0; i < 300 && !exited; i++) {
        const ok = await fetch(`${simulatorUrl}/@simulator/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(exited ? 'the session runner exited at start' : 'the session runner did not start');
    })();
    ready.catch(() => undefined);
  };
  const kill = () => {
    if (!exited) child.kill('SIGTERM');
  };
  process.once('exit', kill);
  spawnChild();

  return {
    simulatorUrl,
    get ready() {
      return ready;
    },
    async kill() {
      if (!exited) child.kill('SIGKILL');
      await exit;
    },
    async start() {
      if (!exited) throw new Error('the session runner is running');
      spawnChild();
      await ready;
    },
    async stop() {
      process.removeListener('exit', kill);
      kill();
      const timer = setTimeout(() => !exited && child.kill('SIGKILL'), 5000);
      await exit;
      clearTimeout(timer);
      rmSync(phoneDir, { recursive: true, force: true });
    },
  };
}

/** Forwards a request (already read into `body`) to the runner's local endpoint. */
export function proxyTo(target: string, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
  return new Promise((done) => {
    const url = new URL(req.url ?? '/', target);
    const upstream = http.request(
      url,
      { method: req.method, headers: { ...req.headers, host: url.host, 'content-length': String(body.length) } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => done());
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'session runner unreachable', message: err.message }));
      done();
    });
    upstream.end(body);
  });
}
