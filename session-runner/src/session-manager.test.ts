import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, it, expect, vi } from 'vitest';
import type { InboundEvent } from '#shared/whatsapp-protocol';
import { startTestTable, type LocalDynamo } from '../../infra/local/dynamo';
import { type RunningHub, type SimulatorHub, startSimulatorHub } from '../../infra/local/simulator-hub';
import { resetConfig } from '#lib/config';
import { resetDb, updateItem } from '#lib/db';

const emitted: InboundEvent[] = [];
/** how long the queue takes to accept an event, in ms (a slow or retried send) */
let queueTakes: (e: InboundEvent) => number = () => 0;
vi.mock('./emit', () => ({
  emit: async (e: InboundEvent) => {
    const ms = queueTakes(e);
    if (ms) await new Promise((r) => setTimeout(r, ms));
    emitted.push(e);
  },
}));

/** the temp files outbound media was streamed into, and the objects' bytes (storage replaced) */
const mediaFiles: string[] = [];
const MEDIA_BYTES = Buffer.from('\x00\x00\x00\x18ftypmp42 a short video');
vi.mock('#lib/storage', async (importOriginal) => ({
  ...(await importOriginal<typeof import('#lib/storage')>()),
  objectSize: async () => MEDIA_BYTES.length,
  downloadObject: async (_key: string, path: string) => {
    mediaFiles.push(path);
    await writeFile(path, MEDIA_BYTES);
  },
}));

const { SessionManager, MAX_QR_CODES } = await import('./session-manager');
type ManagerOptions = import('./session-manager').ManagerOptions;
const { wantedSessions } = await import('#lib/fleet/ownership');
const { simulatorProvider } = await import('./providers/simulator');
const { AuthStore, SessionNotHeld } = await import('./auth-store');
const { claimSend } = await import('./sent-store');

let dynamo: LocalDynamo & { tableName: string };
let sim: RunningHub;
/** the simulated WhatsApp: phones and the server the sessions connect to */
let hub: SimulatorHub;
/** a provider of sessions on the hub, as runner `runnerId` */
const provider = (runnerId: string) => simulatorProvider(sim.url, runnerId);
beforeAll(async () => {
  sim = await startSimulatorHub({ qrIntervalMs: 60_000 });
  hub = sim.hub;
  dynamo = await startTestTable('runner-test');
  Object.assign(process.env, {
    TABLE_NAME: dynamo.tableName,
    MEDIA_BUCKET: 'unused',
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    AWS_REGION: 'us-east-1',
    LOG_LEVEL: 'error',
  });
  resetConfig();
  resetDb();
}, 60_000);
afterAll(async () => {
  await sim?.close();
  await dynamo?.stop();
});
beforeEach(() => {
  emitted.splice(0);
  queueTakes = () => 0;
});

