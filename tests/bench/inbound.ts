/**
 * Inbound throughput: 10,000 messages from 1,000 contacts injected through the simulator, end to
 * end (runner -> inbound queue -> pipeline -> table -> realtime). Prints messages per second and the
 * p50/p99 latency from the provider event (injection) to the `appMessage` event on a WebSocket client.
 *   npx tsx tests/bench/inbound.ts [messages] [contacts] [concurrency] [rate]
 * `rate` (messages per second, default 0 = as fast as the injectors go): with an open-loop
 * injection faster than the pipeline the latency measures the backlog; pace it below the
 * throughput to measure the latency of one message. Also prints the DynamoDB requests (by command)
 * and capacity per message that the API side spent (the session runner is another process).
 * `AUTOMATION_RULES=N` (env): the company first gets N active automation rules listening for
 * `message_received` whose condition never holds, so the figures show what evaluating them costs
 * per message (issue 40: within 10% of no rules, a fixed number of requests whatever N).
 */
import WebSocket from 'ws';
import { startStack } from '../../infra/local/stack';
import { metrics } from '../../functions/lib/metrics';
import { localApi } from './local-api';

const TOTAL = Number(process.argv[2] ?? 10_000);
const CONTACTS = Number(process.argv[3] ?? 1_000);
const CONCURRENCY = Number(process.argv[4] ?? 32);
const RATE = Number(process.argv[5] ?? 0);
const RULES = Number(process.env.AUTOMATION_RULES ?? 0);

const stack = await startStack({ timers: false, logLevel: 'error', retryBaseMs: 50 });
const base = stack.url;
try {
  const { call, signUp } = localApi(base);
  const { companyId, token } = await signUp();
  const whatsapp = await call('POST', '/api/whatsapp', { name: 'Bench line' }, token);
  await call('POST', `/@simulator/sessions/${companyId}/${whatsapp.id}/scan`, { number: '5511900000001' });
  for (let i = 0; (await call('GET', `/api/whatsapp/${whatsapp.id}`, undefined, token)).status !== 'CONNECTED'; i++) {
    if (i > 200) throw new Error('connection did not connect');
    await new Promise((r) => setTimeout(r, 50));
  }

  for (let i = 0; i < RULES; i++)
    await call(
      'POST',
      '/api/automation-rules',
      {
        name: `Bench rule ${i}`,
        event: { type: 'message_received' },
        conditions: [{ type: 'message', op: 'contains', value: `never-${i}` }],
        actions: [{ type: 'add_note', body: 'bench' }],
      },
      token,
    );

  const { ticket } = await call('POST', '/api/auth/ws-ticket', undefined, token);
  const ws = new WebSocket(`${base.replace('http', 'ws')}/ws?ticket=${encodeURIComponent(ticket)}`);
  await new Promise((done, fail) => {
    ws.once('open', done);
    ws.once('error', fail);
  });
  ws.send(JSON.stringify({ action: 'joinNotification' }));
  ws.send(JSON.stringify({ action: 'joinTickets', value: 'pending' }));

  const injectedAt = new Map<string, number>();
  const latencies: number[] = [];
  let lastArrival = 0;
  let arrived!: () => void;
  const allArrived = new Promise<void>((r) => (arrived = r));
  ws.on('message', (raw) => {
    const e = JSON.parse(raw.toString());
    if (e.event !== `company-${companyId}-appMessage` || e.data.action !== 'create') return;
    const wid = e.data.message?.wid;
    const at = injectedAt.get(wid);
    if (at === undefined) return;
    injectedAt.delete(wid);
    lastArrival = Date.now();
    latencies.push(lastArrival - at);
    if (latencies.length === TOTAL) arrived();
  });

  const usageBefore = metrics.total();
  const started = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < TOTAL) {
      const i = next++;
      if (RATE > 0) {
        const wait = started + (i * 1000) / RATE - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      const wid = `BENCH${i.toString().padStart(6, '0')}`;
      const from = `55119${(10_000_000 + (i % CONTACTS)).toString()}`;
      injectedAt.set(wid, Date.now());
      await call('POST', `/@simulator/sessions/${companyId}/${whatsapp.id}/messages`, {
        from,
        wid,
        pushName: `Contact ${i % CONTACTS}`,
        body: `message ${i}`,
      });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const injectedMs = Date.now() - started;
  await Promise.race([allArrived, new Promise((r) => setTimeout(r, 600_000))]);
  ws.close();
  const usage = metrics.total();
  const perMessage = (n: number) => (n / Math.max(1, latencies.length)).toFixed(2);

  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  const seconds = ((lastArrival || Date.now()) - started) / 1000;
  console.log('\ninbound benchmark (simulator -> runner -> inbound queue -> pipeline -> WebSocket)');
  console.table({
    messages: TOTAL,
    contacts: CONTACTS,
    'automation rules': RULES,
    delivered: latencies.length,
    'injection rate': RATE > 0 ? `${RATE}/s` : 'open loop',
    'injection s': (injectedMs / 1000).toFixed(1),
    'end-to-end s': seconds.toFixed(1),
    'messages/s': (latencies.length / seconds).toFixed(1),
    'p50 ms': pct(50),
    'p99 ms': pct(99),
    'max ms': latencies.at(-1),
    'DDB requests/message': perMessage(usage.calls - usageBefore.calls),
    'capacity/message': perMessage(usage.capacity - usageBefore.capacity),
  });
  console.log(
    'requests per message by command:',
    Object.fromEntries(
      Object.entries(usage.byCommand).map(([command, n]) => [
        command,
        perMessage(n - (usageBefore.byCommand[command] ?? 0)),
      ]),
    ),
  );
} finally {
  await stack.stop();
}
process.exit(0);
