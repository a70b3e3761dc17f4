/**
 * What real Baileys sessions cost in memory, measured without WhatsApp (issue 23): this machine
 * cannot reach it, so the parts are measured one by one in this process, each after a full GC
 * (run with --expose-gc; the runner itself is never forced):
 * - loading Baileys (@whiskeysockets/baileys, the version the runner ships);
 * - N fresh auth states (initAuthCreds: the creds the AuthStore pins per session);
 * - N sockets from makeWASocket against a local WebSocket server that accepts and never answers
 *   (each sits in its Noise handshake: the socket, its event buffer, its caches, its timers);
 * - the Signal session record of one contact after a real exchange (libsignal, as Baileys stores
 *   it): its JSON size and the heap it takes, times the key cache's bound (KEY_CACHE_MAX) = what
 *   a session's key cache can hold at most; and the CPU time of decrypting a message.
 * And the runner process itself holding no session, with the provider `simulator` (Baileys never
 * loaded) and `baileys`, run by tsx over the sources and, once built (`npm run build:runner`), as
 * the container runs it (the bundle).
 *   node --expose-gc --import tsx tests/bench/baileys-memory.ts [sockets]
 */
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

const SOCKETS = Number(process.argv[2] ?? 200);
const CREDS = 1_000;
/** KEY_CACHE_MAX of session-runner/src/auth-store.ts: the signal keys one session keeps in memory */
const RECORDS = 500;
/** messages each side sends in the Signal exchange (ratchet steps and chain keys kept in the record) */
const EXCHANGE = 20;

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (see the header)');
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 50));
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed, external: m.external + m.arrayBuffers };
};
const MB = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const KB = (bytes: number) => (bytes / 1024).toFixed(1);
type Mem = Awaited<ReturnType<typeof settle>>;
const delta = (a: Mem, b: Mem, n = 1) =>
  `RSS ${KB((b.rss - a.rss) / n)} KB, heap ${KB((b.heap - a.heap) / n)} KB, external ${KB((b.external - a.external) / n)} KB`;

const start = await settle();
console.log(`node ${process.version} alone: RSS ${MB(start.rss)} MB, heap ${MB(start.heap)} MB`);

// ---- the module
const baileys = await import('@whiskeysockets/baileys');
const loaded = await settle();
const { version } = JSON.parse(readFileSync('node_modules/@whiskeysockets/baileys/package.json', 'utf8'));
console.log(
  `Baileys ${version} loaded: +${MB(loaded.rss - start.rss)} MB RSS, +${MB(loaded.heap - start.heap)} MB heap`,
);

// ---- auth states
const creds = Array.from({ length: CREDS }, () => baileys.initAuthCreds());
const withCreds = await settle();
console.log(`${CREDS} auth states (initAuthCreds): ${delta(loaded, withCreds, CREDS)} each`);

