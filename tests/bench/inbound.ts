/**
 * Inbound throughput: 10,000 messages from 1,000 contacts injected through the simulator, end to
 * end (runner -> inbound queue -> pipeline -> table -> realtime). Prints messages per second and the
 * p50/p99 latency from the provider event (injection) to the `appMessage` event on a WebSocket client.
 *   npx tsx tests/bench/inbound.ts [messages] [contacts] [concurrency] [rate]
 * `rate` (messages per second, default 0 = as fast as the injectors go): with an open-loop
 * injection faster than the pipeline the latency measures the backlog; pace it below the
 * throughput to measure the latency of one message. Also prints the DynamoDB requests (by command)
 * and capacity per message that the API side spent (the session runner is another process).
 *
 * Automation rules (issue 40: "the inbound pipeline's throughput with 100 active rules within 10% of
 * no rules", and a fixed small number of DynamoDB requests per event whatever the number of rules):
 *   BENCH_RULES=0,100 npx tsx tests/bench/inbound.ts 2000 200 16
 * runs one phase per number, each on a new company and connection of the same stack, with that many
 * active rules created through `POST /api/automation-rules` before the messages. The rules listen to
 * BENCH_RULE_EVENTS (comma-separated, round robin over the rules; `type:minutes` for the timed ones,
 * default `message_received`) and their conditions never hold (a status the inbound tickets never
 * have, and BENCH_RULE_CONDITION below), so the phase measures what evaluating them costs, not what
 * their actions do. Each phase waits for its company's queues to drain (the `automation` consumer
 * included) and prints the requests the automation consumer spent apart from the rest. Alternate the
 * phases (`0,0,100,0,100`) on a shared machine: with more than two, the first one only warms the process
 * up and is left out of the throughput comparison.
 */
import WebSocket from 'ws';
import type { SQSEvent } from 'aws-lambda';
import { startStack } from '../../infra/local/stack';
import { metrics, type DbUsage } from '../../functions/lib/metrics';
import type { AutomationCondition, AutomationRuleBody } from '../../shared/schemas/automation';
import { localApi } from './local-api';

const TOTAL = Number(process.argv[2] ?? 10_000);
const CONTACTS = Number(process.argv[3] ?? 1_000);
const CONCURRENCY = Number(process.argv[4] ?? 32);
const RATE = Number(process.argv[5] ?? 0);
const PHASES = (process.env.BENCH_RULES ?? '0').split(',').map(Number);
const RULE_EVENTS = (process.env.BENCH_RULE_EVENTS ?? 'message_received').split(',').map((e) => {
  const [type, minutes] = e.split(':');
  return minutes ? { type, minutes: Number(minutes) } : { type };
});
/**
 * The condition each rule adds to the never-holding status: `message` (a text the messages never
 * contain), `hours` (outside business hours) or `contact_field` (a contact field, created per phase):
 * the last two make the engine read the company's hours or the contact, which must not be once per rule.
 */
const RULE_CONDITION = process.env.BENCH_RULE_CONDITION ?? 'message';
/** the queue the pipeline hands rule evaluations to (the design's `automation`) */
const AUTOMATION_QUEUE = process.env.BENCH_AUTOMATION_QUEUE ?? 'automation';

const stack = await startStack({ timers: false, logLevel: 'error', retryBaseMs: 50 });
const base = stack.url;
const { call, signUp } = localApi(base);

// The automation consumer's requests apart from the pipeline's: its deliveries run inside their own
// usage record (the queue's consumer is private to the local runtime; a benchmark may reach in).
const automation = { events: 0, usage: { calls: 0, capacity: 0, byCommand: {} as Record<string, number> } };
const automationQueue = stack.queues.get(AUTOMATION_QUEUE);
if (automationQueue) {
  const q = automationQueue as unknown as { consumer: (e: SQSEvent) => Promise<unknown> };
  const consume = q.consumer;
  q.consumer = async (event) => {
    automation.events += event.Records.length;
    const { result, usage } = await metrics.measure(() => consume(event));
    automation.usage.calls += usage.calls;
    automation.usage.capacity += usage.capacity;
    for (const [command, n] of Object.entries(usage.byCommand))
      automation.usage.byCommand[command] = (automation.usage.byCommand[command] ?? 0) + n;
    return result;
  };
}

function extraCondition(i: number): AutomationCondition {
  switch (RULE_CONDITION) {
    case 'hours':
      return { type: 'business_hours', within: false };
    case 'contact_field':
      return { type: 'field', entity: 'contact', key: 'bench_tier', op: 'eq', value: `never-${i}` };
    default:
      return { type: 'message', op: 'contains', value: `never-${i}` };
  }
}

async function createRules(count: number, token: string) {
  if (RULE_CONDITION === 'contact_field')
    await call(
      'POST',
      '/api/custom-fields',
      { entity: 'contact', name: 'Bench tier', key: 'bench_tier', type: 'text' },
      token,
    );
  for (let i = 0; i < count; i++) {
    const body: AutomationRuleBody = {
      name: `Bench rule ${i + 1}`,
      active: true,
      event: RULE_EVENTS[i % RULE_EVENTS.length] as AutomationRuleBody['event'],
      conditions: [extraCondition(i), { type: 'status', op: 'in', values: ['closed'] }],
      actions: [{ type: 'add_note', body: 'never written' }],
    };
    await call('POST', '/api/automation-rules', body, token);
  }
}

