/**
 * Cloud API webhook ingest (issue 36, item 9): customers' messages arrive as Meta's signed webhooks
 * (built and signed by the local Meta fake exactly as Meta does, posted over HTTP to
 * `/api/webhooks/whatsapp-cloud`), go through the signature check, the `inbound` queue and the same
 * pipeline as WhatsApp Web's, and reach an attendant's WebSocket as `appMessage`. Prints webhooks per
 * second in (the webhook's answer, which comes before any processing), messages stored, p50/p99 from
 * the webhook's post to the attendant's screen, and the DynamoDB requests and capacity per message.
 * Then Meta's redelivery: a share of the webhooks is posted again and the stored messages are
 * counted (doubled must be 0).
 *
 *   npm run bench -- cloud-webhook [messages] [contacts] [concurrency] [rate]
 *
 * `rate` (webhooks per second, default 0 = as fast as the posters go): open loop faster than the
 * pipeline measures the backlog; paced below the throughput it measures one message's latency.
 */
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { startStack } from '../../infra/local/stack';
import { metrics } from '../../functions/lib/metrics';
import { localApi } from './local-api';

const TOTAL = Number(process.argv[2] ?? 2_000);
const CONTACTS = Number(process.argv[3] ?? 200);
const CONCURRENCY = Number(process.argv[4] ?? 16);
const RATE = Number(process.argv[5] ?? 0);
/** the share of webhooks Meta delivers again (its retries after a slow or lost answer) */
const REDELIVERED = 0.1;

const stack = await startStack({ timers: false, logLevel: 'error', retryBaseMs: 50, sessionRunner: false });
const base = stack.url;
try {
  const { call, signUp } = localApi(base);
  const { companyId, token } = await signUp();
  const phoneNumberId = `1${Date.now()}`;
  const secrets = { accessToken: `EAAG${randomBytes(24).toString('hex')}`, appSecret: randomBytes(16).toString('hex') };
  await call('POST', '/@meta/_script', { phoneNumberId, wabaId: '200000000000001', ...secrets });
  const whatsapp = await call(
    'POST',
    '/api/whatsapp',
    { name: 'Cloud bench', provider: 'cloud', phoneNumberId, wabaId: '200000000000001', ...secrets },
    token,
  );
  if (whatsapp.status !== 'CONNECTED') throw new Error(`cloud connection ${whatsapp.status}`);

  const { ticket } = await call('POST', '/api/auth/ws-ticket', undefined, token);
  const ws = new WebSocket(`${base.replace('http', 'ws')}/ws?ticket=${encodeURIComponent(ticket)}`);
  await new Promise((done, fail) => {
    ws.once('open', done);
    ws.once('error', fail);
  });
  ws.send(JSON.stringify({ action: 'joinNotification' }));
  ws.send(JSON.stringify({ action: 'joinTickets', value: 'pending' }));

  const postedAt = new Map<string, number>();
  const latencies: number[] = [];
  let created = 0;
  let lastArrival = 0;
  let arrived!: () => void;
  const allArrived = new Promise<void>((r) => (arrived = r));
  ws.on('message', (raw) => {
    const e = JSON.parse(raw.toString());
    if (e.event !== `company-${companyId}-appMessage` || e.data.action !== 'create') return;
    created++;
    const at = postedAt.get(e.data.message?.wid);
    if (at === undefined) return;
    postedAt.delete(e.data.message.wid);
    lastArrival = Date.now();
    latencies.push(lastArrival - at);
    if (latencies.length === TOTAL) arrived();
  });

  const wamid = (i: number) => `wamid.BENCH${i.toString().padStart(7, '0')}`;
  const from = (i: number) => `55119${(10_000_000 + (i % CONTACTS)).toString()}`;
  const post = async (i: number) => {
    const answer = await call('POST', '/@meta/_inbound', {
      phoneNumberId,
      from: from(i),
      name: `Cliente ${i % CONTACTS} Açaí 🍇`,
      text: `mensagem ${i} com acentuação e emoji 😀`,
      wamid: wamid(i),
    });
    if (answer.delivered.status !== 200) throw new Error(`webhook answered ${answer.delivered.status}`);
  };

  const usageBefore = metrics.total();
  const webhookMs: number[] = [];
  const started = Date.now();
  let next = 0;
  const poster = async () => {
    while (next < TOTAL) {
      const i = next++;
      if (RATE > 0) {
        const wait = started + (i * 1000) / RATE - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      postedAt.set(wamid(i), Date.now());
      const t = Date.now();
      await post(i);
      webhookMs.push(Date.now() - t);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, poster));
  const postedMs = Date.now() - started;
  await Promise.race([allArrived, new Promise((r) => setTimeout(r, 600_000))]);
  const usage = metrics.total();

  // Meta redelivers: the same webhooks again, then what is stored is counted
  const again = Array.from({ length: Math.round(TOTAL * REDELIVERED) }, (_, k) =>
    Math.floor((k * TOTAL) / (TOTAL * REDELIVERED)),
  );
  for (const i of again) await post(i);
  await new Promise((r) => setTimeout(r, 3000));
  let stored = 0;
  let pendingTickets = 0;
  for (let tc: string | undefined, first = true; first || tc; first = false) {
    const list = await call(
      'GET',
      `/api/tickets?status=pending&showAll=true${tc ? `&cursor=${encodeURIComponent(tc)}` : ''}`,
      undefined,
      token,
    );
    for (const t of list.tickets as { id: number }[]) {
      pendingTickets++;
      for (let cursor: string | undefined, page1 = true; page1 || cursor; page1 = false) {
        const page = await call(
          'GET',
          `/api/messages/${t.id}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          undefined,
          token,
        );
        stored += (page.messages as { fromMe: boolean }[]).filter((m) => !m.fromMe).length;
        cursor = page.hasMore ? page.cursor : undefined;
      }
    }
    tc = list.hasMore ? list.cursor : undefined;
  }
  ws.close();

  latencies.sort((a, b) => a - b);
  webhookMs.sort((a, b) => a - b);
  const pct = (list: number[], p: number) =>
    list[Math.min(list.length - 1, Math.floor((p / 100) * list.length))] ?? NaN;
  const seconds = ((lastArrival || Date.now()) - started) / 1000;
  const perMessage = (n: number) => (n / Math.max(1, latencies.length)).toFixed(2);
  console.log('\nCloud API webhook benchmark (Meta fake -> signed webhook -> inbound queue -> pipeline -> WebSocket)');
  console.table({
    webhooks: TOTAL,
    contacts: CONTACTS,
    'posting rate': RATE > 0 ? `${RATE}/s` : `open loop, ${CONCURRENCY} posters`,
    'webhooks/s in': (TOTAL / (postedMs / 1000)).toFixed(1),
    'webhook answer p50 ms': pct(webhookMs, 50),
    'webhook answer p99 ms': pct(webhookMs, 99),
    'on screen': latencies.length,
    'messages/s to screen': (latencies.length / seconds).toFixed(1),
    'p50 ms to screen': pct(latencies, 50),
    'p99 ms to screen': pct(latencies, 99),
    'max ms': latencies.at(-1),
    'DDB requests/message': perMessage(usage.calls - usageBefore.calls),
    'capacity/message': perMessage(usage.capacity - usageBefore.capacity),
    'redelivered webhooks': again.length,
    'messages stored': stored,
    lost: TOTAL - Math.min(stored, TOTAL),
    doubled: Math.max(0, stored - TOTAL) + Math.max(0, created - TOTAL),
    'pending tickets': pendingTickets,
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