// ---- sockets against a server that never answers
const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
await once(server, 'listening');
let accepted = 0;
server.on('connection', () => accepted++);
const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws/chat`;
const silent = {
  level: 'silent',
  child: () => silent,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  fatal: () => undefined,
};
const before = await settle();
const sockets = creds.slice(0, SOCKETS).map((c) => {
  const keys = new Map<string, unknown>();
  const store = {
    get: async (type: string, ids: string[]) =>
      Object.fromEntries(ids.filter((id) => keys.has(`${type}.${id}`)).map((id) => [id, keys.get(`${type}.${id}`)])),
    set: async (data: Record<string, Record<string, unknown>>) => {
      for (const [type, entries] of Object.entries(data))
        for (const [id, v] of Object.entries(entries)) keys.set(`${type}.${id}`, v);
    },
  };
  return baileys.default({
    waWebSocketUrl: url,
    // the handshake waits this long for the server: longer than the measurement
    connectTimeoutMs: 600_000,
    version: [2, 3000, 1_000_000_000],
    auth: { creds: c, keys: baileys.makeCacheableSignalKeyStore(store as never, silent as never) },
    logger: silent as never,
    markOnlineOnConnect: false,
    syncFullHistory: false,
  });
});
const deadline = Date.now() + 30_000;
while (accepted < SOCKETS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
await new Promise((r) => setTimeout(r, 2_000));
const withSockets = await settle();
console.log(
  `${SOCKETS} sockets in their handshake (${accepted} connections accepted): ${delta(before, withSockets, SOCKETS)} each`,
);
for (const s of sockets) s.end(undefined);
server.close();
await new Promise((r) => setTimeout(r, 1_000));

// ---- one contact's Signal session record after a real exchange
type KeyPair = { pubKey: Buffer; privKey: Buffer };
/** libsignal's key helpers (its typings leave them out) */
interface KeyHelper {
  generateIdentityKeyPair(): KeyPair;
  generateRegistrationId(): number;
  generatePreKey(keyId: number): { keyId: number; keyPair: KeyPair };
  generateSignedPreKey(identity: KeyPair, keyId: number): { keyId: number; keyPair: KeyPair; signature: Buffer };
}
const libsignal = await import('libsignal');
const { ProtocolAddress, SessionBuilder, SessionCipher, SessionRecord } = libsignal;
const { keyhelper } = libsignal as unknown as { keyhelper: KeyHelper };
const party = (name: string) => {
  const identity = keyhelper.generateIdentityKeyPair();
  const registrationId = keyhelper.generateRegistrationId();
  const preKey = keyhelper.generatePreKey(1);
  const signedPreKey = keyhelper.generateSignedPreKey(identity, 1);
  const sessions = new Map<string, unknown>();
  const storage = {
    getOurIdentity: async () => identity,
    getOurRegistrationId: async () => registrationId,
    isTrustedIdentity: async () => true,
    loadPreKey: async () => preKey.keyPair,
    loadSignedPreKey: async () => signedPreKey.keyPair,
    removePreKey: async () => undefined,
    // stored as Baileys stores it: the record's serialize() output
    loadSession: async (id: string) =>
      sessions.has(id) ? SessionRecord.deserialize(sessions.get(id) as never) : undefined,
    storeSession: async (id: string, record: { serialize(): unknown }) => void sessions.set(id, record.serialize()),
  };
  return { name, identity, registrationId, preKey, signedPreKey, sessions, storage };
};
const alice = party('alice');
const bob = party('bob');
const toBob = new ProtocolAddress('bob', 0);
const toAlice = new ProtocolAddress('alice', 0);
await new SessionBuilder(alice.storage as never, toBob).initOutgoing({
  identityKey: bob.identity.pubKey,
  registrationId: bob.registrationId,
  preKey: { keyId: bob.preKey.keyId, publicKey: bob.preKey.keyPair.pubKey },
  signedPreKey: {
    keyId: bob.signedPreKey.keyId,
    publicKey: bob.signedPreKey.keyPair.pubKey,
    signature: bob.signedPreKey.signature,
  },
});
// libsignal's types call a ciphertext a string; it is a Buffer
const bytes = (body: unknown) => body as Uint8Array;
const aliceCipher = new SessionCipher(alice.storage as never, toBob);
const bobCipher = new SessionCipher(bob.storage as never, toAlice);
const first = await aliceCipher.encrypt(Buffer.from('hello'));
const t0 = performance.now();
await bobCipher.decryptPreKeyWhisperMessage(bytes(first.body));
const preKeyMs = performance.now() - t0;
const decryptMs: number[] = [];
for (let i = 0; i < EXCHANGE; i++) {
  const reply = await bobCipher.encrypt(Buffer.from(`reply ${i}`));
  await aliceCipher.decryptWhisperMessage(bytes(reply.body));
  const next = await aliceCipher.encrypt(Buffer.from(`message ${i}`));
  const t = performance.now();
  await bobCipher.decryptWhisperMessage(bytes(next.body));
  decryptMs.push(performance.now() - t);
}
const record = bob.sessions.get(toAlice.toString());
// CPU, for the sessions a vCPU carries: the Signal work per inbound message (curve25519 and AES in
// JS), the median of many (this machine is shared)
for (let i = 0; i < 200; i++) {
  const next = await aliceCipher.encrypt(Buffer.from(`more ${i}`));
  const t = performance.now();
  await bobCipher.decryptWhisperMessage(bytes(next.body));
  decryptMs.push(performance.now() - t);
  if (i % 10 === 9) {
    const reply = await bobCipher.encrypt(Buffer.from(`reply ${i}`));
    await aliceCipher.decryptWhisperMessage(bytes(reply.body));
  }
}
const sorted = [...decryptMs].sort((a, b) => a - b);
console.log(
  `Signal decryption: a contact's first message (pre-key) ${preKeyMs.toFixed(1)} ms; later messages ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} ms (median of ${sorted.length}), p90 ${sorted[Math.floor(sorted.length * 0.9)]!.toFixed(2)} ms`,
);
const json = JSON.stringify(record);
const beforeRecords = await settle();
// the key cache holds decoded values: one independent copy per contact
const records = Array.from({ length: RECORDS }, () => JSON.parse(json));
const withRecords = await settle();
console.log(
  `a contact's Signal session record after ${2 * EXCHANGE + 1} messages: ${json.length} bytes of JSON; ${RECORDS} of them (the key cache's bound) take ${MB(withRecords.heap - beforeRecords.heap)} MB of heap (${KB((withRecords.heap - beforeRecords.heap) / RECORDS)} KB each)`,
);
void records.length;

// ---- the runner process holding no session: Baileys loaded (provider baileys) or not (simulator)
// One stack (a process keeps one DynamoDB client), its runners started here one variant at a time.
const { startStack } = await import('../../infra/local/stack');
const { startSessionRunner } = await import('../../infra/local/session-runner');
const { freePort } = await import('../../infra/local/ports');
const stack = await startStack({ runners: 0, timers: false, logLevel: 'error' });
const bundle = 'dist/session-runner/main.mjs';
for (const runAs of [undefined, bundle]) {
  if (runAs && !existsSync(runAs)) {
    console.log(`${runAs} not built (npm run build:runner): the bundled runner is not measured`);
    continue;
  }
  for (const provider of ['simulator', 'baileys']) {
    if (runAs) process.env.RUNNER_BUNDLE = runAs;
    else delete process.env.RUNNER_BUNDLE;
    const runner = startSessionRunner({
      root: process.cwd(),
      provider,
      id: `memory-${provider}-${runAs ? 'bundle' : 'tsx'}`,
      apiPort: await freePort(),
      stopTimeoutSeconds: 5,
      // no session is ever opened: the hub is never dialled
      env: { SIMULATOR_HUB_URL: 'ws://127.0.0.1:9/' },
    });
    await runner.ready;
    const rss: number[] = [];
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 2_000));
      const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${runner.pid}/status`, 'utf8'))?.[1];
      rss.push(Number(kb) * 1024);
    }
    await runner.stop();
    console.log(
      `the runner (${runAs ? `bundle ${runAs}` : 'tsx over the sources'}, provider ${provider}) holding no session: RSS ${MB(rss.reduce((a, b) => a + b, 0) / rss.length)} MB over 20 s`,
    );
  }
}
await stack.stop();
process.exit(0);