const statuses = (whatsappId: number) =>
  emitted
    .filter((e): e is Extract<InboundEvent, { type: 'session' }> => e.type === 'session' && e.whatsappId === whatsappId)
    .map((e) => e.status);
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe('session manager', () => {
  it('start shows a QR code; a scan restarts (515) and connects; a restarted runner resumes it without a QR code', async () => {
    const first = new SessionManager(provider('runner-a'), 'runner-a');
    expect(await first.handle({ type: 'start', commandId: 'c1', companyId: 1, whatsappId: 1 })).toBe('done');
    await until(() => statuses(1).includes('qrcode'));
    expect(await hub.scan(1, 1, '5511900000001')).toBe(true);
    await until(() => statuses(1).includes('CONNECTED'));
    expect(statuses(1)).toEqual(['qrcode', 'PAIRING', 'OPENING', 'CONNECTED']);
    await first.closeAll();

    emitted.splice(0);
    const second = new SessionManager(provider('runner-b'), 'runner-b');
    second.open(1, 1);
    await until(() => statuses(1).includes('CONNECTED'));
    expect(statuses(1)).not.toContain('qrcode');
    await second.closeAll();
  });

  it('status reports reach the queue in the order they happened, even when the queue is slow to take an earlier one', async () => {
    // PAIRING's report waits 300 ms to be taken (the queue slow, a send retried): the OPENING of the
    // restart right after the scan, and the CONNECTED after it, must not overtake it
    queueTakes = (e) => (e.type === 'session' && e.status === 'PAIRING' ? 300 : 0);
    const m = new SessionManager(provider('runner-order'), 'runner-order');
    await m.handle({ type: 'start', commandId: 'c-order', companyId: 1, whatsappId: 60 });
    await until(() => statuses(60).includes('qrcode'));
    expect(await hub.scan(1, 60, '5511900000060')).toBe(true);
    await until(() => statuses(60).includes('CONNECTED'));
    await new Promise((r) => setTimeout(r, 400));
    expect(statuses(60)).toEqual(['qrcode', 'PAIRING', 'OPENING', 'CONNECTED']);
    // the health that goes with each change follows its status
    const kinds = emitted.filter((e) => e.whatsappId === 60).map((e) => (e.type === 'session' ? e.status : e.type));
    expect(kinds.at(-1)).toBe('health');
    expect(kinds.filter((k) => k !== 'health')).toEqual(['qrcode', 'PAIRING', 'OPENING', 'CONNECTED']);
    await m.closeAll();
  });

  it('a send on a session that is not connected fails visibly (ERR_SENDING_WAPP_MSG), never silently', async () => {
    const m = new SessionManager(provider('runner-e'), 'runner-e', 1500);
    await m.handle({ type: 'start', commandId: 'c6', companyId: 1, whatsappId: 3 });
    const send = {
      type: 'send' as const,
      commandId: 'c7',
      companyId: 1,
      whatsappId: 3,
      messageId: 'msg-1',
      wid: '3EB0NOTCONNECTED',
      ticketId: 9,
      to: '5511@s.whatsapp.net',
      body: 'hi',
    };
    await until(() => statuses(3).includes('qrcode'));
    const started = Date.now();
    const pending = m.handle(send);
    // still showing a QR code: the send waits for a connection, then gives up
    await vi.waitFor(() => expect(emitted.some((e) => e.type === 'sendResult')).toBe(true), { timeout: 5000 });
    await pending;
    expect(emitted.find((e) => e.type === 'sendResult')).toMatchObject({
      messageId: 'msg-1',
      ticketId: 9,
      ack: 0,
      error: 'ERR_SENDING_WAPP_MSG',
    });
    expect(Date.now() - started).toBeGreaterThan(1000);
    await m.closeAll();
  });

  it('401 from the phone is final: the stored keys are dropped and the session is DISCONNECTED', async () => {
    const m = new SessionManager(provider('runner-f'), 'runner-f');
    await m.handle({ type: 'start', commandId: 'c8', companyId: 1, whatsappId: 4 });
    await until(() => statuses(4).includes('qrcode'));
    await hub.scan(1, 4, '5511900000004');
    await until(() => statuses(4).includes('CONNECTED'));
    await hub.drop(1, 4, 401);
    await until(() => statuses(4).at(-1) === 'DISCONNECTED');
    expect(await new AuthStore(1, 4).readCreds()).toBeUndefined();
    await m.closeAll();
  });

  it('nobody scans: after MAX_QR_CODES QR codes the session stops as TIMEOUT and leaves the sessions to run', async () => {
    const sim = await startSimulatorHub({ qrIntervalMs: 20 });
    try {
      const m = new SessionManager(simulatorProvider(sim.url, 'runner-g'), 'runner-g');
      await m.handle({ type: 'start', commandId: 'c9', companyId: 1, whatsappId: 5 });
      await until(() => statuses(5).at(-1) === 'TIMEOUT');
      const qrs = emitted.filter((e) => e.type === 'session' && e.whatsappId === 5 && e.status === 'qrcode');
      expect(qrs).toHaveLength(MAX_QR_CODES);
      expect(qrs.map((e) => (e as { retries?: number }).retries)).toEqual([1, 2, 3, 4, 5]);
      expect((await wantedSessions()).some((w) => w.whatsappId === 5)).toBe(false);
      await m.closeAll();
    } finally {
      await sim.close();
    }
  });

  /** A connected simulated phone on a fresh manager. */
  const connectedPhone = async (whatsappId: number, runnerId: string, opts?: ManagerOptions) => {
    const m = new SessionManager(provider(runnerId), runnerId, undefined, opts);
    await m.handle({ type: 'start', commandId: `start-${whatsappId}`, companyId: 1, whatsappId });
    await until(() => statuses(whatsappId).includes('qrcode'));
    await hub.scan(1, whatsappId, `55119000000${whatsappId}`);
    await until(() => statuses(whatsappId).includes('CONNECTED'));
    return { m, phone: () => hub.snapshot(1, whatsappId) as { outbound: { wid: string }[]; repeats: number } };
  };
  const sendCommand = (whatsappId: number, wid: string) => ({
    type: 'send' as const,
    commandId: `send-${wid}`,
    companyId: 1,
    whatsappId,
    messageId: `msg-${wid}`,
    wid,
    ticketId: 7,
    to: '5511988887777@s.whatsapp.net',
    body: 'your order shipped',
  });
  const results = (wid: string) =>
    emitted.filter(
      (e): e is Extract<InboundEvent, { type: 'sendResult' }> =>
        e.type === 'sendResult' && e.messageId === `msg-${wid}`,
    );

  it('a send goes out with the WhatsApp id the API assigned, and a redelivered command reaches the phone once', async () => {
    const { m, phone } = await connectedPhone(10, 'runner-h');
    expect(await m.handle(sendCommand(10, '3EB0AAA0000000000001'))).toBe('done');
    // the queue hands the same command out again (a crash before the delete, a visibility timeout)
    expect(await m.handle(sendCommand(10, '3EB0AAA0000000000001'))).toBe('done');
    const sent = phone().outbound.filter((o) => o.wid === '3EB0AAA0000000000001');
    expect(sent).toHaveLength(1);
    expect(results('3EB0AAA0000000000001')).toEqual([
      expect.objectContaining({ wid: '3EB0AAA0000000000001', ack: 1 }),
      expect.objectContaining({ wid: '3EB0AAA0000000000001', ack: 1 }),
    ]);
    expect(results('3EB0AAA0000000000001').some((r) => r.error)).toBe(false);
    await m.closeAll();
  });

  it('a runner that died between its claim and the send: the redelivery sends with the same id, so nothing is lost', async () => {
    const { m, phone } = await connectedPhone(11, 'runner-i');
    // the dead runner's claim, with no outcome recorded (it may or may not have sent)
    expect(await claimSend(1, '3EB0BBB0000000000001')).toEqual({ claimed: true });
    await m.handle(sendCommand(11, '3EB0BBB0000000000001'));
    expect(phone().outbound.filter((o) => o.wid === '3EB0BBB0000000000001')).toHaveLength(1);
    expect(results('3EB0BBB0000000000001')).toEqual([expect.objectContaining({ wid: '3EB0BBB0000000000001', ack: 1 })]);
    // once the outcome is recorded, a further redelivery is answered without a send
    await m.handle(sendCommand(11, '3EB0BBB0000000000001'));
    expect(phone().outbound.filter((o) => o.wid === '3EB0BBB0000000000001')).toHaveLength(1);
    await m.closeAll();
  });

  it('a message that could not be decrypted goes to the inbound queue as such, in its chat, with who wrote it (the ticket shows a placeholder)', async () => {
    const { m } = await connectedPhone(70, 'runner-und');
    await hub.injectUndecryptable(1, 70, { from: '5511988887777', wid: '3EB0UND0000000000001', pushName: 'Maria' });
    const lost = () => emitted.find((e) => e.type === 'undecryptable');
    await until(() => Boolean(lost()));
    expect(lost()).toEqual(
      expect.objectContaining({
        type: 'undecryptable',
        companyId: 1,
        whatsappId: 70,
        wid: '3EB0UND0000000000001',
        chatJid: '5511988887777@s.whatsapp.net',
        pushName: 'Maria',
        isGroup: false,
      }),
    );
    expect(emitted.some((e) => e.type === 'message')).toBe(false);
    await m.closeAll();
  });

  it('the simulated phone, like a real one, drops a second message with an id it already has', async () => {
    const { m, phone } = await connectedPhone(15, 'runner-l');
    await m.handle(sendCommand(15, '3EB0DDD0000000000001'));
    // an attempt whose outcome was never recorded: sent again with the same id
    await updateItem({ pk: 'C#1#WSENT', sk: '3EB0DDD0000000000001' }, { remove: ['sentAt'] });
    await m.handle(sendCommand(15, '3EB0DDD0000000000001'));
    expect(phone().outbound.filter((o) => o.wid === '3EB0DDD0000000000001')).toHaveLength(1);
    expect(phone().repeats).toBe(1);
    await m.closeAll();
  });

  it('a send the provider refused is not retried by a redelivery: both report ERR_SENDING_WAPP_MSG', async () => {
    const { m, phone } = await connectedPhone(12, 'runner-j');
    hub.failSends.add('5511988887777@s.whatsapp.net');
    await m.handle(sendCommand(12, '3EB0CCC0000000000001'));
    hub.failSends.clear();
    await m.handle(sendCommand(12, '3EB0CCC0000000000001'));
    expect(phone().outbound).toHaveLength(0);
    expect(results('3EB0CCC0000000000001')).toEqual([
      expect.objectContaining({ ack: 0, error: 'ERR_SENDING_WAPP_MSG' }),
      expect.objectContaining({ ack: 0, error: 'ERR_SENDING_WAPP_MSG' }),
    ]);
    await m.closeAll();
  });

  it('R6: a media send streams the object into a temp file that is removed after the send, even one the provider refused', async () => {
    const { m, phone } = await connectedPhone(80, 'runner-media');
    const media = {
      key: 'company1/media/clip.mp4',
      mimetype: 'video/mp4',
      fileName: 'clip.mp4',
      kind: 'video' as const,
    };
    await m.handle({ ...sendCommand(80, '3EB0MEDIA000000000001'), media });
    expect(phone().outbound).toEqual([
      expect.objectContaining({ wid: '3EB0MEDIA000000000001', media: { ...media, size: MEDIA_BYTES.length } }),
    ]);
    expect(mediaFiles).toHaveLength(1);
    expect(existsSync(mediaFiles[0]!)).toBe(false);

    hub.failSends.add('5511988887777@s.whatsapp.net');
    await m.handle({ ...sendCommand(80, '3EB0MEDIA000000000002'), media });
    hub.failSends.clear();
    expect(results('3EB0MEDIA000000000002')).toEqual([
      expect.objectContaining({ ack: 0, error: 'ERR_SENDING_WAPP_MSG' }),
    ]);
    expect(mediaFiles).toHaveLength(2);
    expect(existsSync(mediaFiles[1]!)).toBe(false);
    await m.closeAll();
  });

  it('a stop holds (402 temporary ban, like the third 440): the session leaves the wanted list', async () => {
    const { m } = await connectedPhone(13, 'runner-k');
    await hub.drop(1, 13, 402);
    await until(() => statuses(13).at(-1) === 'DISCONNECTED');
    await vi.waitFor(async () =>
      expect((await wantedSessions()).some((w) => w.companyId === 1 && w.whatsappId === 13)).toBe(false),
    );
    expect(m.get(1, 13)).toBeUndefined();
    // the stored credentials stay: scanning again is not needed once the ban ends
    expect(await new AuthStore(1, 13).readCreds()).toBeDefined();
    await m.closeAll();
  });

  it('a connect that throws (DynamoDB down) does not wedge the session: it is retried and connects', async () => {
    let failures = 1;
    const sim = provider('runner-flaky');
    const flaky = {
      ...sim,
      create: (ctx: Parameters<typeof sim.create>[0]) => {
        const phone = sim.create(ctx);
        const connect = phone.connect.bind(phone);
        phone.connect = async () => {
          if (failures-- > 0) throw new Error('ProvisionedThroughputExceededException');
          return connect();
        };
        return phone;
      },
    };
    const m = new SessionManager(flaky, 'runner-l');
    await m.handle({ type: 'start', commandId: 'c-flaky', companyId: 1, whatsappId: 14 });
    await vi.waitFor(() => expect(statuses(14)).toContain('OPENING'));
    await vi.waitFor(() => expect(statuses(14)).toContain('qrcode'), { timeout: 5000 });
    expect(statuses(14)[0]).toBe('OPENING');
    await m.closeAll();
  });

  it('a send to a session still opening waits for it instead of failing after the short wait', async () => {
    const { m: first } = await connectedPhone(16, 'runner-m');
    await first.closeAll();
    // the next holder's handshake takes longer than the short wait (a takeover among many)
    const sim = provider('runner-n');
    const slow = {
      ...sim,
      create: (ctx: Parameters<typeof sim.create>[0]) => {
        const phone = sim.create(ctx);
        const connect = phone.connect.bind(phone);
        phone.connect = async () => {
          await new Promise((r) => setTimeout(r, 1500));
          return connect();
        };
        return phone;
      },
    };
    const m = new SessionManager(slow, 'runner-n', 300, { openingWaitMs: 10_000 });
    expect(await m.handle(sendCommand(16, '3EB0EEE0000000000001'))).toBe('done');
    expect(results('3EB0EEE0000000000001')).toEqual([expect.objectContaining({ ack: 1 })]);
    expect(results('3EB0EEE0000000000001')[0]!.error).toBeUndefined();
    await m.closeAll();
  });

  it('at most maxHandshakes sessions open at once (a takeover of many sessions does not start them all together)', async () => {
    for (const whatsappId of [20, 21, 22, 23, 24]) {
      const { m } = await connectedPhone(whatsappId, `runner-h${whatsappId}`);
      await m.closeAll();
    }
    let opening = 0;
    let most = 0;
    const sim = provider('runner-o');
    const counted = {
      ...sim,
      create: (ctx: Parameters<typeof sim.create>[0]) => {
        const phone = sim.create(ctx);
        const connect = phone.connect.bind(phone);
        phone.connect = async () => {
          most = Math.max(most, ++opening);
          await new Promise((r) => setTimeout(r, 200));
          opening--;
          return connect();
        };
        return phone;
      },
    };
    const m = new SessionManager(counted, 'runner-o', undefined, { maxHandshakes: 2 });
    for (const whatsappId of [20, 21, 22, 23, 24]) m.open(1, whatsappId);
    await until(() => [20, 21, 22, 23, 24].every((w) => m.get(1, w)?.status === 'CONNECTED'));
    expect(most).toBe(2);
    await m.closeAll();
  });

  it('a 440 after another runner took the session over is dropped quietly: no DISCONNECTED, still wanted', async () => {
    let holder = 'runner-p';
    const { m: old } = await connectedPhone(17, 'runner-p', { owns: async () => holder === 'runner-p' });
    holder = 'runner-q';
    emitted.splice(0);
    // the new holder opens the session: WhatsApp replaces the older socket (440)
    const next = new SessionManager(provider('runner-q'), 'runner-q');
    next.open(1, 17);
    await until(() => statuses(17).includes('CONNECTED') && !old.get(1, 17));
    await new Promise((r) => setTimeout(r, 200));
    expect(statuses(17)).toEqual(['CONNECTED']);
    expect((await wantedSessions()).some((w) => w.whatsappId === 17)).toBe(true);
    expect(hub.snapshot(1, 17).runner).toBe('runner-q');
    await next.closeAll();
  });

  it('release drains a session: a send in flight finishes, a send waiting for a connection is handed back', async () => {
    const { m } = await connectedPhone(18, 'runner-r');
    const sending = m.handle(sendCommand(18, '3EB0FFF0000000000001'));
    await m.release(1, 18, 5_000);
    expect(await sending).toBe('done');
    expect(results('3EB0FFF0000000000001')).toEqual([expect.objectContaining({ ack: 1 })]);
    expect(m.get(1, 18)).toBeUndefined();

    const { m: other } = await connectedPhone(19, 'runner-s');
    await hub.drop(1, 19, 428);
    await until(() => statuses(19).at(-1) === 'OPENING');
    other.beginDrain();
    const waiting = other.handle(sendCommand(19, '3EB0FFF0000000000002'));
    // the session's own handover starts: the send waiting for its connection goes back to be routed
    await other.release(1, 19, 1_000);
    expect(await waiting).toBe('moved');
    expect(results('3EB0FFF0000000000002')).toEqual([]);
    await other.closeAll();
  });

  it('R9: while its runner drains, a session not yet handed over goes on serving its commands here instead of bouncing them', async () => {
    const { m, phone } = await connectedPhone(31, 'runner-u');
    m.beginDrain();
    expect(await m.handle(sendCommand(31, '3EB0FFF0000000000031'))).toBe('done');
    expect(phone().outbound.map((o) => o.wid)).toEqual(['3EB0FFF0000000000031']);
    // no session opens on a draining runner
    expect(await m.handle(sendCommand(32, '3EB0FFF0000000000032'))).toBe('moved');
    await m.closeAll();
  });

  it('R1: a new QR code asked of a runner that no longer holds the session clears none of the holder’s keys', async () => {
    const { markWanted, moveSession, readSession } = await import('#lib/fleet/ownership');
    await markWanted(1, 95);
    await moveSession((await readSession(1, 95))!, 'runner-holder');
    await new AuthStore(1, 95).setKeys({ session: { alice: { v: 1 } } });
    const m = new SessionManager(provider('runner-former'), 'runner-former');
    await expect(m.handle({ type: 'newQr', commandId: 'qr-95', companyId: 1, whatsappId: 95 })).rejects.toThrow(
      SessionNotHeld,
    );
    expect(await new AuthStore(1, 95).getKeys('session', ['alice'])).toEqual({ alice: { v: 1 } });
  });

  it('R2: a session whose auth writes are not stored in time does not leave: release says so, and it opens here again with the same store', async () => {
    const { m } = await connectedPhone(30, 'runner-t');
    const session = m.get(1, 30)!;
    const store = session.auth;
    // DynamoDB stalls: the writes the closing socket left are not stored until it answers again
    let answer!: () => void;
    const stalled = new Promise<void>((r) => (answer = r));
    const flush = store.flush.bind(store);
    store.flush = () => stalled.then(flush);
    expect(await m.release(1, 30, 1_000, 50)).toBe(false);
    expect(m.get(1, 30)).toBe(session);
    expect(session.leaving).toBe(false);
    expect(store.isClosed).toBe(false);
    // the same session and store open again here, without a QR code
    await until(() => statuses(30).filter((s) => s === 'CONNECTED').length === 2);
    expect(statuses(30).filter((s) => s === 'qrcode')).toHaveLength(1);
    answer();
    expect(await m.release(1, 30, 1_000, 5_000)).toBe(true);
    expect(m.get(1, 30)).toBeUndefined();
    expect(store.isClosed).toBe(true);
  });

  it('health: a connected but silent socket is restarted after two unanswered probes; traffic and probes are reported', async () => {
    const lines: string[] = [];
    const m = new SessionManager(provider('runner-health'), 'runner-health', undefined, {
      health: { probeTimeoutMs: 50, silentProbes: 2, reportEveryMs: 0, metrics: true },
      writeMetrics: (line) => lines.push(line),
    });
    await m.handle({ type: 'start', commandId: 'c-h1', companyId: 1, whatsappId: 40 });
    await until(() => statuses(40).includes('qrcode'));
    await hub.scan(1, 40, '5511900000040');
    await until(() => statuses(40).includes('CONNECTED'));
    const healthOf = () =>
      emitted
        .filter((e): e is Extract<InboundEvent, { type: 'health' }> => e.type === 'health' && e.whatsappId === 40)
        .at(-1)?.health;

    await m.checkHealth();
    await until(() => healthOf()?.probeMs !== undefined);
    await hub.inject(1, 40, { from: '5511988887777', body: 'oi' });
    await until(() => Boolean(healthOf()?.lastInboundAt));

    await hub.silence(1, 40);
    await m.checkHealth();
    // one unanswered probe is not yet a zombie
    expect(hub.snapshot(1, 40).silent).toBe(true);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ SessionsSilent: 1, SessionsUnhealthy: 1 });
    await m.checkHealth();
    await until(() => hub.snapshot(1, 40).silent === false && statuses(40).at(-1) === 'CONNECTED');
    expect(statuses(40).slice(-2)).toEqual(['OPENING', 'CONNECTED']);
    expect(healthOf()).toMatchObject({ reconnects: 1, zombieRestarts: 1, lastDisconnect: { reason: 'silent' } });
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ ZombieRestarts: 1, Reconnects: 1 });
    // the new socket answers: the next line counts it connected and healthy, the restart counted once
    await m.checkHealth();
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({
      SessionsConnected: 1,
      SessionsUnhealthy: 0,
      ZombieRestarts: 0,
    });
    await m.closeAll();
  });

  it('health: a session down or silent at every tick for 15 minutes is counted in SessionsUnhealthyLong; a shorter outage is not', async () => {
    const lines: string[] = [];
    let clock = Date.now();
    const m = new SessionManager(provider('runner-long'), 'runner-long', undefined, {
      health: { probeTimeoutMs: 50, silentProbes: 1_000, reportEveryMs: 0, metrics: true },
      writeMetrics: (line) => lines.push(line),
      now: () => clock,
    });
    await m.handle({ type: 'start', commandId: 'c-long', companyId: 1, whatsappId: 44 });
    await until(() => statuses(44).includes('qrcode'));
    await hub.scan(1, 44, '5511900000044');
    await until(() => statuses(44).includes('CONNECTED'));
    const last = () => JSON.parse(lines.at(-1)!);
    await m.checkHealth();
    expect(last()).toMatchObject({ SessionsHeld: 1, SessionsUnhealthy: 0, SessionsUnhealthyLong: 0 });
    await hub.silence(1, 44);
    await m.checkHealth();
    expect(last()).toMatchObject({ SessionsUnhealthy: 1, SessionsUnhealthyLong: 0 });
    clock += 14 * 60_000;
    await m.checkHealth();
    expect(last()).toMatchObject({ SessionsUnhealthy: 1, SessionsUnhealthyLong: 0 });
    clock += 60_000;
    await m.checkHealth();
    expect(last()).toMatchObject({ SessionsUnhealthy: 1, SessionsUnhealthyLong: 1 });
    await m.closeAll();
  });

  it('N6: a session WhatsApp stops (a temporary ban) leaves the runner but is counted: a SessionsStopped line with its reason', async () => {
    const lines: string[] = [];
    const m = new SessionManager(provider('runner-stopped'), 'runner-stopped', undefined, {
      health: { metrics: true },
      writeMetrics: (line) => lines.push(line),
    });
    await m.handle({ type: 'start', commandId: 'c-st1', companyId: 1, whatsappId: 43 });
    await until(() => statuses(43).includes('qrcode'));
    await hub.scan(1, 43, '5511900000043');
    await until(() => statuses(43).includes('CONNECTED'));
    await hub.drop(1, 43, 402);
    await until(() => m.get(1, 43) === undefined);
    expect(lines.map((l) => JSON.parse(l)).filter((l) => l.SessionsStopped)).toEqual([
      expect.objectContaining({ SessionsStopped: 1, Reason: 'tempBanned' }),
    ]);
    await m.closeAll();
  });

  it('health: a drop that reconnects is counted and explained; 515 after the scan is not', async () => {
    const m = new SessionManager(provider('runner-health-2'), 'runner-health-2');
    await m.handle({ type: 'start', commandId: 'c-h2', companyId: 1, whatsappId: 41 });
    await until(() => statuses(41).includes('qrcode'));
    await hub.scan(1, 41, '5511900000041');
    await until(() => statuses(41).includes('CONNECTED'));
    const healthOf = () =>
      emitted
        .filter((e): e is Extract<InboundEvent, { type: 'health' }> => e.type === 'health' && e.whatsappId === 41)
        .at(-1)?.health;
    expect(healthOf()).toMatchObject({ reconnects: 0 });
    expect(healthOf()?.lastDisconnect).toBeUndefined();
    await hub.drop(1, 41, 408);
    // the state change carries the health at once, without waiting for the report interval
    await until(() => healthOf()?.reconnects === 1);
    expect(healthOf()?.lastDisconnect).toMatchObject({ reason: 'timedOut', code: 408 });
    await m.closeAll();
  });
});
