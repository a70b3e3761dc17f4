/**
 * Attendance API benchmark (issue 3, "Speed and cost"). Seeds one company with 20 users, 5 queues,
 * 10,000 contacts (1,000 named "Maria ..."), 50,000 tickets (about 60% closed, 25% open, 15% pending,
 * over 90 days, queues and users) and 500,000 messages (10 per ticket), then drives each hot call for
 * DURATION seconds at 10 and at 50 concurrent clients over HTTP against the local stack, and prints
 * requests/s, p50/p99 latency, errors, peak memory and DynamoDB calls and capacity per API call.
 *
 *   npm run bench                       # full size, 20 s per call and concurrency (after 3 s untimed, BENCH_WARMUP,
 *                                       # but none for the accept call, which would use up its pending tickets;
 *                                       # the read calls first run 60 s untimed after seeding, BENCH_STACK_WARMUP)
 *   BENCH_SCALE=0.1 BENCH_SECONDS=5 npm run bench   # a quick look
 *   BENCH_ONLY=dashboard BENCH_CONCURRENCY=10 npm run bench   # one call, one concurrency
 *   npm run bench -- fleet              # the session fleet instead (tests/bench/fleet.ts)
 *   npm run bench -- runner-memory      # one runner's memory under traffic (tests/bench/runner-memory.ts)
 *   npm run bench -- media-sends        # a 16 MB video through 10 connections on one runner, its RSS (tests/bench/media-sends.ts)
 *   npm run bench -- bundle-size        # JS + CSS gzip of the login and ticket pages (tests/bench/bundle-size.ts)
 *   npm run bench -- search             # full-text search at 500,000 messages (tests/bench/search.ts)
 *   npm run bench -- cloud-webhook      # Meta's signed webhooks in, to the attendant's screen (tests/bench/cloud-webhook.ts)
 *   npm run bench -- accept             # only the calls whose name contains the word, with DynamoDB calls by command
 *   BENCH_PROFILE=/tmp/dash.cpuprofile npm run bench -- dashboard   # and a CPU profile of the timed rows
 *   BENCH_AS_STARTED=0 npm run bench    # without the table's stream, search feed and time to live (on by default, as `npm start` runs)
 *
 * Each row prints, per API call, the DynamoDB requests, their capacity and the sequential round trips
 * (requests sent together, as by Promise.all, are one) until the answer.
 */
import { randomUUID } from 'node:crypto';
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import inspector from 'node:inspector';
import { PerformanceObserver } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { startStack } from '../../infra/local/stack';
import { batchWrite, type Item } from '../../functions/lib/db';
import { metrics } from '../../functions/lib/metrics';
import { contactItem, numberGuardKeys } from '../../functions/lib/contacts/repo';
import { ticketItem, uuidKeys, openGuardKeys, type StoredTicket } from '../../functions/lib/tickets/repo';
import { conversationMessageId, messageItem } from '../../functions/lib/messages/repo';
import { dayKeys } from '../../functions/lib/dashboard/aggregates';
import { DAY_VERSION } from '../../functions/lib/kept-days';
import { slaDayKeys, slaFields } from '../../functions/lib/sla/metrics';
import { bucketOf } from '../../shared/sla';
import { pad } from '../../functions/lib/keys';
import type { Contact } from '../../shared/schemas/contacts';
import type { Message } from '../../shared/schemas/messages';

// `npm run bench -- fleet [sessions] [inbound/s] [sends/s]`: the session fleet benchmark instead (tests/bench/fleet.ts)
if (process.argv[2] === 'fleet') {
  process.argv.splice(2, 1);
  await import('./fleet');
}
// `npm run bench -- runner-memory [minutes] [messages/s] [sessions]`: one runner's memory (tests/bench/runner-memory.ts)
if (process.argv[2] === 'runner-memory') {
  process.argv.splice(2, 1);
  await import('./runner-memory');
}
// `npm run bench -- media-sends [connections] [sends] [MB]`: outbound media on one runner (tests/bench/media-sends.ts)
if (process.argv[2] === 'media-sends') {
  process.argv.splice(2, 1);
  await import('./media-sends');
}
// `npm run bench -- search`: full-text search at 500,000 messages, p50/p99 and the index on disk (tests/bench/search.ts)
if (process.argv[2] === 'search') {
  process.argv.splice(2, 1);
  await import('./search');
}
// `npm run bench -- cloud-webhook [messages] [contacts] [concurrency] [rate]`: Meta's webhooks in (tests/bench/cloud-webhook.ts)
if (process.argv[2] === 'cloud-webhook') {
  process.argv.splice(2, 1);
  await import('./cloud-webhook');
}
// `npm run bench -- bundle-size`: what the login and ticket pages download (tests/bench/bundle-size.ts)
if (process.argv[2] === 'bundle-size') {
  const { runBundleSizeBench } = await import('./bundle-size');
  await runBundleSizeBench();
  process.exit(0);
}

