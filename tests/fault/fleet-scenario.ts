/**
 * The session fleet under faults (issue 23): several runner processes share many simulated
 * sessions while customers write continuously and attendants send; one runner is killed (SIGKILL),
 * another is stopped as a deploy stops it (SIGTERM) and a new one starts (scale out). Then every
 * message is checked: each customer message stored once, each send on the phone once (or visibly
 * failed), every session connected again without a new QR code, and the longest outage a session
 * saw. Shared by the scaled-down test (tests/fault/fleet.full.test.ts) and the benchmark
 * (tests/bench/fleet.ts).
 */
import { startStack, type LocalStack } from '../../infra/local/stack';
import type { RunnerHealth } from '../../infra/local/session-runner';
import type { SessionReport } from '../../infra/local/simulator-hub';
import {
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
} from './fleet-setup';

export interface FleetRunOptions {
  sessions: number;
  /** runner processes at the start */
  runners: number;
  /** customers writing to each session */
  chatsPerSession: number;
  /** customer messages per second, all sessions together */
  inboundPerSecond: number;
  /** attendant sends per second, all sessions together */
  sendsPerSecond: number;
  /** seconds of traffic before, between and after the faults */
  quietSeconds: number;
  progress?: (line: string) => void;
}

export interface RunnerFigures {
  id: string;
  /** how it ended: killed, terminated, or still running */
  fate: 'killed' | 'terminated' | 'running';
  sessionsAtEnd: number;
  rssPeakMb: number;
  rssEndMb?: number;
}

export interface FleetRunResult {
  sessions: number;
  inbound: { injected: number; stored: number; lost: number; doubled: number };
  sends: {
    posted: number;
    onPhone: number;
    /** neither on the phone nor marked failed */
    lost: number;
    /** messages the phone (WhatsApp) got twice under different ids or showed twice */
    doubled: number;
    /** not on the phone but marked failed on the message, as the attendant sees it */
    failedVisibly: number;
    /** sends repeated with the same id after a crash (WhatsApp keeps one: the customer sees it once) */
    resentSameId: number;
  };
  /** every session CONNECTED (simulated WhatsApp and API agree) */
  allConnected: boolean;
  /** the sessions that were not, each as `<whatsappId> phone <status> api <status>` */
  notConnected: string[];
  /** QR codes shown after a session had paired: sessions that had to be scanned again */
  newQrCodes: number;
  /** sockets WhatsApp closed because a newer one opened the same session (two holders at once) */
  replacedSockets: number;
  longestOutageSeconds: number;
  /** seconds from the kill until every session was connected again */
  recoveredAfterKillSeconds: number;
  /** the SIGTERM: how long the runner took to hand over and exit, and its exit code */
  drain: { seconds: number; exitCode: number | null };
  recoveredAfterDrainSeconds: number;
  /** seconds from the new runner's start until the sessions were spread evenly again */
  balancedAfterScaleOutSeconds: number;
  /** sessions per live runner at the end */
  spread: number[];
  runners: RunnerFigures[];
  deadLetters: Record<string, number>;
  /** what the runners counted: stale auth writes refused, undecryptable messages, journal bypasses */
  counters: NonNullable<RunnerHealth['counters']>;
  seconds: number;
}

export async function runFleet(opts: FleetRunOptions): Promise<FleetRunResult> {
  const stack = await startStack(fleetStackOptions(opts.runners));
  try {
    return await scenario(stack, opts);
  } finally {
    await stack.stop();
  }
}

