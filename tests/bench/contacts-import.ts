/**
 * Contacts import benchmark (security review M11): one POST /contacts/upload of 5,000 rows against
 * the local stack, as a fresh company's admin. Prints the time, DynamoDB calls and capacity, and
 * checks that every row was stored. The API Gateway limit on AWS is 30 s (29 s for the Lambda).
 *
 *   npx tsx tests/bench/contacts-import.ts            # 5,000 rows, 3 runs
 *   BENCH_ROWS=2000 BENCH_RUNS=1 npx tsx tests/bench/contacts-import.ts
 *   BENCH_TARGET=contact-list BENCH_ROWS=10000 npx tsx tests/bench/contacts-import.ts
 *
 * With BENCH_TARGET=contact-list the rows go, as an .xlsx file, to POST /contact-lists/{id}/upload
 * (issue 11: 10,000 rows inside the API time limit).
 */
import { randomUUID } from 'node:crypto';
import * as XLSX from '@e965/xlsx';
import { startStack } from '../../infra/local/stack';
import { metrics } from '../../functions/lib/metrics';

const ROWS = Number(process.env.BENCH_ROWS ?? 5000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET = process.env.BENCH_TARGET === 'contact-list' ? 'contact-list' : 'contacts';

/** The rows as the .xlsx a user uploads to a contact list. */
function workbook(rows: { name: string; number: string }[]) {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.json_to_sheet(rows), 'contacts');
  const form = new FormData();
  const bytes = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
  form.append(
    'file',
    new Blob([new Uint8Array(bytes)], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }),
    'contacts.xlsx',
  );
  return form;
}

/** One import of `rows`; answers how many were stored. */
async function importRows(token: string, rows: { name: string; number: string }[]) {
  if (TARGET === 'contacts') {
    const out = await call('POST', '/contacts/upload', token, rows);
    return {
      created: out.newContacts.length as number,
      stored: async () => (await call('GET', '/contacts?limit=1', token)).count,
    };
  }
  const list = await call('POST', '/contact-lists', token, { name: 'Bench list' });
  const res = await fetch(`${base}/contact-lists/${list.id}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: workbook(rows),
  });
  if (res.status >= 400) throw new Error(`contact list upload: ${res.status} ${await res.text()}`);
  const out = await res.json();
  return {
    created: out.created as number,
    stored: async () => (await call('GET', `/contact-lists/${list.id}`, token)).contactsCount as number,
  };
}

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
    const out = await importRows(token, rows);
    const seconds = (performance.now() - started) / 1000;
    const after = metrics.total();
    const used = { calls: after.calls - before.calls, capacity: after.capacity - before.capacity };
    const stored = await out.stored();
    console.log(
      `| ${run} | ${ROWS} | ${seconds.toFixed(1)} | ${Math.round(ROWS / seconds)} | ${used.calls} | ${used.capacity.toFixed(0)} | ${stored}${out.created === ROWS ? '' : ' (short!)'} |`,
    );
    // CI runs this as the 10,000-row proof (.ci/run): a row lost or doubled fails it
    if (out.created !== ROWS || stored !== ROWS) {
      console.error(`rows lost or doubled: ${ROWS} sent, ${out.created} created, ${stored} stored`);
      process.exitCode = 1;
    }
  }
} finally {
  await stack.stop();
}