// `npm run bench -- <word>` (or `BENCH_ONLY=<word>`): only the attendance calls whose name contains it
const only = process.argv[2] ?? process.env.BENCH_ONLY;
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const STACK_WARMUP = Number(process.env.BENCH_STACK_WARMUP ?? 60);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? '10,50').split(',').map(Number);
const N_CONTACTS = Math.round(10_000 * SCALE);
const N_MARIA = Math.round(1_000 * SCALE);
const N_TICKETS = Math.round(50_000 * SCALE);
const MESSAGES_PER_TICKET = 10;
const DAY_MS = 86_400_000;

// Measured as `npm start` runs, what a user of the local stack gets: the table's stream feeding the
// search index (in this process's heap; on AWS it lives in OpenSearch) and the time to live (DynamoDB
// Local scans the whole table for expired items every 10 s, stalling reads meanwhile; it reads at half
// speed from a table with a stream). BENCH_AS_STARTED=0 turns them off, to measure the calls alone.
const asStarted = process.env.BENCH_AS_STARTED !== '0';
const stack = await startStack({
  timers: false,
  logLevel: 'error',
  sessionRunner: false,
  streams: asStarted,
  timeToLive: asStarted,
});
const base = `${stack.url}/api`;

async function call(method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
async function must(method: string, path: string, token?: string, body?: unknown) {
  const res = await call(method, path, token, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

// ---- set-up through the API: company, plan limits, queues, users, one connection
const started = Date.now();
const email = `bench-${randomUUID().slice(0, 6)}@bench.dev`;
const superToken = (await must('POST', '/auth/login', undefined, { email: 'admin@admin.com', password: 'admin123' }))
  .token;
const plan = (await must('GET', '/plans/list'))[0];
void superToken;
const signup = await must('POST', '/companies/cadastro', undefined, {
  companyName: 'Bench Co',
  name: 'Bench Admin',
  email,
  password: 'secret123',
  planId: plan.id,
});
const companyId: number = signup.company.id;
const admin = await must('POST', '/auth/login', undefined, { email, password: 'secret123' });
let token: string = admin.token;
// the default plan allows 10 users and 10 queues: the bench company needs 20 users
await batchWrite([{ pk: 'PLAN', sk: `PLAN#${pad(plan.id)}`, ...plan, users: 100, queues: 20, connections: 20 }]);
const colors = ['#e53935', '#8e24aa', '#1e88e5', '#43a047', '#fb8c00'];
const queues: { id: number; name: string; color: string }[] = [];
for (let i = 0; i < 5; i++)
  queues.push(await must('POST', '/queue', token, { name: `Queue ${i + 1}`, color: colors[i], greetingMessage: '' }));
const users: { id: number; name: string; token?: string }[] = [];
for (let i = 0; i < 20; i++) {
  const u = await must('POST', '/users', token, {
    name: `Agent ${i + 1}`,
    email: `agent${i}-${email}`,
    password: 'secret123',
    profile: 'user',
    queueIds: [queues[i % 5]!.id],
  });
  users.push({ id: u.id, name: u.name });
}
const connection = await must('POST', '/whatsapp', token, {
  name: 'Bench phone',
  isDefault: true,
  greetingMessage: 'Hi',
});
const whatsapp = { id: connection.id as number, name: connection.name as string };

// ---- bulk data straight into the table with the entity modules' own item builders
const now = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const firstNames = ['Ana', 'João', 'Pedro', 'Lucas', 'Julia', 'Carla', 'Rafael', 'Bruno', 'Paula', 'Marcos'];
const contacts: Contact[] = [];
for (let i = 1; i <= N_CONTACTS; i++) {
  const created = now - Math.floor(Math.random() * 90 * DAY_MS);
  const name = i <= N_MARIA ? `Maria ${firstNames[i % 10]} ${i}` : `${firstNames[i % 10]} Silva ${i}`;
  contacts.push({
    id: i,
    uuid: randomUUID(),
    companyId,
    name,
    number: `55119${String(10_000_000 + i)}`,
    email: '',
    profilePicUrl: '',
    isGroup: false,
    extraInfo: [],
    whatsappId: whatsapp.id,
    createdAt: iso(created),
    updatedAt: iso(created),
  });
}
let written = 0;
async function write(items: Item[]) {
  const chunks: Item[][] = [];
  for (let i = 0; i < items.length; i += 500) chunks.push(items.slice(i, i + 500));
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < chunks.length) await batchWrite(chunks[next++]!);
    }),
  );
  written += items.length;
}
await write(contacts.flatMap((c) => [contactItem(c), { ...numberGuardKeys(companyId, c.number), contactId: c.id }]));

