/**
 * Campaign benchmark (issue 11). Two parts against one local stack (DynamoDB Local, in-process
 * queues, the simulator as WhatsApp):
 *
 * 1. The planner: a contact list of BENCH_CONTACTS items (100,000 by default) seeded with the repo's
 *    own item builders in batches, then a campaign started on it: the time until every shipping
 *    item is written (validContacts = the list) and the DynamoDB requests the planning took, by command.
 * 2. The pacing: a campaign of BENCH_SENDS contacts on a connected simulator phone, with
 *    messageInterval BENCH_INTERVAL configured seconds, each lasting CAMPAIGN_SECOND_MS real
 *    milliseconds (100 here, so minutes of pacing take seconds): the sends per minute per connection
 *    measured on the phone, in configured time, against what the pacing allows.
 *
 *   npx tsx tests/bench/campaign.ts
 *   BENCH_CONTACTS=20000 BENCH_SENDS=20 npx tsx tests/bench/campaign.ts
 */
import { randomUUID } from 'node:crypto';
import { startStack } from '../../infra/local/stack';
import { batchWrite } from '../../functions/lib/db';
import { metrics } from '../../functions/lib/metrics';
import { contactListItemItem } from '../../functions/lib/contact-lists/repo';
import { getStoredCampaign } from '../../functions/lib/campaigns/repo';
import { LIMITER } from '../../functions/lib/campaigns/limiter';
import { PLAN_PAGE } from '../../functions/lib/campaigns/planner';
import type { ContactListItem } from '../../shared/schemas/contact-lists';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const SENDS = Number(process.env.BENCH_SENDS ?? 20);
const INTERVAL = Number(process.env.BENCH_INTERVAL ?? 5);
process.env.CAMPAIGN_SECOND_MS ??= '100';
const SECOND_MS = Number(process.env.CAMPAIGN_SECOND_MS);

const stack = await startStack({ timers: false, logLevel: 'error' });
const base = stack.url;

