/**
 * The session runner's memory (issue 23): one runner process holds SESSIONS simulated sessions while
 * customers write (each from its own number, many per session) and attendants send, for MINUTES of
 * wall time. The runner's resident memory (VmRSS in /proc/<pid>/status) is sampled every few
 * seconds; nothing is forced (no GC call, no heap snapshot). Prints the RSS before any session, after
 * pairing, per session, at each minute of traffic (the median of its samples: one GC spike does not
 * move it), and its growth from the first minute to the last (MB, and MB per hour from those two
 * minutes and from a least-squares line through every sample),
 * the messages processed, and whether any was lost or doubled: every customer message taken by the
 * runner onto the inbound queue, every send on the phone once, and the stored conversations of a
 * sample of customers. Exits 1 only on a broken run (the stack or the runner failed, a session lost,
 * a message lost or doubled), never on a memory figure.
 *
 *   npx tsx tests/bench/runner-memory.ts [minutes] [messages/s] [sessions]
 *   npm run bench -- runner-memory [minutes] [messages/s] [sessions]
 * Defaults: 60 minutes, 10 customer messages a second, 500 sessions. Env: BENCH_MINUTES, BENCH_RATE,
 * BENCH_SESSIONS (same meaning), BENCH_SENDS (attendant sends a second, default 1),
 * BENCH_CUSTOMERS (customers per session, default 20, at most 1,000), BENCH_SAMPLE_SECONDS (default 5),
 * BENCH_CHECK_CUSTOMERS (customers whose stored conversation is checked, default 100),
 * BENCH_CSV (a file to write every sample to). The runner probes and reports health at the AWS
 * timings (HEALTH_PROBE_MS etc. override them). RUNNER_BUNDLE=dist/session-runner/main.mjs runs the
 * runner as the container does (`npm run build:runner` first) instead of tsx over the sources.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { startStack } from '../../infra/local/stack';
import { DEFAULT_HEALTH } from '../../session-runner/src/health';
import { ACCESS_TOKEN_SECONDS } from '../../shared/constants';
import { INBOUND_QUEUE } from '../../shared/whatsapp-protocol';
import {
  type Call,
  conversation,
  fleetStackOptions,
  type ListedMessage,
  mb,
  paced,
  pairSessions,
  pool,
  sleep,
  ticketsByNumber,
  waitFor,
} from '../fault/fleet-setup';

// The runner's health timings as on AWS: with the simulator it probes every 2 s and reports every
// second (tests see a silent socket at once): at 500 sessions about a hundred health events a second.
process.env.HEALTH_PROBE_MS ??= String(DEFAULT_HEALTH.probeEveryMs);
process.env.HEALTH_PROBE_TIMEOUT_MS ??= String(DEFAULT_HEALTH.probeTimeoutMs);
process.env.HEALTH_REPORT_MS ??= String(DEFAULT_HEALTH.reportEveryMs);

const arg = (i: number, env: string, fallback: number) => Number(process.argv[i] ?? process.env[env] ?? fallback);
const MINUTES = arg(2, 'BENCH_MINUTES', 60);
const RATE = arg(3, 'BENCH_RATE', 10);
const SESSIONS = arg(4, 'BENCH_SESSIONS', 500);
const SENDS = Number(process.env.BENCH_SENDS ?? 1);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 20);
if (CUSTOMERS > 1_000)
  throw new Error('BENCH_CUSTOMERS: at most 1,000 customers per session (their numbers have 3 digits for it)');
const SAMPLE_SECONDS = Number(process.env.BENCH_SAMPLE_SECONDS ?? 5);
const CHECK_CUSTOMERS = Number(process.env.BENCH_CHECK_CUSTOMERS ?? 100);
/** how long the API may take to store its backlog before the sampled conversations count as final */
const DRAIN_LIMIT_MS = 20 * 60_000;

interface Sample {
  /** ms since the run began */
  at: number;
  phase: 'idle' | 'pairing' | 'paired' | 'first-messages' | 'traffic' | 'settling';
  rss: number;
  /** customer messages the runner had taken onto the queue by then */
  handed: number;
  sends: number;
}

