import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { InjectedMessage, SimulatedPhone, SimulatorRegistry } from './providers/simulator';

/** The JSON bodies the test endpoints accept; each endpoint reads its own fields. */
type SimulatorBody = Record<string, unknown>;

/**
 * The simulator's local-only endpoints (`/@simulator/...`, proxied by the local gateway): scan a
 * QR code, inject inbound messages, read what was sent, move acks, drop the socket or make it go
 * silent. Never part of
 * the AWS stack (the runner starts this server only with SIMULATOR_PORT).
 */
export function startSimulatorServer(registry: SimulatorRegistry, port: number) {
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const readJson = (req: IncomingMessage) =>
    new Promise<SimulatorBody>((done, fail) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          done(text ? JSON.parse(text) : {});
        } catch (err) {
          fail(err);
        }
      });
      req.on('error', fail);
    });

  /** Waits until the connection's phone exists and passes `ready` (a session starts asynchronously). */
  const phoneFor = async (
    companyId: number,
    whatsappId: number,
    ready: (p: SimulatedPhone) => boolean = () => true,
    waitMs = 8000,
  ) => {
    const until = Date.now() + waitMs;
    for (;;) {
      const phone = registry.get(companyId, whatsappId);
      if (phone && ready(phone)) return phone;
      if (Date.now() > until) return undefined;
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://simulator');
    const parts = url.pathname.split('/').filter(Boolean); // ['@simulator', 'sessions', cid, wid, action]
    try {
      if (url.pathname === '/@simulator/health') return json(res, 200, { ok: true });
      const body = req.method === 'POST' ? await readJson(req) : {};
      if (url.pathname === '/@simulator/absent') {
        registry.absent.add(String(body.number).replace(/\D/g, ''));
        return json(res, 200, { ok: true });
      }
      if (url.pathname === '/@simulator/fail-sends') {
        registry.failSends.add(String(body.to));
        return json(res, 200, { ok: true });
      }
      if (parts[1] !== 'sessions' || !parts[2] || !parts[3]) return json(res, 404, { error: 'not found' });
      const [companyId, whatsappId, action] = [Number(parts[2]), Number(parts[3]), parts[4] ?? ''];
      if (req.method === 'GET' && !action) {
        const phone = registry.get(companyId, whatsappId);
        return json(
          res,
          200,
          phone ? phone.snapshot() : { status: 'NONE', outbound: registry.outboundOf(companyId, whatsappId) },
        );
      }
      if (req.method !== 'POST') return json(res, 405, { error: 'method not allowed' });
      const connected = (p: SimulatedPhone) => p.status === 'CONNECTED';
      switch (action) {
        case 'scan': {
          const phone = await phoneFor(companyId, whatsappId, (p) => p.status === 'qrcode');
          if (!phone) return json(res, 409, { error: 'no QR code shown for this connection' });
          await phone.scan(String(body.number ?? '5511900000000'));
          return json(res, 200, { ok: true });
        }
        case 'messages': {
          const phone = await phoneFor(companyId, whatsappId, connected);
          if (!phone) return json(res, 409, { error: 'not connected' });
          return json(res, 200, await phone.inject(body as unknown as InjectedMessage));
        }
        case 'ack': {
          const phone = await phoneFor(companyId, whatsappId, connected);
          if (!phone) return json(res, 409, { error: 'not connected' });
          return json(res, 200, {
            ack: await phone.advanceAck(String(body.wid), body.ack === undefined ? undefined : Number(body.ack)),
          });
        }
        case 'edit':
        case 'revoke': {
          const phone = await phoneFor(companyId, whatsappId, connected);
          if (!phone) return json(res, 409, { error: 'not connected' });
          // the protocol message's sender: a contact unless `fromMe`; in groups, `participantJid`
          const sender = {
            wid: String(body.wid),
            chatJid: String(body.chatJid),
            fromMe: body.fromMe === true,
            ...(body.participantJid ? { participantJid: String(body.participantJid) } : {}),
          };
          if (action === 'edit') await phone.ctx.events.edit({ ...sender, body: String(body.body) });
          else await phone.ctx.events.revoke(sender);
          return json(res, 200, { ok: true });
        }
        case 'call': {
          const phone = await phoneFor(companyId, whatsappId, connected);
          if (!phone) return json(res, 409, { error: 'not connected' });
          const callId = String(body.callId ?? `CALL${Date.now()}`);
          const from = String(body.from).includes('@')
            ? String(body.from)
            : `${String(body.from).replace(/\D/g, '')}@s.whatsapp.net`;
          const fromAlt = body.fromAlt ? String(body.fromAlt) : undefined;
          await phone.ctx.events.call({ callId, from, fromAlt, timestamp: Math.floor(Date.now() / 1000) });
          return json(res, 200, { callId, rejected: registry.rejectedCalls });
        }
        case 'drop': {
          const phone = await phoneFor(companyId, whatsappId);
          if (!phone) return json(res, 409, { error: 'no session' });
          phone.drop(Number(body.code));
          return json(res, 200, { ok: true });
        }
        case 'address-book': {
          const entries = Array.isArray(body.contacts) ? (body.contacts as { number: string; name: string }[]) : [];
          registry.setAddressBook(
            companyId,
            whatsappId,
            entries.map((e) => ({ number: String(e.number).replace(/\D/g, ''), name: String(e.name ?? '') })),
          );
          return json(res, 200, { ok: true, count: entries.length });
        }
        case 'silent': {
          const phone = await phoneFor(companyId, whatsappId, connected);
          if (!phone) return json(res, 409, { error: 'not connected' });
          phone.goSilent();
          return json(res, 200, { ok: true });
        }
        default:
          return json(res, 404, { error: 'not found' });
      }
    } catch (err) {
      return json(res, 500, { error: (err as Error).message });
    }
  });
  return new Promise<http.Server>((done) => server.listen(port, '127.0.0.1', () => done(server)));
}