const days = new Map<string, Record<string, number>>();
const bump = (day: string, field: string, by = 1) => {
  const d = days.get(day) ?? {};
  d[field] = (d[field] ?? 0) + by;
  days.set(day, d);
};
// the service-level metrics (functions/lib/sla/metrics.ts) as the writes would have kept them
const slaDaysSeed = new Map<string, Record<string, number | string>>();
const slaBump = (day: string, t: Parameters<typeof slaFields>[0], metrics: Record<string, number>) => {
  const d = slaDaysSeed.get(day) ?? {};
  const { add, set } = slaFields(t, metrics);
  for (const [field, by] of Object.entries(add)) d[field] = (Number(d[field]) || 0) + by;
  Object.assign(d, set);
  slaDaysSeed.set(day, d);
};
const listCounts: Record<string, number> = {};
const countList = (t: Pick<StoredTicket, 'status' | 'queueId' | 'userId'>) => {
  for (const key of [`TS#${t.status}`, `TQ#${t.queueId ?? 0}#${t.status}`, `TU#${t.userId ?? 0}#${t.status}`])
    listCounts[key] = (listCounts[key] ?? 0) + 1;
};
const openByContact = new Set<number>();
const pendingIds: number[] = [];
const ticketIds: number[] = [];
/** each ticket's page as the web app asks for it: with its conversation (`?conversation=`) */
const messagePaths: string[] = [];
const sendableIds: number[] = [];
let batch: Item[] = [];
for (let id = 1; id <= N_TICKETS; id++) {
  const contact = contacts[(id - 1) % contacts.length]!;
  const roll = Math.random();
  let status: StoredTicket['status'] = roll < 0.6 ? 'closed' : roll < 0.85 ? 'open' : 'pending';
  // one open or pending ticket per contact and connection: later ones for the same contact close
  if (status !== 'closed' && openByContact.has(contact.id)) status = 'closed';
  if (status !== 'closed') openByContact.add(contact.id);
  const created = now - Math.floor(Math.random() * 90 * DAY_MS);
  const updated = Math.min(now, created + Math.floor(Math.random() * DAY_MS));
  const queue = queues[id % 5]!;
  const user = status === 'pending' ? null : users[id % 20]!;
  const ticket: StoredTicket = {
    id,
    uuid: randomUUID(),
    companyId,
    status,
    userId: user?.id ?? null,
    user: user ? { id: user.id, name: user.name } : null,
    queueId: queue.id,
    // the snapshot the product keeps on a ticket (not the whole queue the API answered)
    queue: { id: queue.id, name: queue.name, color: queue.color },
    whatsappId: whatsapp.id,
    whatsapp,
    contactId: contact.id,
    contact: { id: contact.id, name: contact.name, number: contact.number, profilePicUrl: '', isGroup: false },
    lastMessage: `message ${MESSAGES_PER_TICKET} of ticket ${id}`,
    unreadMessages: status === 'pending' ? 2 : 0,
    isGroup: false,
    chatbot: false,
    useIntegration: false,
    promptId: null,
    integrationId: null,
    tags: [],
    queuedAt: iso(created),
    startedAt: status === 'pending' ? null : iso(created + 60_000),
    finishedAt: status === 'closed' ? iso(updated) : null,
    rating: null,
    ratingAt: null,
    createdAt: iso(created),
    updatedAt: iso(updated),
    version: 1,
    round: 1,
    tagIds: [],
    createdDay: iso(created).slice(0, 10),
  };
  ticketIds.push(id);
  messagePaths.push(`/messages/${id}?conversation=${contact.id}-${whatsapp.id}`);
  // the bench sends as the admin: an open ticket of another attendant is locked to them (soft lock)
  if (status !== 'open') sendableIds.push(id);
  countList(ticket);
  if (status === 'pending') pendingIds.push(id);
  const day = ticket.createdDay;
  bump(day, 'tickets');
  bump(day, `h${ticket.createdAt.slice(11, 13)}`);
  bump(day, status);
  if (ticket.startedAt) {
    bump(day, 'waitSum', 60_000);
    bump(day, 'waitCount');
  }
  if (status === 'closed') {
    bump(day, 'supportSum', updated - created - 60_000);
    bump(day, 'supportCount');
  }
  if (ticket.startedAt) slaBump(day, ticket, { [`f${bucketOf(60_000 + Math.random() * 30 * 60_000)}`]: 1 });
  if (status === 'closed') slaBump(day, ticket, { [`r${bucketOf(updated - created)}`]: 1 });
  if (Math.random() < 0.1) slaBump(day, ticket, { b: 1 });
  if (status === 'closed' && Math.random() < 0.3) {
    const rating = 1 + Math.floor(Math.random() * 3);
    slaBump(day, ticket, { cn: 1, cs: rating >= 2 ? 1 : 0 });
  }
  batch.push(ticketItem(ticket), { ...uuidKeys(companyId, ticket.uuid), ticketId: id });
  if (status !== 'closed') batch.push({ ...openGuardKeys(companyId, contact.id, whatsapp.id), ticketId: id });
  for (let m = 1; m <= MESSAGES_PER_TICKET; m++) {
    const at = created + m * 30_000;
    const message: Message = {
      id: conversationMessageId({ contactId: contact.id, whatsappId: whatsapp.id }, at),
      companyId,
      ticketId: id,
      contactId: contact.id,
      whatsappId: whatsapp.id,
      wid: `BENCH${id}x${m}`,
      body: `message ${m} of ticket ${id}`,
      fromMe: m % 2 === 0,
      read: true,
      ack: m % 2 === 0 ? 3 : 0,
      mediaType: 'chat',
      mediaUrl: null,
      isDeleted: false,
      isEdited: false,
      quotedMsgId: null,
      quotedMsg: null,
      contact: { name: contact.name },
      userId: null,
      automatic: false,
      createdAt: iso(at),
      updatedAt: iso(at),
    };
    batch.push(messageItem(message));
  }
  if (batch.length >= 20_000) {
    await write(batch);
    batch = [];
    process.stdout.write(`\rseeded ${written} items`);
  }
}
await write(batch);
for (const c of contacts) bump(c.createdAt.slice(0, 10), 'newContacts');
await write([...days].map(([day, counters]) => ({ ...dayKeys(companyId, day), day, [DAY_VERSION]: 1, ...counters })));
await write(
  [...slaDaysSeed].map(([day, fields]) => ({ ...slaDayKeys(companyId, day), day, [DAY_VERSION]: 1, ...fields })),
);
await write([
  { pk: `C#${companyId}`, sk: 'COUNTER#ticket', value: N_TICKETS },
  { pk: `C#${companyId}`, sk: 'COUNTER#contact', value: N_CONTACTS },
  // the list count badges (functions/lib/tickets/counts.ts) as the writes would have kept them
  { pk: `C#${companyId}#TCOUNT`, sk: 'LISTS', ...listCounts },
]);
const seedSeconds = (Date.now() - started) / 1000;
console.log(
  `\rseeded ${written} items in ${seedSeconds.toFixed(0)} s (contacts ${N_CONTACTS}, tickets ${N_TICKETS}, messages ${N_TICKETS * MESSAGES_PER_TICKET})`,
);