async function phase(rules: number) {
  const { companyId, token } = await signUp();
  if (rules > 0) await createRules(rules, token);
  const whatsapp = await call('POST', '/api/whatsapp', { name: 'Bench line' }, token);
  const number = `55119${(90_000_000 + companyId).toString().slice(-8)}`;
  await call('POST', `/@simulator/sessions/${companyId}/${whatsapp.id}/scan`, { number });
  for (let i = 0; (await call('GET', `/api/whatsapp/${whatsapp.id}`, undefined, token)).status !== 'CONNECTED'; i++) {
    if (i > 200) throw new Error('connection did not connect');
    await new Promise((r) => setTimeout(r, 50));
  }

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

  const usageBefore = snapshot(metrics.total());
  const automationBefore = { events: automation.events, usage: snapshot(automation.usage) };
  const started = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < TOTAL) {
      const i = next++;
      if (RATE > 0) {
        const wait = started + (i * 1000) / RATE - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      const wid = `BENCH${companyId}X${i.toString().padStart(6, '0')}`;
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
  // the work the messages started and that is not on their way to the screen (rule evaluations)
  await Promise.race([stack.idle(String(companyId)), new Promise((r) => setTimeout(r, 600_000))]);
  const drainedMs = Date.now() - started;
  ws.close();
  const usage = metrics.total();
  const n = Math.max(1, latencies.length);
  const perMessage = (x: number) => (x / n).toFixed(2);
  const ruleUsage = automation.usage;

  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  const seconds = ((lastArrival || Date.now()) - started) / 1000;
  return {
    row: {
      rules,
      messages: TOTAL,
      contacts: CONTACTS,
      delivered: latencies.length,
      'injection rate': RATE > 0 ? `${RATE}/s` : 'open loop',
      'injection s': (injectedMs / 1000).toFixed(1),
      'end-to-end s': seconds.toFixed(1),
      'drained s': (drainedMs / 1000).toFixed(1),
      'messages/s': (latencies.length / seconds).toFixed(1),
      'messages/s drained': (latencies.length / (drainedMs / 1000)).toFixed(1),
      'p50 ms': pct(50),
      'p99 ms': pct(99),
      'max ms': latencies.at(-1),
      'DDB requests/message': perMessage(usage.calls - usageBefore.calls),
      'capacity/message': perMessage(usage.capacity - usageBefore.capacity),
      'automation events/message': perMessage(automation.events - automationBefore.events),
      'automation DDB requests/message': perMessage(ruleUsage.calls - automationBefore.usage.calls),
    },
    byCommand: Object.fromEntries(
      Object.entries(usage.byCommand).map(([command, x]) => [
        command,
        perMessage(x - (usageBefore.byCommand[command] ?? 0)),
      ]),
    ),
    automationByCommand: Object.fromEntries(
      Object.entries(ruleUsage.byCommand).map(([command, x]) => [
        command,
        perMessage(x - (automationBefore.usage.byCommand[command] ?? 0)),
      ]),
    ),
  };
}

function snapshot(u: Pick<DbUsage, 'calls' | 'capacity' | 'byCommand'>) {
  return { calls: u.calls, capacity: u.capacity, byCommand: { ...u.byCommand } };
}

try {
  if (PHASES.some((r) => r > 0) && !automationQueue)
    console.warn(`no queue named ${AUTOMATION_QUEUE} in the manifest: the rules' evaluations are not counted apart`);
  const rows: Awaited<ReturnType<typeof phase>>['row'][] = [];
  for (const rules of PHASES) {
    const result = await phase(rules);
    rows.push(result.row);
    console.log(`\nphase with ${rules} active rules: requests per message by command:`, result.byCommand);
    if (rules > 0) console.log('  of which the automation consumer:', result.automationByCommand);
  }
  console.log('\ninbound benchmark (simulator -> runner -> inbound queue -> pipeline -> WebSocket)');
  console.table(rows);
  // the first phase also warms the process up (JIT, DynamoDB Local): left out of the comparison when others remain
  const compared = rows.length > 2 ? rows.slice(1) : rows;
  const none = compared.filter((r) => r.rules === 0);
  if (none.length && compared.some((r) => r.rules > 0)) {
    const rate = (list: typeof rows) =>
      list.reduce((s, r) => s + Number(r['messages/s drained']), 0) / Math.max(1, list.length);
    for (const rules of [...new Set(compared.map((r) => r.rules).filter((r) => r > 0))]) {
      const ratio = rate(compared.filter((r) => r.rules === rules)) / rate(none);
      console.log(
        `throughput with ${rules} rules / with none (until drained, mean of phases${rows.length > 2 ? ', the first left out' : ''}): ${(ratio * 100).toFixed(1)}%`,
      );
    }
  }
} finally {
  await stack.stop();
}
process.exit(0);
