// The bench's clients (tests/bench/run.ts), on a thread of their own: the process under test runs
// the gateway and handlers on its main thread, as a server does, and the clients do not share its
// event loop (their waits would count in its latencies and their work in its CPU profile).
// Plain JavaScript: a worker thread does not inherit tsx's loader.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * workerData: { base, concurrency, warmup, seconds, load: { method, token, body?, paths, order, cursor } }
 * - paths: the request paths; order 'random' picks one per request, 'cycle' takes them in turn from cursor
 *   and starts over past the last one.
 * Posts { warm: requests of each untimed second } and 'timed' when the untimed warm-up ends, then
 * { latencies, errors, slowest: [ms, endedAtMs][], cursor, repeated }: repeated counts the timed
 * requests of a 'cycle' that went to a path a second time (a pending ticket accepted again).
 */
const { base, concurrency, warmup, seconds, load } = workerData;
let cursor = load.cursor ?? 0;
let timed = false;
let repeated = 0;
const nextPath = () => {
  if (load.order !== 'cycle') return load.paths[Math.floor(Math.random() * load.paths.length)];
  if (timed && cursor >= load.paths.length) repeated++;
  return load.paths[cursor++ % load.paths.length];
};
const headers = {
  authorization: `Bearer ${load.token}`,
  ...(load.body ? { 'content-type': 'application/json' } : {}),
};
const body = load.body ? JSON.stringify(load.body) : undefined;

// node:http on kept-alive sockets, one per client, lighter than fetch: the clients share the two
// cores with the server and DynamoDB Local
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const target = new URL(base);

function once() {
  return new Promise((done) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + nextPath(),
        method: load.method,
        headers,
        agent,
      },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => done(res.statusCode ?? 599));
        res.on('error', () => done(599));
      },
    );
    req.on('error', () => done(599));
    req.end(body);
  });
}

async function clients(until, each) {
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < until) {
        const t0 = performance.now();
        const status = await once();
        each?.(performance.now() - t0, status);
      }
    }),
  );
}

// untimed warm-up: requests per second of each second, for the bench to print (BENCH_TRACE)
const warmStart = Date.now();
let warmDone = 0;
const perSecond = [];
const tick = setInterval(() => {
  perSecond.push(warmDone);
  warmDone = 0;
}, 1000);
await clients(warmStart + warmup * 1000, () => warmDone++);
clearInterval(tick);
parentPort.postMessage({ warm: perSecond });
parentPort.postMessage('timed');
timed = true;
const latencies = [];
const slowest = [];
let errors = 0;
await clients(Date.now() + seconds * 1000, (ms, status) => {
  latencies.push(ms);
  slowest.push([ms, Date.now()]);
  if (status >= 400) errors++;
});
slowest.sort((a, b) => b[0] - a[0]);
parentPort.postMessage({ latencies, errors, slowest: slowest.slice(0, 50), cursor, repeated });