async function scenario(stack: LocalStack, opts: FleetRunOptions): Promise<FleetRunResult> {
  const began = Date.now();
  const say = (line: string) => opts.progress?.(`[${((Date.now() - began) / 1000).toFixed(0)} s] ${line}`);
  const hub = stack.simulator;
  if (!hub) throw new Error('the fleet scenario needs the simulator');

  // ---- a company whose plan allows every session, its connections paired
  const { call, token, companyId, connections, report, allConnected } = await pairSessions(stack, opts.sessions);
  say(`${connections.length} sessions paired and connected`);

  // ---- the runners: health sampled for RSS; sessions spread evenly before the traffic starts
  const peaks = new Map<string, number>();
  /** each runner's counters as last seen (a killed runner's are what it reported before it died) */
  const counters = new Map<string, NonNullable<RunnerHealth['counters']>>();
  const sample = async () => {
    for (const r of stack.runners.filter((x) => x.running)) {
      const h = await r.health();
      if (h) peaks.set(r.id, Math.max(peaks.get(r.id) ?? 0, h.rss));
      if (h?.counters) counters.set(r.id, h.counters);
    }
  };
  const sampler = setInterval(() => void sample(), 2_000);
  const balanced = async () => {
    const live = stack.runners.filter((r) => r.running);
    const counts = (await Promise.all(live.map((r) => r.health()))).map((h) => h?.sessions ?? -1);
    const lo = Math.floor(connections.length / live.length);
    return counts.every((n) => n === lo || n === lo + 1) && allConnected();
  };
  await waitFor('sessions spread evenly', balanced);
  say('sessions spread evenly over the runners');

  // ---- tickets: each customer's first message opens one
  const chats = connections.flatMap((whatsappId, s) =>
    Array.from({ length: opts.chatsPerSession }, (_, c) => ({
      whatsappId,
      number: `55118${String(s).padStart(4, '0')}${String(c).padStart(3, '0')}`,
      sent: 0,
    })),
  );
  const injected: string[] = [];
  const inject = async (chat: (typeof chats)[number]) => {
    const wid = `FLEET${String(chat.whatsappId).padStart(5, '0')}${chat.number.slice(-7)}S${String(chat.sent++).padStart(6, '0')}`;
    // WhatsApp takes a customer's message whoever holds the session, and delivers it when one connects
    await call('POST', `/@simulator/sessions/${companyId}/${chat.whatsappId}/messages`, {
      from: chat.number,
      wid,
      body: `hello ${wid}`,
      queue: true,
    });
    injected.push(wid);
  };
  await pool(chats, 16, inject);
  const pendingEvents = () => report().reduce((n, r) => n + r.pending, 0);
  await waitFor('first messages handed over', () => pendingEvents() === 0);
  await stack.idle();
  const ticketOf = await ticketsByNumber(call, token);
  say(`${ticketOf.size} tickets open`);

  // ---- traffic: customers write and attendants send, continuously, until the faults are over
  let traffic = true;
  const posted: { id: string; wid: string; whatsappId: number; ticketId: number }[] = [];
  const running = () => traffic;
  const trafficError = (err: Error) => say(`traffic error: ${err.message}`);
  const writers = paced(opts.inboundPerSecond, (n) => inject(chats[n % chats.length]!), running, trafficError);
  const senders = paced(
    opts.sendsPerSecond,
    async (n) => {
      const chat = chats[(n * 7) % chats.length]!;
      const ticketId = ticketOf.get(chat.number);
      if (ticketId === undefined) return;
      const message = await call<{ id: string; wid: string }>(
        'POST',
        `/api/messages/${ticketId}`,
        { body: `reply ${n}` },
        token,
      );
      posted.push({ ...message, whatsappId: chat.whatsappId, ticketId });
    },
    running,
    trafficError,
  );

  const quiet = () => sleep(opts.quietSeconds * 1000);
  await quiet();
  const [killed, stopped] = [stack.runners[0]!, stack.runners[1]!];
  const killedAt = Date.now();
  await killed.kill();
  say(`runner ${killed.id} killed (SIGKILL)`);
  // the simulated WhatsApp sees the killed runner's sockets drop at once
  await sleep(1000);
  await waitFor('every session back after the kill', allConnected);
  const recoveredAfterKillSeconds = (Date.now() - killedAt) / 1000;
  say(`every session connected again ${recoveredAfterKillSeconds.toFixed(1)} s after the kill`);
  await quiet();
  const terminating = stopped.terminate();
  say(`runner ${stopped.id} stopping (SIGTERM)`);
  const drain = await terminating;
  say(`runner ${stopped.id} exited with ${drain.code} after ${drain.seconds.toFixed(1)} s`);
  const recoveredAfterDrainSeconds =
    drain.seconds + (await waitFor('every session back after the drain', allConnected));
  await quiet();
  const added = await stack.addRunner();
  const scaledAt = Date.now();
  say(`runner ${added.id} started (scale out)`);
  await waitFor('sessions spread evenly after the scale out', balanced, 300_000);
  const balancedAfterScaleOutSeconds = (Date.now() - scaledAt) / 1000;
  say(`sessions spread evenly ${balancedAfterScaleOutSeconds.toFixed(1)} s after the new runner started`);
  await quiet();
  traffic = false;
  await Promise.all([writers, senders]);
  say(`traffic stopped: ${injected.length} customer messages, ${posted.length} sends`);

  // ---- settle: every event handed to the queue, every send worked through
  await waitFor('every customer message handed over', () => pendingEvents() === 0);
  const onPhone = () => {
    const have = new Map<string, number>();
    for (const whatsappId of connections)
      for (const o of (hub.snapshot(companyId, whatsappId) as { outbound: { wid: string }[] }).outbound)
        have.set(o.wid, (have.get(o.wid) ?? 0) + 1);
    return have;
  };
  // a send is settled once on the phone or marked failed; the queue works through the backlog
  let stored = new Map<string, ListedMessage>();
  const readStored = async () => {
    const next = new Map<string, ListedMessage>();
    const counts = new Map<string, number>();
    await pool([...new Set(ticketOf.values())], 8, async (ticketId) => {
      for (const m of await conversation(call, token, ticketId)) {
        next.set(m.fromMe ? m.id : m.wid, m);
        if (!m.fromMe) counts.set(m.wid, (counts.get(m.wid) ?? 0) + 1);
      }
    });
    stored = next;
    return counts;
  };
  let inboundCounts = new Map<string, number>();
  await waitFor(
    'every send on the phone or marked failed',
    async () => {
      await stack.idle();
      const have = onPhone();
      if (posted.some((p) => !have.has(p.wid))) inboundCounts = await readStored();
      else return true;
      return posted.every((p) => have.has(p.wid) || Boolean(stored.get(p.id)?.error));
    },
    180_000,
  );
  await stack.idle();
  inboundCounts = await readStored();
  clearInterval(sampler);
  await sample();

  const have = onPhone();
  const sessionsAtEnd = report();
  // every session connected once the fleet has settled: a handover the last rebalance started may
  // still be reconnecting at this instant (its outage counts in longestOutageSeconds below)
  const apiConnected = async () => {
    const statuses = await call<{ id: number; status: string }[]>('GET', '/api/whatsapp', undefined, token);
    return statuses.filter((w) => connections.includes(w.id)).every((w) => w.status === 'CONNECTED');
  };
  await waitFor(
    'every session connected at the end',
    async () => allConnected() && (await apiConnected()),
    60_000,
  ).catch(() => undefined);
  const apiStatuses = await call<{ id: number; status: string }[]>('GET', '/api/whatsapp', undefined, token);
  const outageOf = (r: SessionReport) =>
    Math.max(0, ...r.outages, r.downSince !== undefined ? Date.now() - r.downSince : 0) / 1000;
  const healths = await Promise.all(stack.runners.map((r) => (r.running ? r.health() : undefined)));
  const result: FleetRunResult = {
    sessions: connections.length,
    inbound: {
      injected: injected.length,
      stored: injected.filter((wid) => inboundCounts.has(wid)).length,
      lost: injected.filter((wid) => !inboundCounts.has(wid)).length,
      doubled: [...inboundCounts.values()].reduce((n, c) => n + c - 1, 0),
    },
    sends: {
      posted: posted.length,
      onPhone: posted.filter((p) => have.has(p.wid)).length,
      lost: posted.filter((p) => !have.has(p.wid) && !stored.get(p.id)?.error).length,
      doubled: [...have.values()].reduce((n, c) => n + c - 1, 0),
      failedVisibly: posted.filter((p) => !have.has(p.wid) && Boolean(stored.get(p.id)?.error)).length,
      resentSameId: connections.reduce((n, w) => n + (hub.snapshot(companyId, w) as { repeats: number }).repeats, 0),
    },
    allConnected:
      allConnected() && apiStatuses.filter((w) => connections.includes(w.id)).every((w) => w.status === 'CONNECTED'),
    notConnected: connections.flatMap((id) => {
      const phone = sessionsAtEnd.find((r) => r.whatsappId === id)?.status ?? 'none';
      const api = apiStatuses.find((w) => w.id === id)?.status ?? 'none';
      return phone === 'CONNECTED' && api === 'CONNECTED' ? [] : [`${id} phone ${phone} api ${api}`];
    }),
    newQrCodes: sessionsAtEnd.reduce((n, r) => n + r.qrAfterPaired, 0),
    replacedSockets: sessionsAtEnd.reduce((n, r) => n + r.timeline.filter((t) => t.kind === 'replaced').length, 0),
    longestOutageSeconds: Math.max(0, ...sessionsAtEnd.map(outageOf)),
    recoveredAfterKillSeconds,
    drain: { seconds: drain.seconds, exitCode: drain.code },
    recoveredAfterDrainSeconds,
    balancedAfterScaleOutSeconds,
    spread: healths.filter((h, i) => h && stack.runners[i]!.running).map((h) => h!.sessions),
    runners: stack.runners.map((r, i) => ({
      id: r.id,
      fate: r === killed ? 'killed' : r === stopped ? 'terminated' : 'running',
      sessionsAtEnd: healths[i]?.sessions ?? 0,
      rssPeakMb: mb(peaks.get(r.id) ?? 0),
      rssEndMb: healths[i] ? mb(healths[i]!.rss) : undefined,
    })),
    deadLetters: Object.fromEntries([...stack.queues].map(([name, q]) => [name, q.deadLetters.length])),
    counters: sumCounters(
      new Map([
        ...counters,
        ...healths.flatMap((h, i) => (h?.counters ? [[stack.runners[i]!.id, h.counters] as const] : [])),
      ]).values(),
    ),
    seconds: (Date.now() - began) / 1000,
  };
  return result;
}