// a fresh access token: the one from before seeding expires while a slow machine seeds (ACCESS_TOKEN_SECONDS)
token = (await must('POST', '/auth/login', undefined, { email, password: 'secret123' })).token;

// the search index follows the table through its stream: the rows start once it holds the last ticket's messages
if (asStarted) {
  const waitStart = Date.now();
  const last = `/search?q=${encodeURIComponent(`ticket ${N_TICKETS} `)}`;
  while ((await must('GET', last, token)).results.length === 0) {
    if (Date.now() - waitStart > 30 * 60_000) throw new Error('the search feed did not catch up in 30 min');
    await new Promise((r) => setTimeout(r, 2000));
  }
  console.log(`search index caught up with the table ${((Date.now() - waitStart) / 1000).toFixed(0)} s after seeding`);
}

// ---- load
const agent = users[0]!;
agent.token = (await must('POST', '/auth/login', undefined, { email: `agent0-${email}`, password: 'secret123' })).token;
let pendingCursor = 0;

/** What a row's clients send (tests/bench/load-worker.mjs): one path per request, at random or in turn. */
interface Load {
  method: string;
  token: string;
  body?: unknown;
  paths: string[];
  order: 'random' | 'cycle';
  cursor?: number;
  /**
   * each path once (a 'cycle' from `cursor`): the request changes what it is sent to (accepting a
   * pending ticket opens it), so its rows have no untimed part and go on where the last one stopped
   */
  usesUp?: boolean;
}
interface Scenario {
  name: string;
  load: () => Load;
}
const get = (path: string, as = token): Load => ({ method: 'GET', token: as, paths: [path], order: 'cycle' });
const allScenarios: Scenario[] = [
  { name: 'ticket list open (admin)', load: () => get('/tickets?status=open&showAll=true') },
  { name: 'ticket list pending (admin)', load: () => get('/tickets?status=pending&showAll=true') },
  { name: 'ticket list open (agent)', load: () => get('/tickets?status=open', agent.token!) },
  { name: 'ticket search "maria"', load: () => get('/tickets?searchParam=maria&showAll=true') },
  {
    // the Search page: a ticket's number among the words of the messages (a common word and a rare one)
    name: 'message search "ticket <n>"',
    load: () => ({
      method: 'GET',
      token,
      paths: ticketIds.map((id) => `/search?q=${encodeURIComponent(`ticket ${id} `)}`),
      order: 'random',
    }),
  },
  {
    name: "a ticket's message page",
    load: () => ({ method: 'GET', token, paths: messagePaths, order: 'random' }),
  },
  { name: 'contacts page', load: () => get('/contacts') },
  { name: 'dashboard 30 days', load: () => get('/dashboard?days=30') },
  {
    name: 'send message',
    load: () => ({
      method: 'POST',
      token,
      body: { body: 'bench reply' },
      paths: sendableIds.slice(-2000).map((id) => `/messages/${id}`),
      order: 'random',
    }),
  },
  {
    // each pending ticket accepted once
    name: 'accept pending ticket',
    load: () => ({
      method: 'PUT',
      token,
      body: { status: 'open', userId: signup.user.id },
      paths: pendingIds.map((id) => `/tickets/${id}`),
      order: 'cycle',
      cursor: pendingCursor,
      usesUp: true,
    }),
  },
];