async function call(method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function company() {
  const email = `bench-${randomUUID().slice(0, 8)}@bench.dev`;
  const password = 'secret123';
  const out = await call('POST', '/api/companies/cadastro', undefined, {
    companyName: 'Bench campaigns',
    name: 'Owner',
    email,
    password,
    phone: '11999998888',
    planId: 1,
  });
  const { token } = await call('POST', '/api/auth/login', undefined, { email, password });
  return { token: token as string, companyId: out.company.id as number };
}

async function startCampaign(token: string, body: Record<string, unknown>) {
  const c = await call('POST', '/api/campaigns', token, {
    name: 'Bench',
    message1: 'Olá {{firstName}}, temos novidades',
    ...body,
    scheduledAt: new Date(Date.now() - 1000).toISOString(),
  });
  await call('POST', '/@timers/campaigns');
  return c.id as number;
}

try {
  const { token, companyId } = await company();
  await call('POST', '/api/campaign-settings', token, {
    settings: { messageInterval: INTERVAL, longerIntervalAfter: 0, greaterInterval: 0 },
  });

  // 1. the planner over CONTACTS items
  const idle = await call('POST', '/api/whatsapp', token, { name: 'Not paired' });
  const list = await call('POST', '/api/contact-lists', token, { name: 'Bench list' });
  const seedStart = performance.now();
  const now = new Date().toISOString();
  const items: ContactListItem[] = Array.from({ length: CONTACTS }, (_, i) => ({
    id: 1_000_000 + i,
    companyId,
    contactListId: list.id,
    name: `Cliente ${i}`,
    number: `5511${String(i).padStart(9, '0')}`,
    email: '',
    isWhatsappValid: true,
    createdAt: now,
    updatedAt: now,
  }));
  const CHUNK = 500;
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < items.length) {
        const from = next;
        next += CHUNK;
        await batchWrite(items.slice(from, from + CHUNK).map(contactListItemItem));
      }
    }),
  );
  const seedSeconds = (performance.now() - seedStart) / 1000;
  console.error(`seeded ${CONTACTS} list items in ${seedSeconds.toFixed(1)} s`);

  const before = metrics.total();
  const planStart = performance.now();
  const campaignId = await startCampaign(token, { whatsappId: idle.id, contactListId: list.id });
  let polls = 0;
  let shownAt = performance.now();
  for (;;) {
    polls++;
    const c = await getStoredCampaign(companyId, campaignId, true);
    if (c?.plannedAt) {
      if (c.validContacts !== CONTACTS) throw new Error(`planned ${c.validContacts} of ${CONTACTS}`);
      break;
    }
    // a run cut short still tells how far it got
    if (performance.now() - shownAt > 30_000) {
      shownAt = performance.now();
      const seconds = ((shownAt - planStart) / 1000).toFixed(0);
      console.error(`planning: ${c?.validContacts ?? 0} of ${CONTACTS} contacts after ${seconds} s`);
    }
    await sleep(200);
  }
  const planSeconds = (performance.now() - planStart) / 1000;
  const after = metrics.total();
  await call('POST', `/api/campaigns/${campaignId}/cancel`, token);
  const byCommand = Object.entries(after.byCommand)
    .map(
      ([command, n]) =>
        [command, n - (before.byCommand[command] ?? 0) - (command === 'GetCommand' ? polls : 0)] as const,
    )
    .filter(([, n]) => n > 0);
  const requests = byCommand.reduce((sum, [, n]) => sum + n, 0);

  console.log(`\n## Planner: ${CONTACTS.toLocaleString('en')} contacts (pages of ${PLAN_PAGE})\n`);
  console.log(
    '| contacts | seed (s) | planning (s) | contacts/s | DynamoDB requests | per 1,000 contacts | by command |',
  );
  console.log('|---|---|---|---|---|---|---|');
  console.log(
    `| ${CONTACTS} | ${seedSeconds.toFixed(1)} | ${planSeconds.toFixed(1)} | ${Math.round(CONTACTS / planSeconds)} | ${requests} | ${((requests / CONTACTS) * 1000).toFixed(1)} | ${byCommand.map(([c, n]) => `${c.replace('Command', '')} ${n}`).join(', ')} |`,
  );

  // 2. pacing on a connected simulator phone
  const line = await call('POST', '/api/whatsapp', token, { name: 'Bench line' });
  await call('POST', `/@simulator/sessions/${companyId}/${line.id}/scan`, undefined, { number: '5511900000009' });
  for (let i = 0; ; i++) {
    if ((await call('GET', `/api/whatsapp/${line.id}`, token)).status === 'CONNECTED') break;
    if (i > 100) throw new Error('the simulator did not connect');
    await sleep(100);
  }
  const small = await call('POST', '/api/contact-lists', token, { name: 'Pacing list' });
  for (let i = 0; i < SENDS; i++)
    await call('POST', '/api/contact-list-items', token, {
      name: `Pacing ${i}`,
      number: `5521${String(i).padStart(9, '0')}`,
      contactListId: small.id,
    });
  const pacedId = await startCampaign(token, { whatsappId: line.id, contactListId: small.id });
  // the recipients' phones acknowledge delivery (without acks the limiter pauses the campaign: noAcks)
  const acked = new Set<string>();
  for (;;) {
    const c = await call('GET', `/api/campaigns/${pacedId}`, token);
    const { outbound } = await call('GET', `/@simulator/sessions/${companyId}/${line.id}`);
    for (const o of outbound as { wid: string }[]) {
      if (acked.has(o.wid)) continue;
      acked.add(o.wid);
      await call('POST', `/@simulator/sessions/${companyId}/${line.id}/ack`, undefined, { wid: o.wid, ack: 2 });
    }
    if (c.status === 'FINALIZADA') break;
    if (c.status !== 'EM_ANDAMENTO' && c.status !== 'PROGRAMADA') throw new Error(`campaign ${c.status}`);
    await sleep(100);
  }
  const phone = await call('GET', `/@simulator/sessions/${companyId}/${line.id}`);
  const report = await call('GET', `/api/campaigns/${pacedId}/report?limit=100`, token);
  const spacing = Math.max(INTERVAL, LIMITER.MIN_SPACING_SECONDS) * LIMITER.WARMUP_SPACING_FACTOR;
  console.log(`\n## Pacing: ${SENDS} sends, messageInterval ${INTERVAL} s, 1 configured s = ${SECOND_MS} ms\n`);
  console.log(
    '| measured at | sends | min gap (s) | mean gap (s) | max gap (s) | sends/min measured | pacing allows (min spacing) | expected mean (with jitter) |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  const row = (where: string, at: string[]) => {
    const times = at.map((t) => Date.parse(t)).sort((a, b) => a - b);
    const gaps = times.slice(1).map((t, i) => (t - times[i]!) / SECOND_MS);
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
    console.log(
      `| ${where} | ${times.length} | ${Math.min(...gaps).toFixed(2)} | ${mean.toFixed(2)} | ${Math.max(...gaps).toFixed(2)} | ${(60 / mean).toFixed(2)} | ${(60 / spacing).toFixed(2)} (${spacing} s, warm-up x${LIMITER.WARMUP_SPACING_FACTOR}) | ${(60 / (spacing * (1 + LIMITER.JITTER / 2))).toFixed(2)} |`,
    );
  };
  // the API's send (the limiter's slot, then the message stored and its command queued) and the phone's receipt
  row(
    'API (shipping sentAt)',
    (report.shipping as { sentAt: string }[]).map((x) => x.sentAt),
  );
  row(
    'simulated phone',
    (phone.outbound as { at: string }[]).map((o) => o.at),
  );
} finally {
  await stack.stop();
}
