import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import { log } from '#lib/log';
import type { SessionCommand } from '#shared/whatsapp-protocol';

/** What a runner answers a peer that forwarded it a command. */
export type ForwardOutcome = { outcome: 'done' } | { outcome: 'elsewhere' } | { outcome: 'retry'; seconds: number };

export interface RunnerApiHandlers {
  /** a command a peer received for a session this runner holds */
  command(command: SessionCommand): Promise<ForwardOutcome>;
  /** a peer handed this runner a session: open it now instead of at the next rebalance */
  adopt(companyId: number, whatsappId: number): Promise<void>;
  health(): Record<string, unknown>;
  /** one health tick now: every connected session probed (the local test stack probes on demand) */
  checkHealth(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The runner's small API for its peers (never public): `POST /commands` runs a command forwarded by
 * the runner that received it from the queue, `POST /adopt` opens a session just handed over,
 * `GET /health` is the liveness check, `POST /health-check` probes every session now. Calls other
 * than health carry this runner's token (a random secret it publishes in the fleet registry).
 */
export async function startRunnerApi(opts: { port: number; host: string; token: string; handlers: RunnerApiHandlers }) {
  const expected = Buffer.from(`Bearer ${opts.token}`);
  const authorized = (req: IncomingMessage) => {
    const got = Buffer.from(String(req.headers.authorization ?? ''));
    return got.length === expected.length && timingSafeEqual(got, expected);
  };
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const readJson = (req: IncomingMessage) =>
    new Promise<Record<string, unknown>>((done, fail) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY_BYTES) return req.destroy(new Error('body too large'));
        chunks.push(c);
      });
      req.on('end', () => {
        try {
          done(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
        } catch (err) {
          fail(err);
        }
      });
      req.on('error', fail);
    });

  const server = http.createServer(async (req, res) => {
    try {
      if (req.method === 'GET' && req.url === '/health') return json(res, 200, opts.handlers.health());
      if (req.method !== 'POST') return json(res, 404, { error: 'not found' });
      if (!authorized(req)) return json(res, 401, { error: 'unauthorized' });
      const body = await readJson(req);
      if (req.url === '/commands')
        return json(res, 200, await opts.handlers.command(body as unknown as SessionCommand));
      if (req.url === '/health-check') {
        await opts.handlers.checkHealth();
        return json(res, 200, { ok: true });
      }
      if (req.url === '/adopt') {
        await opts.handlers.adopt(Number(body.companyId), Number(body.whatsappId));
        return json(res, 202, { ok: true });
      }
      return json(res, 404, { error: 'not found' });
    } catch (err) {
      log.error('runner api failed', { url: req.url, error: (err as Error).message });
      if (!res.headersSent) json(res, 500, { error: 'internal' });
      else res.end();
    }
  });
  // a forwarded send may wait for its session to open: no server-side timeout cuts it short
  server.requestTimeout = 0;
  await new Promise<void>((listening, failed) => {
    server.once('error', failed);
    server.listen(opts.port, opts.host, () => listening());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
        server.closeIdleConnections();
      }),
  };
}
