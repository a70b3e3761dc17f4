/**
 * Contacts import benchmark (security review M11): one POST /contacts/upload of 5,000 rows against
 * the local stack, as a fresh company's admin. Prints the time, DynamoDB calls and capacity, and
 * checks that every row was stored. The API Gateway limit on AWS is 30 s (29 s for the Lambda).
 *
 *   npx tsx tests/bench/contacts-import.ts            # 5,000 rows, 3 runs
 *   BENCH_ROWS=2000 BENCH_RUNS=1 npx tsx tests/bench/contacts-import.ts
 */
import { randomUUID } from 'node:crypto';
import { startStack } from '../../infra/local/stack';
import { metrics } from '../../functions/lib/metrics';

const ROWS = Number(process.env.BENCH_ROWS ?? 5000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const stack = await startStack({ timers: false, logLevel: 'error', sessionRunner: false });
const base = `${stack.url}/api`;

async function call(method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

try {
  console.log(`| run | rows | seconds | rows/s | DDB calls | capacity units | stored |`);
  console.log(`|---|---|---|---|---|---|---|`);
  for (let run = 1; run <= RUNS; run++) {
    const email = `bench-${randomUUID().slice(0, 8)}@bench.dev`;
    const password = 'secret123';
    await call('POST', '/companies/cadastro', undefined, {
      companyName: 'Bench import',
      name: 'Owner',
      email,
      password,
      phone: '11999998888',
      planId: 1,
    });
    const { token } = await call('POST', '/auth/login', undefined, { email, password });
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      name: `Bench ${i}`,
      number: `55${String(run).padStart(2, '0')}${String(i).padStart(9, '0')}`,
    }));
    const before = metrics.total();
    const started = performance.now();
    const out = await call('POST', '/contacts/upload', token, rows);
    const seconds = (performance.now() - started) / 1000;
    const after = metrics.total();
    const used = { calls: after.calls - before.calls, capacity: after.capacity - before.capacity };
    const stored = (await call('GET', '/contacts?limit=1', token)).count;
    console.log(
      `| ${run} | ${ROWS} | ${seconds.toFixed(1)} | ${Math.round(ROWS / seconds)} | ${used.calls} | ${used.capacity.toFixed(0)} | ${stored}${out.newContacts.length === ROWS ? '' : ' (short!)'} |`,
    );
  }
} finally {
  await stack.stop();
}