const scenarios = only ? allScenarios.filter((s) => s.name.includes(only)) : allScenarios;
if (!scenarios.length) throw new Error(`no attendance call named like "${only}"`);

const javaRss = () => {
  try {
    return Number(execSync('ps -C java -o rss= | sort -n | tail -1').toString().trim()) * 1024;
  } catch {
    return 0;
  }
};
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
// BENCH_PROFILE=<file>: a CPU profile of the main thread (gateway and handlers) over the rows
const profiler = process.env.BENCH_PROFILE ? new inspector.Session() : undefined;
const post = (method: string) =>
  new Promise<unknown>((done, fail) => profiler!.post(method, (err, out) => (err ? fail(err) : done(out))));
if (profiler) {
  profiler.connect();
  await post('Profiler.enable');
  await post('Profiler.start');
}
const rows: string[][] = [];
const longGcs: string[] = [];
if (process.env.BENCH_SLOWEST)
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.duration > 10)
        longGcs.push(`${new Date(performance.timeOrigin + e.startTime).toISOString()} ${e.duration.toFixed(0)} ms`);
  }).observe({ entryTypes: ['gc'] });
/** What the clients' thread reports at the end of a row (tests/bench/load-worker.mjs). */
interface LoadDone {
  latencies: number[];
  errors: number;
  slowest: [number, number][];
  cursor: number;
  repeated: number;
}
/** Runs a load on the clients' thread: `warmup` seconds untimed (`onTimed` when they end), then `seconds` timed. */
function runLoad(load: Load, concurrency: number, warmup: number, seconds: number, onTimed = () => {}) {
  return new Promise<LoadDone>((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
      workerData: { base, concurrency, warmup, seconds, load },
    });
    worker.on('message', (m) => {
      // BENCH_TRACE=1: the requests per second of each untimed second, to see where the steady state begins
      if (m?.warm) return void (process.env.BENCH_TRACE && console.log(`  warm-up req/s: ${m.warm.join(' ')}`));
      if (m !== 'timed') return resolve(m);
      onTimed();
    });
    worker.once('error', reject);
  });
}

