/**
 * Fault injection (issue 15): inbound messages from many chats and outbound sends pushed through the
 * local stack while the session runner is killed (SIGKILL) and restarted and the inbound consumer
 * fails a share of its records at random; then the stored state is read back through the API and
 * the simulated phones' record of what they received (kept outside the runner, in the simulator hub).
 * Shared by the scaled-down test (tests/fault/fault-injection.test.ts) and the full-size run
 * (tests/bench/fault-injection.ts).
 */
import { startStack, type LocalStack } from '../../infra/local/stack';
import { sharedDynamo } from '../../infra/local/dynamo';
import { apiClient } from './fleet-setup';

export interface FaultRunOptions {
  inbound: number;
  chats: number;
  outbound: number;
  /** share of inbound consumer batches failed on purpose */
  failRate: number;
  /** runner kills in each phase */
  kills: number;
  concurrency?: number;
  progress?: (line: string) => void;
  /** stack options for a test run rather than a benchmark (cheap hashes, a JVM for minutes) */
  testRun?: boolean;
}

export interface FaultRunResult {
  inbound: {
    injected: number;
    stored: number;
    lost: number;
    doubled: number;
    /** chats whose messages are not listed in the order they were sent */
    chatsOutOfOrder: number;
    /** contacts without exactly one ticket that is not closed */
    contactsWithoutOneOpenTicket: number;
    /** injections refused while the runner was down, retried with the same WhatsApp id */
    injectRetries: number;
    seconds: number;
  };
  outbound: {
    sent: number;
    onPhone: number;
    lost: number;
    doubled: number;
    /** stored with an error or still pending although the phone has it */
    storedWrong: number;
    /** how the messages the phone never got are stored */
    lostStoredAs: { wid: string; ack?: number; error?: string | null }[];
    seconds: number;
  };
  /** batches the inbound consumer failed on purpose */
  injectedFailures: number;
  deadLetters: Record<string, number>;
  kills: number;
}

