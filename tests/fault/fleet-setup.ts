/**
 * What the runs of many simulated sessions share (the fleet under faults, tests/fault/fleet-scenario.ts;
 * the runner's memory, tests/bench/runner-memory.ts): the stack's options, an API client, one company
 * whose connections are created and paired through the simulator, paced traffic, and reading back
 * the tickets and conversations the traffic made.
 */
import type { StackOptions, LocalStack } from '../../infra/local/stack';
import type { SessionReport } from '../../infra/local/simulator-hub';

/** A stack for many sessions: no timers, quick retries, cheap password hashes, the suite's own traffic not rate limited. */
export const fleetStackOptions = (runners: number): StackOptions => ({
  runners,
  timers: false,
  logLevel: 'error',
  retryBaseMs: 50,
  passwordHashCost: 14,
  stopTimeoutSeconds: 60,
  rateLimitExemptAddresses: ['127.0.0.1', '::1', '::ffff:127.0.0.1'],
});

/** Connections created, then scanned, at a time while pairing. */
const SCAN_BATCH = 50;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** Works through `items`, at most `concurrency` at once. */
export async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** Polls `check` until it holds; the seconds it took. Throws after `limitMs`. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, limitMs = 120_000) {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > limitMs) throw new Error(`${what}: not within ${limitMs / 1000} s`);
    await sleep(250);
  }
  return (Date.now() - started) / 1000;
}

export type Call = <T>(method: string, path: string, body?: unknown, token?: string) => Promise<T>;

/** JSON over HTTP to the stack; a status other than 2xx throws with the answer. */
export function apiClient(baseUrl: string): Call {
  return async <T>(method: string, path: string, body?: unknown, token?: string): Promise<T> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

export interface PairedFleet {
  call: Call;
  /** the company owner's token (an access token lasts ACCESS_TOKEN_SECONDS: long runs ask `signIn` again) */
  token: string;
  /** signs the owner in again: a fresh token */
  signIn: () => Promise<string>;
  companyId: number;
  /** the connections (whatsapp ids), in the order they were made */
  connections: number[];
  /** the simulated phones of the company's sessions */
  report: () => SessionReport[];
  /** every session CONNECTED, as the simulated WhatsApp sees it */
  allConnected: () => boolean;
}

/**
 * A company whose plan allows `sessions` connections, each created through the API and paired by
 * scanning its QR code in the simulator; resolves once every session is connected.
 */
export async function pairSessions(
  stack: LocalStack,
  sessions: number,
  opts: { connectedWithinMs?: number } = {},
): Promise<PairedFleet> {
  const hub = stack.simulator;
  if (!hub) throw new Error('pairing sessions needs the simulator');
  const call = apiClient(stack.url);
  const superToken = (
    await call<{ token: string }>('POST', '/api/auth/login', { email: 'admin@admin.com', password: 'admin123' })
  ).token;
  const plan = await call<{ id: number }>(
    'POST',
    '/api/plans',
    { name: `Fleet ${Date.now()}`, users: 10, connections: sessions, queues: 10, value: 0 },
    superToken,
  );
  const email = `fleet-${Date.now()}@test.dev`;
  const signup = await call<{ company: { id: number } }>('POST', '/api/companies/cadastro', {
    companyName: 'Fleet',
    name: 'Owner',
    email,
    password: 'secret123',
    phone: '11999998888',
    planId: plan.id,
  });
  const companyId = signup.company.id;
  const signIn = async () =>
    (await call<{ token: string }>('POST', '/api/auth/login', { email, password: 'secret123' })).token;
  const token = await signIn();
  // Created one at a time (connections of one company share their usage counter: a transaction
  // conflict otherwise) and scanned a batch at a time, so no QR code runs out before its scan
  // (a session gives up after MAX_QR_CODES codes), however many sessions there are.
  const connections: number[] = [];
  const scan = async (id: number, i: number) => {
    const path = `/@simulator/sessions/${companyId}/${id}/scan`;
    for (let attempt = 1; ; attempt++) {
      // 409 while the runner has not opened the session yet (its handshakes are queued)
      const scanned = await call('POST', path, { number: `55119${String(10_000_000 + i)}` }).then(
        () => true,
        (err: Error) => {
          if (attempt >= 5) throw err;
          return false;
        },
      );
      if (scanned) return;
      await sleep(1_000);
    }
  };
  for (let first = 0; first < sessions; first += SCAN_BATCH) {
    const batch: number[] = [];
    for (let i = first; i < Math.min(sessions, first + SCAN_BATCH); i++)
      batch.push((await call<{ id: number }>('POST', '/api/whatsapp', { name: `Line ${i}` }, token)).id);
    await pool(
      batch.map((id, k) => ({ id, i: first + k })),
      8,
      ({ id, i }) => scan(id, i),
    );
    connections.push(...batch);
  }
  const report = () => hub.report().filter((r) => r.companyId === companyId);
  const allConnected = () => {
    const r = report();
    return r.length === connections.length && r.every((s) => s.status === 'CONNECTED');
  };
  await waitFor('every session connected', allConnected, opts.connectedWithinMs);
  return { call, token, signIn, companyId, connections, report, allConnected };
}

/**
 * Runs `act(0)`, `act(1)` ... at `perSecond`, without waiting for one to finish before the next
 * starts, while `running()` holds; resolves once the last one has finished. A failed act is handed
 * to `failed` and the pace goes on.
 */
export async function paced(
  perSecond: number,
  act: (n: number) => Promise<void>,
  running: () => boolean,
  failed: (err: Error) => void,
) {
  const gapMs = 1000 / perSecond;
  const started = Date.now();
  const inFlight = new Set<Promise<void>>();
  for (let n = 0; running(); n++) {
    const work = act(n).catch((err) => failed(err as Error));
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
    const wait = started + (n + 1) * gapMs - Date.now();
    if (wait > 0) await sleep(wait);
  }
  await Promise.all(inFlight);
}

/** The company's tickets of `status`, by their contact's number. */
export async function ticketsByNumber(call: Call, token: string, status: 'pending' | 'open' = 'pending') {
  const ticketOf = new Map<string, number>();
  for (let cursor: string | undefined, first = true; first || cursor; first = false) {
    const page = await call<{
      tickets: { id: number; contact: { number: string } }[];
      cursor?: string;
      hasMore: boolean;
    }>(
      'GET',
      `/api/tickets?status=${status}&showAll=true${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      undefined,
      token,
    );
    for (const t of page.tickets) ticketOf.set(t.contact.number, t.id);
    cursor = page.hasMore ? page.cursor : undefined;
  }
  return ticketOf;
}

export interface ListedMessage {
  id: string;
  wid: string;
  fromMe: boolean;
  ack: number;
  error?: string | null;
}

/** Every message of a ticket, oldest first. */
export async function conversation(call: Call, token: string, ticketId: number) {
  let all: ListedMessage[] = [];
  for (let cursor: string | undefined, first = true; first || cursor; first = false) {
    const page = await call<{ messages: ListedMessage[]; cursor?: string; hasMore: boolean }>(
      'GET',
      `/api/messages/${ticketId}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      undefined,
      token,
    );
    all = [...page.messages, ...all];
    cursor = page.hasMore ? page.cursor : undefined;
  }
  return all;
}