// After seeding, DynamoDB Local's JIT compiler (and V8's) takes about a minute of traffic to settle:
// per second, the dashboard climbed from ~130 to ~310-350 requests/s over its first 35-60 s, the
// JVM's C2 compiler thread using a quarter to half a core meanwhile (docs/benchmarks.md). DynamoDB
// does not warm up in front of its callers; the rows measure the steady state, so the read calls
// being measured (or every read call, when only writes are) run untimed first, sharing the time.
const isRead = (s: Scenario) => s.load().method === 'GET';
const warmers = scenarios.some(isRead) ? scenarios.filter(isRead) : allScenarios.filter(isRead);
for (const scenario of warmers)
  await runLoad(scenario.load(), Math.max(...CONCURRENCY), STACK_WARMUP / warmers.length, 0);
console.log(`warmed up for ${STACK_WARMUP} s with ${warmers.map((w) => w.name).join(', ')}`);

for (const scenario of scenarios) {
  for (const concurrency of CONCURRENCY) {
    let peakRss = process.memoryUsage().rss;
    let before = metrics.total();
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 200);
    // the clients run on their own thread; the first WARMUP seconds of each row are untimed too,
    // except for a call that uses up what it is sent to: its untimed part would take the pending
    // tickets the timed part is there to measure
    const load = scenario.load();
    const done = await runLoad(load, concurrency, load.usesUp ? 0 : WARMUP, SECONDS, () => {
      // what the timed part costs, from here
      before = metrics.total();
      longGcs.length = 0;
    });
    if (load.usesUp) pendingCursor = done.cursor;
    if (load.usesUp && done.repeated > 0)
      console.log(
        `  ${scenario.name}: ${done.repeated} of ${done.latencies.length} timed requests went to a path already used (${load.paths.length} seeded): the figures are not all first calls; lower BENCH_SECONDS or raise BENCH_SCALE`,
      );
    clearInterval(sampler);
    const after = metrics.total();
    const latencies = done.latencies.sort((a, b) => a - b);
    const errors = done.errors;
    // BENCH_SLOWEST=<n>: when the n slowest requests ended (wall clock), to set beside GC logs
    if (process.env.BENCH_SLOWEST) {
      for (const [ms, at] of done.slowest.slice(0, Number(process.env.BENCH_SLOWEST)))
        console.log(`  slow: ${ms.toFixed(0)} ms, ended ${new Date(at).toISOString()}`);
      console.log(`  node GC pauses over 10 ms: ${longGcs.splice(0).join(', ') || 'none'}`);
    }
    const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(1);
    const n = latencies.length;
    rows.push([
      scenario.name,
      String(concurrency),
      (n / SECONDS).toFixed(0),
      q(0.5),
      q(0.99),
      String(errors),
      mb(peakRss),
      mb(javaRss()),
      ((after.calls - before.calls) / n).toFixed(2),
      ((after.capacity - before.capacity) / n).toFixed(1),
      ((after.rounds - before.rounds) / Math.max(1, after.answered - before.answered)).toFixed(2),
    ]);
    console.log(rows[rows.length - 1]!.join(' | '));
    if (only) {
      const byCommand = Object.entries(after.byCommand)
        .map(([command, calls]) => [command, (calls - (before.byCommand[command] ?? 0)) / n] as const)
        .filter(([, perRequest]) => perRequest > 0)
        .map(([command, perRequest]) => `${command} ${perRequest.toFixed(2)}`);
      console.log(`  DynamoDB calls per request by command: ${byCommand.join(', ')}`);
      console.log(`  DynamoDB attempts the SDK repeated: ${after.retries - before.retries}`);
    }
  }
}

if (profiler) {
  const { profile } = (await post('Profiler.stop')) as { profile: unknown };
  writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
  console.log(`CPU profile of the timed rows written to ${process.env.BENCH_PROFILE}`);
}

const header = [
  'call',
  'clients',
  'req/s',
  'p50 ms',
  'p99 ms',
  'errors',
  'node MB',
  'dynamodb-local MB',
  'DDB calls/req',
  'capacity/req',
  'round trips/req',
];
console.log(`\n| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
console.log(
  `\nscale ${SCALE}, ${SECONDS} s per row after ${WARMUP} s untimed at its clients (none for a call that uses up its tickets; and ${STACK_WARMUP} s of the read calls after seeding); ${asStarted ? 'as `npm start` runs (stream, search feed, time to live)' : 'without stream, search feed and time to live (BENCH_AS_STARTED=0)'}; node MB is the one process holding the gateway and handlers (main thread) and the clients (a worker thread).`,
);
await stack.stop();
process.exit(0);
