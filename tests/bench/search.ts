/**
 * Search benchmark (issue 27 item 3). One company of 500,000 messages (50,000 tickets of 10, words
 * drawn from a Zipf-shaped vocabulary of Portuguese, Spanish and English words, accents included) put
 * straight into the embedded index through the search port, plus messages sent over the API that
 * travel the real path (table -> DynamoDB Local's stream -> feed -> index): their index lag is
 * measured. Then GET /search over HTTP at 10 concurrent clients for BENCH_SECONDS per query kind
 * (common word, two words, rare word, prefix, phrase, filters, an attendant's visibility), printing
 * p50/p99 per kind and overall, the index's size on disk (snapshot + journal) and the memory.
 *
 *   npm run bench -- search                                   # 500,000 messages, 10 s per kind
 *   BENCH_MESSAGES=50000 BENCH_SECONDS=3 npm run bench -- search   # a quick look
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack } from '../../infra/local/stack';
import { searchPort } from '../../functions/lib/search/index';
import type { MemorySearch } from '../../functions/lib/search/memory';
import type { SearchDoc, TicketFacts } from '../../functions/lib/search/port';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 500_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10);
const API_MESSAGES = Number(process.env.BENCH_API_MESSAGES ?? 200);
const PER_TICKET = 10;
const DAY_MS = 86_400_000;

const dataDir = mkdtempSync(join(tmpdir(), 'search-bench-'));
const stack = await startStack({ timers: false, logLevel: 'error', sessionRunner: false, dataDir });
const base = `${stack.url}/api`;

async function call(method: string, path: string, token?: string, body?: unknown): Promise<any> {
  let res: Response;
  try {
    res = await send(method, path, token, body);
  } catch (err) {
    // a kept-alive connection the server closed as the request left: once more on a new one
    if (!(err instanceof TypeError)) throw err;
    res = await send(method, path, token, body);
  }
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}
function send(method: string, path: string, token?: string, body?: unknown) {
  return fetch(base + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
}

// ---- the company, two queues, an attendant of one of them, a connection
const email = `search-bench-${randomUUID().slice(0, 6)}@bench.dev`;
const plan = (await call('GET', '/plans/list'))[0];
const signup = await call('POST', '/companies/cadastro', undefined, {
  companyName: 'Search Bench',
  name: 'Bench Admin',
  email,
  password: 'secret123',
  planId: plan.id,
});
const companyId: number = signup.company.id;
const token: string = (await call('POST', '/auth/login', undefined, { email, password: 'secret123' })).token;
const queues = [
  await call('POST', '/queue', token, { name: 'Vendas', color: '#e53935', greetingMessage: '' }),
  await call('POST', '/queue', token, { name: 'Suporte', color: '#1e88e5', greetingMessage: '' }),
] as { id: number }[];
await call('POST', '/users', token, {
  name: 'Agent',
  email: `agent-${email}`,
  password: 'secret123',
  profile: 'user',
  queueIds: [queues[0]!.id],
});
const agentToken: string = (
  await call('POST', '/auth/login', undefined, { email: `agent-${email}`, password: 'secret123' })
).token;
const connection = await call('POST', '/whatsapp', token, {
  name: 'Bench phone',
  isDefault: true,
  greetingMessage: '',
});

// ---- a vocabulary: real words (accents, three languages) ahead of many made-up ones, Zipf-drawn
const REAL = `olá bom dia boa tarde noite obrigado obrigada por favor pedido entrega boleto pagamento pix fatura nota
fiscal segunda via vencimento atraso reembolso troca devolução produto preço desconto frete endereço prazo
cancelamento cadastro senha acesso aplicativo site loja cartão crédito débito parcela juros cobrança recibo
orçamento proposta contrato assinatura plano mensal anual suporte técnico problema erro ajuda atendimento
urgente amanhã hoje ontem semana mês março abril maio junho julho agosto setembro outubro novembro dezembro
hola gracias señor señora pedido envío factura pago tarjeta mañana problema ayuda cuenta precio descuento
hello thanks please order delivery invoice payment refund account password help issue price discount shipping`
  .split(/\s+/)
  .filter(Boolean);
const syllables = [
  'ba',
  'ca',
  'da',
  'fe',
  'gi',
  'lo',
  'ma',
  'ne',
  'pi',
  'qu',
  'ra',
  'se',
  'ti',
  'vo',
  'xa',
  'zu',
  'ção',
  'ão',
  'é',
  'ñu',
];
const made: string[] = [];
for (let i = 0; made.length < 30_000; i++) {
  let w = '';
  for (let n = i, k = 0; k < 2 + (i % 3); k++, n = Math.floor(n / syllables.length) + k * 7)
    w += syllables[n % syllables.length];
  made.push(`${w}${i % 97}`);
}
const vocabulary = [...REAL, ...made];
// Zipf: weight 1/rank; a cumulative table and a binary search draw a word
const cumulative: number[] = [];
let total = 0;
for (let r = 1; r <= vocabulary.length; r++) {
  total += 1 / r;
  cumulative.push(total);
}
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
function word() {
  const x = random() * total;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return vocabulary[lo]!;
}
const sentence = () => {
  const n = 3 + Math.floor(random() * 15);
  const ws: string[] = [];
  for (let i = 0; i < n; i++) ws.push(word());
  const text = ws.join(' ');
  return text[0]!.toUpperCase() + text.slice(1);
};

// ---- 500,000 messages straight into the index, oldest first (as the feed and the reindex give them)
const port = searchPort() as MemorySearch;
const statuses = ['closed', 'closed', 'closed', 'open', 'pending'];
const tickets = MESSAGES / PER_TICKET;
const started = Date.now();
const now = Date.now();
let batch: SearchDoc[] = [];
for (let i = 0; i < MESSAGES; i++) {
  const t = i % tickets;
  const facts: TicketFacts = {
    ticketId: 1_000_000 + t,
    uuid: `00000000-0000-4000-8000-${String(t).padStart(12, '0')}`,
    status: statuses[t % statuses.length]!,
    queueId: t % 3 === 2 ? null : queues[t % 3]!.id,
    userId: null,
    whatsappId: connection.id,
    tagIds: [],
    contactId: 100_000 + t,
    contactName: `Cliente ${word()} ${t}`,
    contactNumber: `5511${String(900_000_000 + t)}`,
  };
  batch.push({
    ...facts,
    docId: `m:bench${i}`,
    companyId,
    kind: 'message',
    sourceId: `bench${i}`,
    text: sentence(),
    createdAt: new Date(now - 90 * DAY_MS + Math.floor((i / MESSAGES) * 90 * DAY_MS)).toISOString(),
  });
  if (batch.length === 5000) {
    await port.index(batch);
    batch = [];
  }
}
await port.index(batch);
port.flush();
const built = (Date.now() - started) / 1000;

// ---- messages through the table: the feed's lag (sent -> found by GET /search)
const contact = await call('POST', '/contacts', token, { name: 'Lag Probe', number: '5511955550000' });
const ticket = await call('POST', '/tickets', token, {
  contactId: contact.id,
  whatsappId: connection.id,
  status: 'open',
});
const lags: number[] = [];
for (let i = 0; i < API_MESSAGES; i++) {
  const marker = `sonda${i}x${randomUUID().slice(0, 6)}`;
  const sent = Date.now();
  await call('POST', `/messages/${ticket.id}`, token, { body: `${sentence()} ${marker}` });
  for (;;) {
    const found = await call('GET', `/search?q=${marker}%20`, token);
    if (found.results.length) break;
    if (Date.now() - sent > 10_000) throw new Error(`message ${marker} not found within 10 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
  lags.push(Date.now() - sent);
}

port.compact();
const onDisk = readdirSync(join(dataDir, 'search')).reduce((n, f) => n + statSync(join(dataDir, 'search', f)).size, 0);

// ---- queries: 10 clients per kind over HTTP
const inner: number[] = [];
if (process.env.BENCH_DEBUG) {
  const original = port.search.bind(port);
  port.search = async (r) => {
    const t0 = performance.now();
    const out = await original(r);
    inner.push(performance.now() - t0);
    return out;
  };
}
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};
const kinds: { name: string; q: () => string; token?: string; extra?: string }[] = [
  { name: 'common word', q: () => 'pedido ' },
  { name: 'two common words', q: () => 'boleto pagamento ' },
  { name: 'rare word', q: () => `${made[20_000 + Math.floor(random() * 9_000)]} ` },
  { name: 'prefix (3 letters)', q: () => ['ent', 'pag', 'fat', 'fre', 'can'][Math.floor(random() * 5)]! },
  { name: 'phrase', q: () => '"segunda via"' },
  { name: 'words + filters', q: () => 'entrega atraso ', extra: `&status=closed&queueId=${queues[1]!.id}` },
  { name: 'attendant (visibility)', q: () => 'fatura ', token: agentToken },
  { name: 'contact name + word', q: () => `cliente ${REAL[Math.floor(random() * 40)]} ` },
];
const all: number[] = [];
const rows: string[] = [];
for (const kind of kinds) {
  const times: number[] = [];
  let hits = 0;
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < until) {
        const t0 = performance.now();
        const out = await call(
          'GET',
          `/search?q=${encodeURIComponent(kind.q())}${kind.extra ?? ''}`,
          kind.token ?? token,
        );
        times.push(performance.now() - t0);
        hits += out.results.length;
      }
    }),
  );
  all.push(...times);
  if (process.env.BENCH_DEBUG)
    console.log(
      kind.name,
      'in the index: p50',
      pct(inner, 50).toFixed(2),
      'p99',
      pct(inner, 99).toFixed(2),
      inner.splice(0).length,
    );
  rows.push(
    `| ${kind.name} | ${(times.length / SECONDS).toFixed(0)} | ${pct(times, 50).toFixed(1)} | ${pct(times, 99).toFixed(1)} | ${(hits / times.length).toFixed(1)} |`,
  );
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
console.log(`
Search benchmark: ${MESSAGES.toLocaleString('en')} messages indexed in ${built.toFixed(1)} s (${tickets.toLocaleString('en')} tickets, one company)
Index on disk: ${mb(onDisk)} (snapshot + journal, ${join(dataDir, 'search')})
Memory after the build: RSS ${mb(process.memoryUsage().rss)}, heap ${mb(process.memoryUsage().heapUsed)}
Index lag (POST /messages -> found by GET /search), ${API_MESSAGES} messages: p50 ${pct(lags, 50)} ms, p99 ${pct(lags, 99)} ms, max ${Math.max(...lags)} ms

GET /search at ${CLIENTS} clients, ${SECONDS} s per kind (page of 20):
| query | req/s | p50 ms | p99 ms | hits/page |
|---|---|---|---|---|
${rows.join('\n')}
| all | ${(all.length / (SECONDS * kinds.length)).toFixed(0)} | ${pct(all, 50).toFixed(1)} | ${pct(all, 99).toFixed(1)} | |
`);
await stack.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
