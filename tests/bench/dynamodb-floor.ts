/**
 * The floor under the hot reads (issue 38): what DynamoDB Local itself serves on this machine for the
 * requests a message page makes, with no HTTP, no handler and no JSON answer around them. Seeds 5,000
 * conversations of 10 messages (about the size of the attendance bench's messages) and 5,000 tickets,
 * then runs for BENCH_SECONDS (20) at BENCH_CONCURRENCY (10) clients in this process:
 *
 *   - `Query` alone: the page's 20 newest messages of a random conversation;
 *   - `Query` beside a `BatchGet` of 3 tickets, sent together: the message page's known-ticket path
 *     (2 requests, 1 round trip).
 *
 * Whatever the API serves per second for a call of that shape is at most this.
 *
 *   npx tsx tests/bench/dynamodb-floor.ts
 */
import { startStack } from '../../infra/local/stack';
import { batchGet, batchWrite, query, type Item } from '../../functions/lib/db';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CLIENTS = Number(process.env.BENCH_CONCURRENCY ?? 10);
const CONVERSATIONS = 5_000;
const PER_CONVERSATION = 10;

const stack = await startStack({
  timers: false,
  logLevel: 'error',
  sessionRunner: false,
  streams: false,
  timeToLive: false,
});

const body = 'Olá, tudo bem? Gostaria de saber o status do meu pedido e o prazo de entrega. Obrigado!';
const items: Item[] = [];
for (let c = 0; c < CONVERSATIONS; c++) {
  items.push({ pk: 'C#1#FLOORT', sk: `T#${c}`, id: c, status: 'open', lastMessage: body, unreadMessages: 0 });
  for (let m = 0; m < PER_CONVERSATION; m++)
    items.push({
      pk: `C#1#FLOORM#${c}`,
      sk: `M#${String(m).padStart(4, '0')}`,
      id: `${c}-${m}`,
      body,
      fromMe: m % 2 === 0,
      ack: 3,
      mediaType: 'chat',
      createdAt: new Date(1_700_000_000_000 + m * 60_000).toISOString(),
    });
}
for (let i = 0; i < items.length; i += 25) await batchWrite(items.slice(i, i + 25));

const pick = () => Math.floor(Math.random() * CONVERSATIONS);
const page = () => query({ pk: `C#1#FLOORM#${pick()}`, limit: 20, forward: false });
const tickets = () => batchGet([0, 1, 2].map(() => ({ pk: 'C#1#FLOORT', sk: `T#${pick()}` })));

async function drive(name: string, once: () => Promise<unknown>) {
  const until = Date.now() + 3_000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < until) await once();
    }),
  );
  const took: number[] = [];
  const end = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) {
        const at = performance.now();
        await once();
        took.push(performance.now() - at);
      }
    }),
  );
  took.sort((a, b) => a - b);
  const q = (p: number) => took[Math.min(took.length - 1, Math.floor(p * took.length))].toFixed(1);
  console.log(`| ${name} | ${CLIENTS} | ${Math.round(took.length / SECONDS)} | ${q(0.5)} | ${q(0.99)} |`);
}

console.log(`seeded ${items.length} items`);
console.log('| requests | clients | per s | p50 ms | p99 ms |');
console.log('|---|---|---|---|---|');
await drive('Query (20 newest messages)', page);
await drive('Query beside BatchGet of 3 tickets (1 round trip)', () => Promise.all([page(), tickets()]));
await stack.stop();
process.exit(0);