interface ListedMessage {
  id: string;
  wid: string;
  body: string;
  fromMe: boolean;
  ack: number;
  error?: string | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `work` over `items` with `concurrency` workers. */
async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

export async function runFaultInjection(opts: FaultRunOptions): Promise<FaultRunResult> {
  const concurrency = opts.concurrency ?? 32;
  const say = opts.progress ?? (() => undefined);
  const stack = await startStack({
    timers: false,
    logLevel: process.env.FAULT_LOG_LEVEL || 'error',
    retryBaseMs: 50,
    passwordHashCost: opts.testRun ? 10 : 14,
    shortRun: opts.testRun,
    // in `npm test`, a table on the run's DynamoDB Local rather than a second JVM
    sharedDynamo: sharedDynamo(),
    faultInjection: { failRate: opts.failRate, queues: ['inbound'] },
  });
  try {
    return await scenario(stack, opts, concurrency, say);
  } finally {
    await stack.stop();
  }
}

async function scenario(
  stack: LocalStack,
  opts: FaultRunOptions,
  concurrency: number,
  say: (line: string) => void,
): Promise<FaultRunResult> {
  const runner = stack.runner;
  if (!runner) throw new Error('the stack runs no session runner');
  const call = apiClient(stack.url);

  const email = `fault-${Date.now()}@test.dev`;
  const signup = await call<{ company: { id: number } }>('POST', '/api/companies/cadastro', {
    companyName: 'Fault',
    name: 'Owner',
    email,
    password: 'secret123',
    phone: '11999998888',
    planId: 1,
  });
  const companyId = signup.company.id;
  const { token } = await call<{ token: string }>('POST', '/api/auth/login', { email, password: 'secret123' });
  const whatsapp = await call<{ id: number }>('POST', '/api/whatsapp', { name: 'Fault line' }, token);
  const simBase = `/@simulator/sessions/${companyId}/${whatsapp.id}`;
  await call('POST', `${simBase}/scan`, { number: '5511900000001' });
  for (
    let i = 0;
    (await call<{ status: string }>('GET', `/api/whatsapp/${whatsapp.id}`, undefined, token)).status !== 'CONNECTED';
    i++
  ) {
    if (i > 200) throw new Error('the connection did not connect');
    await sleep(50);
  }

  /**
   * Kills the runner each time `progress()` passes one of `kills` evenly spaced marks of `total`,
   * restarting it 300 ms later; gives up on a mark that sees no progress for a minute.
   */
  let kills = 0;
  const killer = async (total: number, progress: () => Promise<number> | number) => {
    const marks = Array.from({ length: opts.kills }, (_, i) => Math.round(((i + 1) * total) / (opts.kills + 1)));
    for (const mark of marks) {
      let now = 0;
      for (let last = -1, since = Date.now(); ; await sleep(100)) {
        now = await progress();
        if (now >= mark) break;
        if (now !== last) [last, since] = [now, Date.now()];
        if (Date.now() - since > 60_000) return;
      }
      await runner.kill();
      kills++;
      say(`runner killed at ${now}/${total}`);
      await sleep(300);
      await runner.start();
    }
  };

  // Inbound: each chat's messages one after another (a customer types in order), many chats at once.
  const perChat = Math.ceil(opts.inbound / opts.chats);
  const chats = Array.from({ length: opts.chats }, (_, c) => ({
    number: `55119${String(70_000_000 + c)}`,
    messages: Array.from({ length: Math.min(perChat, opts.inbound - c * perChat) }, (_, s) => ({
      wid: `FAULT${String(c).padStart(5, '0')}S${String(s).padStart(6, '0')}`,
      body: `chat ${c} message ${s}`,
    })),
  })).filter((chat) => chat.messages.length > 0);
  let injected = 0;
  let injectRetries = 0;
  const inject = async (from: string, m: { wid: string; body: string }) => {
    for (const until = Date.now() + 120_000; ; ) {
      const res = await fetch(`${stack.url}${simBase}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ from, ...m }),
      }).catch(() => undefined);
      await res?.text();
      if (res?.ok) return;
      // the runner is down or reconnecting: the phone sends the same message again
      injectRetries++;
      if (Date.now() > until) throw new Error(`injection of ${m.wid} kept failing (${res?.status})`);
      await sleep(100);
    }
  };
  let started = Date.now();
  await Promise.all([
    killer(opts.inbound, () => injected),
    pool(chats, concurrency, async (chat) => {
      for (const m of chat.messages) {
        await inject(chat.number, m);
        injected++;
        if (injected % 2000 === 0) say(`injected ${injected}`);
      }
    }),
  ]);
  await stack.idle();
  const inboundSeconds = (Date.now() - started) / 1000;
  say(`inbound drained in ${inboundSeconds.toFixed(1)} s`);

  const tickets: { id: number; status: string; contact: { number: string } }[] = [];
  for (const status of ['pending', 'open']) {
    let cursor: string | undefined;
    do {
      const q = `/api/tickets?status=${status}&showAll=true${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await call<{ tickets: typeof tickets; cursor?: string; hasMore: boolean }>(
        'GET',
        q,
        undefined,
        token,
      );
      tickets.push(...page.tickets);
      cursor = page.hasMore ? page.cursor : undefined;
    } while (cursor);
  }
  const ticketsOf = new Map<string, number[]>();
  for (const t of tickets) ticketsOf.set(t.contact.number, [...(ticketsOf.get(t.contact.number) ?? []), t.id]);
  const contactsWithoutOneOpenTicket = chats.filter((c) => ticketsOf.get(c.number)?.length !== 1).length;

  /** a conversation oldest first (pages come newest first, each oldest first) */
  const conversation = async (ticketId: number) => {
    let all: ListedMessage[] = [];
    let cursor: string | undefined;
    do {
      const q = `/api/messages/${ticketId}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await call<{ messages: ListedMessage[]; cursor?: string; hasMore: boolean }>(
        'GET',
        q,
        undefined,
        token,
      );
      all = [...page.messages, ...all];
      cursor = page.hasMore ? page.cursor : undefined;
    } while (cursor);
    return all;
  };
  let stored = 0;
  let lost = 0;
  let doubled = 0;
  let chatsOutOfOrder = 0;
  const ticketOfChat = new Map<string, number>();
  await pool(chats, 8, async (chat) => {
    const ticketId = ticketsOf.get(chat.number)?.[0];
    if (ticketId === undefined) {
      lost += chat.messages.length;
      return;
    }
    ticketOfChat.set(chat.number, ticketId);
    const listed = (await conversation(ticketId)).filter((m) => !m.fromMe);
    stored += listed.length;
    const seen = new Map<string, number>();
    for (const m of listed) seen.set(m.wid, (seen.get(m.wid) ?? 0) + 1);
    lost += chat.messages.filter((m) => !seen.has(m.wid)).length;
    doubled += [...seen.values()].reduce((sum, n) => sum + n - 1, 0);
    const order = listed.map((m) => m.wid);
    if (order.some((wid, i) => i > 0 && wid <= order[i - 1]!)) chatsOutOfOrder++;
  });
  say(`inbound: stored ${stored}, lost ${lost}, doubled ${doubled}, chats out of order ${chatsOutOfOrder}`);

  // Outbound: sends spread over the chats' tickets while the runner is killed under the backlog.
  started = Date.now();
  const targets = chats.map((c) => ticketOfChat.get(c.number)).filter((id): id is number => id !== undefined);
  const sends = Array.from({ length: opts.outbound }, (_, i) => ({ ticketId: targets[i % targets.length]!, i }));
  const sent: { id: string; wid: string; ticketId: number }[] = [];
  const phoneHas = async () => {
    const state = await call<{ outbound: { wid: string }[] }>('GET', simBase);
    const count = new Map<string, number>();
    for (const o of state.outbound) count.set(o.wid, (count.get(o.wid) ?? 0) + 1);
    return count;
  };
  // kills land while the runner works through the backlog: marks count what the phone received
  await Promise.all([
    killer(opts.outbound, async () => (await phoneHas().catch(() => new Map())).size),
    pool(sends, Math.min(concurrency, 16), async ({ ticketId, i }) => {
      const message = await call<{ id: string; wid: string }>(
        'POST',
        `/api/messages/${ticketId}`,
        { body: `reply ${i}` },
        token,
      );
      sent.push({ ...message, ticketId });
    }),
  ]);
  // the runner works through its backlog one command at a time per connection
  let onPhone = await phoneHas();
  for (let last = -1, still = 0; still < 50 && sent.some((m) => !onPhone.has(m.wid)); ) {
    await stack.idle();
    await sleep(200);
    onPhone = await phoneHas();
    still = onPhone.size === last ? still + 1 : 0;
    last = onPhone.size;
  }
  await stack.idle();
  const outboundSeconds = (Date.now() - started) / 1000;
  const storedOf = new Map<string, ListedMessage>();
  await pool([...new Set(sent.map((m) => m.ticketId))], 8, async (ticketId) => {
    for (const m of await conversation(ticketId)) if (m.fromMe) storedOf.set(m.id, m);
  });
  const outLost = sent.filter((m) => !onPhone.has(m.wid)).length;
  const outDoubled = sent.reduce((sum, m) => sum + Math.max(0, (onPhone.get(m.wid) ?? 0) - 1), 0);
  const storedWrong = sent.filter((m) => {
    const s = storedOf.get(m.id);
    return onPhone.has(m.wid) && (!s || s.ack < 1 || Boolean(s.error));
  }).length;
  say(`outbound: sent ${sent.length}, lost ${outLost}, doubled ${outDoubled}, stored wrong ${storedWrong}`);

  return {
    inbound: {
      injected,
      stored,
      lost,
      doubled,
      chatsOutOfOrder,
      contactsWithoutOneOpenTicket,
      injectRetries,
      seconds: inboundSeconds,
    },
    outbound: {
      sent: sent.length,
      onPhone: sent.filter((m) => onPhone.has(m.wid)).length,
      lost: outLost,
      doubled: outDoubled,
      storedWrong,
      lostStoredAs: sent
        .filter((m) => !onPhone.has(m.wid))
        .map((m) => ({ wid: m.wid, ack: storedOf.get(m.id)?.ack, error: storedOf.get(m.id)?.error })),
      seconds: outboundSeconds,
    },
    injectedFailures: stack.faults.injected,
    deadLetters: Object.fromEntries([...stack.queues].map(([name, q]) => [name, q.deadLetters.length])),
    kills,
  };
}