const began = Date.now();
const say = (line: string) => console.log(`[${((Date.now() - began) / 1000).toFixed(0)} s] ${line}`);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** the middle sample: a minute's figure that one GC spike does not move */
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const MB = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** VmRSS of a process, in bytes; undefined once it is gone. */
function vmRss(pid: number | undefined) {
  if (!pid) return undefined;
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Slope of the least-squares line through (x, y). */
function slope(points: [number, number][]) {
  const mx = mean(points.map((p) => p[0]));
  const my = mean(points.map((p) => p[1]));
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den ? num / den : 0;
}

const problems: string[] = [];
const stack = await startStack(fleetStackOptions(1));
const runner = stack.runners[0]!;
const samples: Sample[] = [];
let phase: Sample['phase'] = 'idle';
let handed = () => 0;
let sendsPosted = 0;
let runnerDied = false;
const sampleNow = () => {
  const rss = vmRss(runner.pid);
  if (rss === undefined) {
    runnerDied = true;
    return;
  }
  samples.push({ at: Date.now() - began, phase, rss, handed: handed(), sends: sendsPosted });
};
const sampler = setInterval(sampleNow, SAMPLE_SECONDS * 1000);
const samplesOf = (p: Sample['phase']) => samples.filter((s) => s.phase === p);

try {
  say(
    `runner ${runner.id} (pid ${runner.pid}, ${process.env.RUNNER_BUNDLE ? `bundle ${process.env.RUNNER_BUNDLE}` : 'tsx over the sources'}); ` +
      `${SESSIONS} sessions, ${RATE} customer messages/s from ${SESSIONS * CUSTOMERS} customers, ${SENDS} sends/s, ${MINUTES} min`,
  );
  // ---- the runner with no session: a few samples
  await sleep(Math.max(3, 3 * SAMPLE_SECONDS) * 1000);
  const idleRss = mean(samplesOf('idle').map((s) => s.rss));
  say(`RSS with no session: ${MB(idleRss)} MB`);

  // ---- pairing
  phase = 'pairing';
  const fleet = await pairSessions(stack, SESSIONS, { connectedWithinMs: 600_000 });
  const { call, companyId, connections, report, allConnected } = fleet;
  // an access token lasts 15 minutes: the hour's attendants sign in again well before it runs out
  let token = fleet.token;
  const signInAgain = setInterval(
    () =>
      void fleet.signIn().then(
        (fresh) => {
          token = fresh;
        },
        (err: Error) => say(`signing in again failed: ${err.message}`),
      ),
    (ACCESS_TOKEN_SECONDS * 1000) / 3,
  );
  const pending = () => report().reduce((n, r) => n + r.pending, 0);
  say(`${connections.length} sessions paired and connected`);
  await waitFor(
    'the runner holding every session',
    async () => (await runner.health())?.sessions === SESSIONS,
    120_000,
  );
  phase = 'paired';
  await sleep(Math.max(30, 6 * SAMPLE_SECONDS) * 1000);
  const pairedRss = mean(samplesOf('paired').map((s) => s.rss));
  phase = 'first-messages';
  say(
    `RSS after pairing: ${MB(pairedRss)} MB, ${((pairedRss - idleRss) / 1024 / SESSIONS).toFixed(0)} KB per session above the empty runner`,
  );

  // ---- customers: session s has customers 0..CUSTOMERS-1, each its own number
  const numberOf = (s: number, c: number) => `55117${String(s).padStart(4, '0')}${String(c).padStart(3, '0')}`;
  const widsOf = new Map<string, string[]>();
  let injected = 0;
  const write = async (s: number, c: number) => {
    const from = numberOf(s, c);
    const wids = widsOf.get(from) ?? [];
    widsOf.set(from, wids);
    const wid = `MEM${String(s).padStart(4, '0')}${String(c).padStart(4, '0')}N${String(wids.length).padStart(6, '0')}`;
    wids.push(wid);
    await call('POST', `/@simulator/sessions/${companyId}/${connections[s]}/messages`, {
      from,
      wid,
      body: `hello ${wid}`,
      pushName: `Customer ${s}-${c}`,
      queue: true,
    });
    injected++;
  };
  handed = () => injected - pending();

  // the first customer of each session writes first: the attendants answer their tickets
  await pool(
    connections.map((_, s) => s),
    16,
    (s) => write(s, 0),
  );
  await waitFor('the first messages on the queue', () => pending() === 0, 300_000);
  let ticketOf = new Map<string, number>();
  await waitFor(
    'a ticket for every first customer',
    async () => {
      await sleep(10_000);
      ticketOf = await ticketsByNumber(call, token);
      const have = connections.filter((_, s) => ticketOf.has(numberOf(s, 0))).length;
      say(`${have} of ${SESSIONS} first tickets stored; the API's inbound backlog ${backlog(INBOUND_QUEUE)}`);
      return have === SESSIONS;
    },
    900_000,
  );
  const answered = connections.map((_, s) => ticketOf.get(numberOf(s, 0))).filter((t): t is number => t !== undefined);
  say(`${answered.length} tickets to answer`);

  // ---- traffic: message n comes from session n % SESSIONS, each session's customers in turn
  phase = 'traffic';
  const trafficStart = Date.now();
  const beforeTraffic = injected;
  const trafficEnd = trafficStart + MINUTES * 60_000;
  const running = () => Date.now() < trafficEnd && !runnerDied;
  const errors = { writes: 0, sends: 0 };
  const posted: { id: string; wid: string; whatsappId: number; ticketId: number }[] = [];
  const ticketWhatsapp = new Map(connections.map((w, s) => [ticketOf.get(numberOf(s, 0)), w]));
  const minuteLog = setInterval(() => {
    const last = samples.at(-1);
    if (!last) return;
    const minute = Math.round((Date.now() - trafficStart) / 60_000);
    say(
      `minute ${minute}: RSS ${MB(last.rss)} MB, ${injected} customer messages (${last.handed} taken by the runner), ${sendsPosted} sends; the API's inbound backlog ${backlog(INBOUND_QUEUE)}`,
    );
  }, 60_000);
  const writers = paced(
    RATE,
    (n) => write(n % SESSIONS, Math.floor(n / SESSIONS) % CUSTOMERS),
    running,
    (err) => {
      if (errors.writes++ < 5) say(`customer message failed: ${err.message}`);
    },
  );
  const senders =
    SENDS > 0 && answered.length
      ? paced(
          SENDS,
          async (n) => {
            const ticketId = answered[n % answered.length]!;
            const message = await call<{ id: string; wid: string }>(
              'POST',
              `/api/messages/${ticketId}`,
              { body: `reply ${n}` },
              token,
            );
            posted.push({ ...message, whatsappId: ticketWhatsapp.get(ticketId)!, ticketId });
            sendsPosted++;
          },
          running,
          (err) => {
            if (errors.sends++ < 5) say(`send failed: ${err.message}`);
          },
        )
      : Promise.resolve();
  await Promise.all([writers, senders]);
  clearInterval(minuteLog);
  const trafficSeconds = (Date.now() - trafficStart) / 1000;
  phase = 'settling';
  say(`traffic stopped after ${trafficSeconds.toFixed(0)} s: ${injected} customer messages, ${posted.length} sends`);
  if (runnerDied) problems.push('the runner process ended during the run');
  if (errors.writes) problems.push(`${errors.writes} customer messages refused by the simulator`);
  if (errors.sends) problems.push(`${errors.sends} sends refused by the API`);

  // ---- lost or doubled: on the queue (runner), on the phone (sends), stored (a sample of customers)
  await waitFor('every customer message on the queue', () => pending() === 0, 180_000).catch(() => undefined);
  const notHanded = pending();
  const onPhone = () => {
    const have = new Map<string, number>();
    for (const w of connections)
      for (const o of (stack.simulator!.snapshot(companyId, w) as { outbound: { wid: string }[] }).outbound)
        have.set(o.wid, (have.get(o.wid) ?? 0) + 1);
    return have;
  };
  await waitFor('every send on the phone', () => posted.every((p) => onPhone().has(p.wid)), 180_000).catch(
    () => undefined,
  );
  const phone = onPhone();
  const resent = connections.reduce(
    (n, w) => n + (stack.simulator!.snapshot(companyId, w) as { repeats: number }).repeats,
    0,
  );
  const missing = posted.filter((p) => !phone.has(p.wid));
  const failedVisibly = await countFailed(call, token, missing);
  const sends = {
    posted: posted.length,
    onPhone: posted.length - missing.length,
    failedVisibly,
    lost: missing.length - failedVisibly,
    doubled: [...phone.values()].reduce((n, c) => n + c - 1, 0),
    resentSameId: resent,
  };
  // the API stores the backlog at its own pace: the sampled conversations are read until complete
  let stored = await checkStored(call, token, widsOf, CHECK_CUSTOMERS);
  const storing = Date.now();
  while (stored.lost && Date.now() - storing < DRAIN_LIMIT_MS) {
    await sleep(30_000);
    stored = await checkStored(call, token, widsOf, CHECK_CUSTOMERS);
  }
  const inboundLeft = backlog(INBOUND_QUEUE);
  const health = await runner.health();
  const connectedAtEnd = allConnected() && health?.sessions === SESSIONS && health.connected === SESSIONS;
  const deadLetters = Object.fromEntries([...stack.queues].map(([name, q]) => [name, q.deadLetters.length]));
  clearInterval(sampler);
  clearInterval(signInAgain);

  if (notHanded) problems.push(`${notHanded} customer messages never taken onto the queue by the runner`);
  if (sends.lost || sends.doubled) problems.push(`sends lost ${sends.lost}, doubled ${sends.doubled}`);
  // a message still on the queue is late, not lost
  if (stored.doubled || (stored.lost && !inboundLeft))
    problems.push(`stored conversations: lost ${stored.lost}, doubled ${stored.doubled}`);
  if (!connectedAtEnd)
    problems.push(`sessions at the end: ${health?.connected ?? '?'} connected of ${health?.sessions ?? '?'} held`);
  const deadTotal = Object.values(deadLetters).reduce((a, b) => a + b, 0);
  if (deadTotal) problems.push(`dead letters ${JSON.stringify(deadLetters)}`);

  // ---- memory figures
  const traffic = samplesOf('traffic');
  const minutes = new Map<number, Sample[]>();
  for (const s of traffic) {
    const minute = Math.floor((s.at - (trafficStart - began)) / 60_000);
    minutes.set(minute, [...(minutes.get(minute) ?? []), s]);
  }
  // a minute counts when it is whole (the last may be cut short)
  const whole = [...minutes].filter(([m]) => (m + 1) * 60 <= trafficSeconds + SAMPLE_SECONDS);
  const rows = whole.map(([m, xs]) => ({
    minute: m + 1,
    median: median(xs.map((x) => x.rss)),
    min: Math.min(...xs.map((x) => x.rss)),
    max: Math.max(...xs.map((x) => x.rss)),
    handed: xs.at(-1)!.handed,
    sends: xs.at(-1)!.sends,
  }));
  const first = rows[0];
  const last = rows.at(-1);
  const growthMb = first && last ? (last.median - first.median) / 1024 / 1024 : 0;
  const spanHours = first && last ? (last.minute - first.minute) / 60 : 0;
  const fitted = traffic.length > 2 ? slope(traffic.map((s) => [s.at / 3_600_000, s.rss / 1024 / 1024])) : 0;
  const peak = Math.max(...samples.map((s) => s.rss));

  console.log('\nminute | RSS MB (median) | min | max | customer messages on the queue | sends');
  console.log('---|---|---|---|---|---');
  for (const r of rows)
    console.log(`${r.minute} | ${MB(r.median)} | ${MB(r.min)} | ${MB(r.max)} | ${r.handed} | ${r.sends}`);
  const lines = [
    `runner: ${process.env.RUNNER_BUNDLE ? `bundle ${process.env.RUNNER_BUNDLE}` : 'tsx over the sources'}, provider simulator, one process`,
    `sessions ${SESSIONS}; customers ${SESSIONS * CUSTOMERS} (${CUSTOMERS} per session); traffic ${trafficSeconds.toFixed(0)} s at ${RATE} customer messages/s and ${SENDS} sends/s`,
    `RSS with no session ${MB(idleRss)} MB; after pairing ${MB(pairedRss)} MB (${(pairedRss / 1024 / SESSIONS).toFixed(0)} KB per session in all, ${((pairedRss - idleRss) / 1024 / SESSIONS).toFixed(0)} KB per session above the empty runner)`,
    last
      ? `RSS at the end of traffic ${MB(last.median)} MB (${((last.median - idleRss) / 1024 / SESSIONS).toFixed(0)} KB per session above the empty runner); peak ${MB(peak)} MB`
      : `RSS peak ${MB(peak)} MB (no whole minute of traffic)`,
    spanHours > 0
      ? `growth from minute ${first!.minute} to minute ${last!.minute}: ${growthMb.toFixed(1)} MB, ${(growthMb / spanHours).toFixed(1)} MB/hour; least-squares over every traffic sample: ${fitted.toFixed(1)} MB/hour` +
        (trafficSeconds < 15 * 60 ? ' (too short a run to tell a leak from the GC sawtooth)' : '')
      : `growth: fewer than two whole minutes of traffic (least-squares over the samples: ${fitted.toFixed(1)} MB/hour)`,
    `customer messages: injected ${injected} (${beforeTraffic} first ones, then ${((injected - beforeTraffic) / trafficSeconds).toFixed(1)}/s), taken onto the queue by the runner ${injected - notHanded}`,
    `sends: posted ${sends.posted}, on the phone ${sends.onPhone}, failed visibly ${sends.failedVisibly}, lost ${sends.lost}, doubled ${sends.doubled}, resent with the same id ${sends.resentSameId}`,
    `stored conversations of ${stored.customers} customers: ${stored.expected} messages expected, lost ${stored.lost}, doubled ${stored.doubled}` +
      (stored.lost && inboundLeft
        ? ` (not settled: ${inboundLeft} events still on the inbound queue after ${DRAIN_LIMIT_MS / 60_000} min)`
        : ''),
    `sessions at the end: ${health?.connected} connected of ${health?.sessions} held; dead letters ${JSON.stringify(deadLetters)}`,
    `${((Date.now() - began) / 1000).toFixed(0)} s in all`,
  ];
  console.log('');
  for (const line of lines) console.log(line);
  console.log(
    JSON.stringify({
      sessions: SESSIONS,
      minutes: MINUTES,
      rate: RATE,
      idleRssMb: mb(idleRss),
      pairedRssMb: mb(pairedRss),
      perSessionKb: Math.round((pairedRss - idleRss) / 1024 / SESSIONS),
      minuteRssMb: rows.map((r) => Number(MB(r.median))),
      growthMb: Number(growthMb.toFixed(1)),
      growthMbPerHour: spanHours > 0 ? Number((growthMb / spanHours).toFixed(1)) : null,
      fittedMbPerHour: Number(fitted.toFixed(1)),
      injected,
      sends,
      stored,
    }),
  );
  if (process.env.BENCH_CSV)
    writeFileSync(
      process.env.BENCH_CSV,
      `seconds,phase,rss_mb,handed,sends\n${samples.map((s) => `${(s.at / 1000).toFixed(1)},${s.phase},${MB(s.rss)},${s.handed},${s.sends}`).join('\n')}\n`,
    );
} catch (err) {
  problems.push(`the run failed: ${(err as Error).stack ?? err}`);
} finally {
  clearInterval(sampler);
  await stack.stop().catch((err) => problems.push(`stopping the stack failed: ${(err as Error).message}`));
}
for (const p of problems) console.log(`BROKEN: ${p}`);
process.exit(problems.length ? 1 : 0);

/** Messages on a queue of the stack, waiting or being worked on. */
function backlog(queue: string) {
  const c = stack.queues.get(queue)?.counts();
  return c ? c.visible + c.notVisible + c.delayed : 0;
}

/** Sends not on the phone that the attendant sees marked failed. */
async function countFailed(c: Call, token: string, missing: { id: string; ticketId: number }[]) {
  let failed = 0;
  for (const ticketId of new Set(missing.map((m) => m.ticketId))) {
    const byId = new Map((await conversation(c, token, ticketId)).map((m) => [m.id, m]));
    failed += missing.filter((m) => m.ticketId === ticketId && byId.get(m.id)?.error).length;
  }
  return failed;
}

/** The stored conversations of `count` customers spread over the run: each message written stored once. */
async function checkStored(c: Call, token: string, widsOf: Map<string, string[]>, count: number) {
  const all = [...widsOf.keys()];
  const step = Math.max(1, Math.floor(all.length / count));
  const chosen = all.filter((_, i) => i % step === 0).slice(0, count);
  let expected = 0;
  let lost = 0;
  let doubled = 0;
  await pool(chosen, 4, async (number) => {
    const found = await c<{ tickets: { id: number }[] }>(
      'GET',
      `/api/tickets?searchParam=${number}&showAll=true`,
      undefined,
      token,
    );
    const messages: ListedMessage[] = [];
    for (const t of found.tickets) messages.push(...(await conversation(c, token, t.id)));
    const counts = new Map<string, number>();
    for (const m of messages) if (!m.fromMe) counts.set(m.wid, (counts.get(m.wid) ?? 0) + 1);
    const wids = widsOf.get(number)!;
    expected += wids.length;
    lost += wids.filter((w) => !counts.has(w)).length;
    doubled += wids.reduce((n, w) => n + Math.max(0, (counts.get(w) ?? 0) - 1), 0);
  });
  return { customers: chosen.length, expected, lost, doubled };
}