/** The runners' counters in all: each runner's last answer (a killed one's last sample). */
function sumCounters(list: Iterable<NonNullable<RunnerHealth['counters']>>) {
  const total = { staleWritesRefused: 0, undecryptable: 0, journalBypasses: 0 };
  for (const c of list) for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += c[k];
  return total;
}

/** The figures as printed by the test and the benchmark. */
export function printFleet(result: FleetRunResult) {
  const r = result;
  const lines = [
    `sessions ${r.sessions} | runners ${r.runners.length} (one killed, one stopped by SIGTERM, one added)`,
    `inbound: injected ${r.inbound.injected}, stored ${r.inbound.stored}, lost ${r.inbound.lost}, doubled ${r.inbound.doubled}`,
    `sends: posted ${r.sends.posted}, on the phone ${r.sends.onPhone}, lost ${r.sends.lost}, doubled ${r.sends.doubled}, failed visibly ${r.sends.failedVisibly}, resent with the same id ${r.sends.resentSameId}`,
    `sessions: all CONNECTED ${r.allConnected}${r.notConnected.length ? ` (not: ${r.notConnected.join(', ')})` : ''}, new QR codes ${r.newQrCodes}, sockets replaced by a second holder ${r.replacedSockets}, longest outage ${r.longestOutageSeconds.toFixed(1)} s`,
    `kill -9: every session back after ${r.recoveredAfterKillSeconds.toFixed(1)} s`,
    `SIGTERM: drained and exited (code ${r.drain.exitCode}) in ${r.drain.seconds.toFixed(1)} s, every session back after ${r.recoveredAfterDrainSeconds.toFixed(1)} s`,
    `scale out: spread evenly ${r.balancedAfterScaleOutSeconds.toFixed(1)} s after the new runner started; sessions per live runner ${r.spread.join(' / ')}`,
    ...r.runners.map(
      (x) =>
        `runner ${x.id} (${x.fate}): RSS peak ${x.rssPeakMb} MB${x.rssEndMb !== undefined ? `, at the end ${x.rssEndMb} MB` : ''}, sessions at the end ${x.sessionsAtEnd}`,
    ),
    `counted by the runners: stale auth writes refused ${r.counters.staleWritesRefused}, undecryptable messages ${r.counters.undecryptable}, journal bypasses ${r.counters.journalBypasses}`,
    `dead letters: ${JSON.stringify(r.deadLetters)} | ${r.seconds.toFixed(0)} s in all`,
  ];
  for (const line of lines) console.log(line);
}
