import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  hkdfSync,
  randomBytes,
  randomUUID,
  verify,
  type ECDH,
} from 'node:crypto';

/**
 * A local push service (local stack only; nothing reaches Google, Mozilla, Microsoft or Apple), on
 * its own origin on 127.0.0.1, which the stack (and only it) lets subscriptions name (PUSH_FAKE_ORIGIN).
 *
 * `POST <origin>/push/<id>` is a push service's endpoint (RFC 8030): it checks the VAPID
 * `Authorization: vapid t=<JWT>, k=<public key>` (RFC 8292: ES256 signature under k, `aud` this
 * origin, `exp` in the future and within 24 h, a mailto:/https: `sub`; k the key the subscription was
 * made with, when one was given), requires TTL and `Content-Encoding: aes128gcm`, and decrypts the
 * body as the browser would (RFC 8291 over RFC 8188: ECDH with the subscription's private key, HKDF
 * with its auth secret, AES-128-GCM), written here with node:crypto alone, so a message it records
 * is proven to be a valid encrypted Web Push message. It answers 201, or 404 for an unknown
 * subscription, 410 for one marked gone, and the status a test scripted.
 *
 * Its control endpoints are served by the gateway under `/@push/` (see `control`):
 * - `POST /@push/subscriptions` `{ applicationServerKey? }`: what a browser's pushManager.subscribe()
 *   gives, `{ id, endpoint, keys: { p256dh, auth } }` (a fresh P-256 key pair and 16-byte secret);
 * - `GET /@push/subscriptions/<id>/messages`: `{ messages, rejected }`, each decrypted message
 *   (payload, TTL, urgency, VAPID claims) and each refused request with its reason;
 * - `POST /@push/subscriptions/<id>/gone`: from now on it answers 410;
 * - `POST /@push/subscriptions/<id>/status` `{ status }`: answer that status (null: back to normal).
 */
export interface PushFake {
  origin: string;
  control: (req: IncomingMessage, res: ServerResponse, body: Buffer) => Promise<void>;
  close(): Promise<void>;
}

export interface ReceivedPush {
  at: string;
  ttl: number;
  urgency: string | null;
  topic: string | null;
  vapid: { aud: string; sub: string; exp: number; k: string };
  /** the decrypted body, parsed when it is JSON */
  payload: unknown;
}

interface FakeSubscription {
  id: string;
  ecdh: ECDH;
  /** the browser's public key (p256dh), uncompressed */
  publicKey: Buffer;
  auth: Buffer;
  /** the VAPID key it was made with, if the test gave one */
  applicationServerKey?: string;
  gone: boolean;
  status: number | null;
  messages: ReceivedPush[];
  rejected: { at: string; status: number; reason: string }[];
}

/** RFC 8030: a push service must accept at least 4096 bytes of payload. */
const MAX_BODY = 4096;
const MAX_JWT_SECONDS = 24 * 60 * 60;

class Refused extends Error {
  constructor(
    readonly status: number,
    reason: string,
  ) {
    super(reason);
  }
}

const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(body === undefined ? '' : JSON.stringify(body));
};
const b64 = (bytes: Buffer) => bytes.toString('base64url');
const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((done, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks)));
    req.on('error', fail);
  });

/** RFC 8292: the JWT is ES256 under `k` (an uncompressed P-256 point), for this origin, not expired. */
function checkVapid(header: string | undefined, origin: string, sub: FakeSubscription) {
  const match = /^vapid\s+(.*)$/i.exec(header ?? '');
  if (!match) throw new Refused(401, 'no vapid authorization');
  const params = Object.fromEntries(
    match[1]!.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    }),
  );
  const { t: jwt, k } = params as { t?: string; k?: string };
  if (!jwt || !k) throw new Refused(401, 'vapid t= and k= required');
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Refused(401, 'k is not an uncompressed P-256 point');
  if (sub.applicationServerKey && sub.applicationServerKey.replace(/=+$/, '') !== k.replace(/=+$/, ''))
    throw new Refused(403, 'k is not the key the subscription was made with');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64(point.subarray(1, 33)), y: b64(point.subarray(33, 65)) },
    format: 'jwk',
  });
  const [h, c, s] = jwt.split('.');
  if (!h || !c || !s) throw new Refused(401, 'malformed jwt');
  let head: { alg?: string };
  let claims: { aud?: string; exp?: number; sub?: string };
  try {
    head = JSON.parse(Buffer.from(h, 'base64url').toString());
    claims = JSON.parse(Buffer.from(c, 'base64url').toString());
  } catch {
    throw new Refused(401, 'malformed jwt');
  }
  if (head.alg !== 'ES256') throw new Refused(401, 'jwt alg must be ES256');
  const signature = Buffer.from(s, 'base64url');
  const valid =
    signature.length === 64 &&
    verify('sha256', Buffer.from(`${h}.${c}`), { key, dsaEncoding: 'ieee-p1363' }, signature);
  if (!valid) throw new Refused(403, 'jwt signature does not verify with k');
  const now = Math.floor(Date.now() / 1000);
  if (claims.aud !== origin) throw new Refused(403, `jwt aud ${claims.aud} is not ${origin}`);
  if (typeof claims.exp !== 'number' || claims.exp <= now) throw new Refused(403, 'jwt expired');
  if (claims.exp > now + MAX_JWT_SECONDS) throw new Refused(403, 'jwt exp more than 24 hours ahead');
  if (!/^(mailto:|https:)/.test(claims.sub ?? '')) throw new Refused(403, 'jwt sub must be mailto: or https:');
  return { aud: claims.aud, sub: claims.sub!, exp: claims.exp, k };
}

