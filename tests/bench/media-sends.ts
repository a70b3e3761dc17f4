/**
 * Outbound media under load (issue 37, R6 of whatsapp-review-3): one runner process holds
 * CONNECTIONS simulated sessions; one video of MB megabytes is uploaded once, then every connection's
 * ticket gets SENDS messages carrying it, all posted at once through the API (each connection sends
 * one after another, the connections side by side). The runner's resident memory (VmRSS) is sampled
 * every 100 ms; prints its peak above the idle runner, the messages on the phones and the time taken.
 * Run it with and without the cap (`MEDIA_BYTES_IN_FLIGHT`, read by the runner) to compare.
 * Exits 1 only on a broken run (a send missing or failed), never on a memory figure.
 *
 *   npx tsx tests/bench/media-sends.ts [connections] [sends per connection] [MB]
 *   npm run bench -- media-sends [connections] [sends per connection] [MB]
 * Defaults: 10 connections, 3 sends each, 16 MB.
 */
import { readFileSync } from 'node:fs';
import { startStack } from '../../infra/local/stack';
import { fleetStackOptions, pairSessions, pool, sleep, ticketsByNumber, waitFor } from '../fault/fleet-setup';

const arg = (i: number, env: string, fallback: number) => Number(process.argv[i] ?? process.env[env] ?? fallback);
const CONNECTIONS = arg(2, 'BENCH_CONNECTIONS', 10);
const SENDS = arg(3, 'BENCH_SENDS', 3);
const MB = arg(4, 'BENCH_MB', 16);

const began = Date.now();
const say = (line: string) => console.log(`[${((Date.now() - began) / 1000).toFixed(0)} s] ${line}`);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

/** VmRSS of a process, in bytes; undefined once it is gone. */
function vmRss(pid: number | undefined) {
  if (!pid) return undefined;
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** An MP4 as the upload policy sees one (an ISO BMFF `ftyp` box first), `bytes` long. */
function video(bytes: number) {
  const data = Buffer.alloc(bytes, 0x2a);
  Buffer.from('\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom', 'latin1').copy(data);
  return data;
}

const stack = await startStack(fleetStackOptions(1));
const runner = stack.runners[0]!;
const hub = stack.simulator!;
let failed = false;
try {
  say(
    `runner pid ${runner.pid}; ${CONNECTIONS} connections x ${SENDS} sends of a ${MB} MB video; ` +
      `MEDIA_BYTES_IN_FLIGHT=${process.env.MEDIA_BYTES_IN_FLIGHT ?? '(default)'}`,
  );
  const { call, token, companyId, connections } = await pairSessions(stack, CONNECTIONS);
  // one customer per connection writes first: the ticket the attendant answers with the video
  const numberOf = (i: number) => `5511788${String(i).padStart(6, '0')}`;
  await pool(
    connections.map((_, i) => i),
    8,
    (i) =>
      call('POST', `/@simulator/sessions/${companyId}/${connections[i]}/messages`, {
        from: numberOf(i),
        wid: `MEDIABENCH${String(i).padStart(6, '0')}`,
        body: 'hello',
        pushName: `Customer ${i}`,
      }),
  );
  let tickets = new Map<string, number>();
  await waitFor('a ticket per connection', async () => {
    tickets = await ticketsByNumber(call, token);
    return connections.every((_, i) => tickets.has(numberOf(i)));
  });

  const upload = await call<{ key: string; url: string; fields: Record<string, string> }>(
    'POST',
    '/api/uploads',
    { fileName: 'promo.mp4', contentType: 'video/mp4' },
    token,
  );
  const form = new FormData();
  for (const [name, value] of Object.entries(upload.fields)) form.append(name, value);
  form.append('file', new Blob([video(MB * 1024 * 1024)]), 'promo.mp4');
  const stored = await fetch(upload.url, { method: 'POST', body: form });
  if (!stored.ok) throw new Error(`upload: ${stored.status} ${await stored.text()}`);

  // the runner idle with its sessions, a few samples
  const idle: number[] = [];
  for (let i = 0; i < 10; i++) {
    idle.push(vmRss(runner.pid) ?? 0);
    await sleep(200);
  }
  const idleRss = Math.max(...idle);
  say(`runner RSS before the sends: ${mb(idleRss)} MB`);

  let peak = idleRss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, vmRss(runner.pid) ?? 0);
  }, 100);
  const onPhones = () =>
    connections.reduce(
      (n, id) =>
        n + (hub.snapshot(companyId, id) as { outbound: { media?: unknown }[] }).outbound.filter((o) => o.media).length,
      0,
    );
  const started = Date.now();
  await Promise.all(
    connections.flatMap((_, i) =>
      Array.from({ length: SENDS }, (__, n) =>
        call(
          'POST',
          `/api/messages/${tickets.get(numberOf(i))}`,
          {
            body: `promo ${n}`,
            media: { key: upload.key, mimetype: 'video/mp4', fileName: 'promo.mp4' },
          },
          token,
        ),
      ),
    ),
  );
  const total = CONNECTIONS * SENDS;
  await waitFor('every video on the phones', () => onPhones() >= total, 600_000);
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  const sent = onPhones();
  say(
    `sent ${sent} of ${total} videos in ${seconds.toFixed(1)} s; runner RSS peak ${mb(peak)} MB ` +
      `(${mb(peak - idleRss)} MB above the ${mb(idleRss)} MB before the sends)`,
  );
  if (sent !== total) failed = true;
} catch (err) {
  failed = true;
  say(`broken run: ${(err as Error).message}`);
} finally {
  await stack.stop();
}
process.exit(failed ? 1 : 0);