/**
 * RFC 8291 / RFC 8188: header salt(16) | rs(4) | idlen(1) | keyid (the sender's ephemeral public
 * key), then one record: AES-128-GCM ciphertext and tag, whose plaintext ends with the 0x02
 * delimiter and optional zero padding.
 */
export function decryptWebPush(body: Buffer, sub: { ecdh: ECDH; publicKey: Buffer; auth: Buffer }): Buffer {
  if (body.length < 21) throw new Refused(400, 'body shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  if (idlen !== 65) throw new Refused(400, 'keyid is not a P-256 public key');
  const senderKey = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (record.length < 17 || record.length > rs) throw new Refused(400, 'not exactly one record');
  let shared: Buffer;
  try {
    shared = sub.ecdh.computeSecret(senderKey);
  } catch {
    throw new Refused(400, 'keyid is not on the curve');
  }
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), sub.publicKey, senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, sub.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  } catch {
    throw new Refused(400, 'does not decrypt (wrong keys, or tampered)');
  }
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (end < 0 || plain[end] !== 2) throw new Refused(400, 'no last-record delimiter');
  return plain.subarray(0, end);
}

export async function startPushFake(host = '127.0.0.1'): Promise<PushFake> {
  const subscriptions = new Map<string, FakeSubscription>();
  let origin = '';

  const receive = async (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/push\/([^/]+)$/.exec(new URL(req.url ?? '/', origin).pathname);
    if (!match || req.method !== 'POST') return send(res, 404, { error: 'not found' });
    const sub = subscriptions.get(match[1]!);
    const body = await readBody(req);
    if (!sub) return send(res, 404, { error: 'no such subscription' });
    const refuse = (status: number, reason: string) => {
      sub.rejected.push({ at: new Date().toISOString(), status, reason });
      send(res, status, { error: reason });
    };
    if (sub.gone) return refuse(410, 'subscription gone');
    if (sub.status) return refuse(sub.status, 'scripted answer');
    try {
      const vapid = checkVapid(req.headers.authorization, origin, sub);
      const ttl = Number(req.headers.ttl);
      if (req.headers.ttl === undefined || !Number.isInteger(ttl) || ttl < 0) throw new Refused(400, 'TTL required');
      if (req.headers['content-encoding'] !== 'aes128gcm') throw new Refused(415, 'content-encoding must be aes128gcm');
      if (body.length > MAX_BODY) throw new Refused(413, 'payload too large');
      const plain = decryptWebPush(body, sub).toString('utf8');
      let payload: unknown = plain;
      try {
        payload = JSON.parse(plain);
      } catch {
        // a text payload stays text
      }
      sub.messages.push({
        at: new Date().toISOString(),
        ttl,
        urgency: (req.headers.urgency as string | undefined) ?? null,
        topic: (req.headers.topic as string | undefined) ?? null,
        vapid,
        payload,
      });
      return send(res, 201, undefined, { location: `${origin}/message/${randomUUID()}` });
    } catch (err) {
      if (err instanceof Refused) return refuse(err.status, err.message);
      throw err;
    }
  };

  const server = createServer((req, res) => {
    receive(req, res).catch((err) => send(res, 500, { error: String(err) }));
  });
  await new Promise<void>((done) => server.listen(0, host, done));
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;

  const control: PushFake['control'] = async (req, res, raw) => {
    const path = new URL(req.url ?? '/', origin).pathname.slice('/@push'.length);
    const body = raw.length ? (JSON.parse(raw.toString()) as Record<string, unknown>) : {};
    if (path === '/subscriptions' && req.method === 'POST') {
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const sub: FakeSubscription = {
        id: randomUUID(),
        ecdh,
        publicKey,
        auth: randomBytes(16),
        applicationServerKey: typeof body.applicationServerKey === 'string' ? body.applicationServerKey : undefined,
        gone: false,
        status: null,
        messages: [],
        rejected: [],
      };
      subscriptions.set(sub.id, sub);
      return send(res, 201, {
        id: sub.id,
        endpoint: `${origin}/push/${sub.id}`,
        expirationTime: null,
        keys: { p256dh: b64(publicKey), auth: b64(sub.auth) },
      });
    }
    const match = /^\/subscriptions\/([^/]+)\/(messages|gone|status)$/.exec(path);
    const sub = match && subscriptions.get(match[1]!);
    if (!sub) return send(res, 404, { error: 'no such subscription' });
    if (match[2] === 'messages') return send(res, 200, { messages: sub.messages, rejected: sub.rejected });
    if (req.method !== 'POST') return send(res, 405, { error: 'method' });
    if (match[2] === 'gone') sub.gone = true;
    else sub.status = typeof body.status === 'number' ? body.status : null;
    return send(res, 200, { ok: true });
  };

  return {
    origin,
    control,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
