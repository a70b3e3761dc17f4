import { afterAll, beforeAll, beforeEach, describe, it, expect, vi } from 'vitest';
import type { InboundEvent } from '#shared/whatsapp-protocol';
import { startDynamo, type LocalDynamo } from '../../infra/local/dynamo';
import { freePort } from '../../infra/local/ports';
import { resetConfig } from '#lib/config';
import { resetDb, updateItem } from '#lib/db';

const emitted: InboundEvent[] = [];
vi.mock('./emit', () => ({ emit: async (e: InboundEvent) => void emitted.push(e) }));

const { SessionManager, MAX_QR_CODES } = await import('./session-manager');
const { wantedSessions } = await import('./lease');
const { SimulatorRegistry, simulatorProvider } = await import('./providers/simulator');
const { AuthStore } = await import('./auth-store');
const { claimSend } = await import('./sent-store');

let dynamo: LocalDynamo;
beforeAll(async () => {
  dynamo = await startDynamo({ port: await freePort(), tableName: 'runner-test' });
  Object.assign(process.env, {
    TABLE_NAME: 'runner-test',
    MEDIA_BUCKET: 'unused',
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    AWS_REGION: 'us-east-1',
    LOG_LEVEL: 'error',
  });
  resetConfig();
  resetDb();
}, 60_000);
afterAll(async () => {
  await dynamo?.stop();
});
beforeEach(() => void emitted.splice(0));

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
    const registry = new SimulatorRegistry();
    const first = new SessionManager(simulatorProvider(registry, 60_000), 'runner-a');
    expect(await first.handle({ type: 'start', commandId: 'c1', companyId: 1, whatsappId: 1 })).toBe('done');
    await until(() => statuses(1).includes('qrcode'));
    await registry.get(1, 1)!.scan('5511900000001');
    await until(() => statuses(1).includes('CONNECTED'));
    expect(statuses(1)).toEqual(['qrcode', 'PAIRING', 'OPENING', 'CONNECTED']);
    await first.stopAll();

    emitted.splice(0);
    const second = new SessionManager(simulatorProvider(new SimulatorRegistry(), 60_000), 'runner-b');
    await second.resume();
    await until(() => statuses(1).includes('CONNECTED'));
    expect(statuses(1)).not.toContain('qrcode');
    await second.stopAll();
  });

  it('one runner per session: a live lease elsewhere sends the command back to the queue', async () => {
    const holder = new SessionManager(simulatorProvider(new SimulatorRegistry(), 60_000), 'runner-c');
    expect(await holder.handle({ type: 'start', commandId: 'c2', companyId: 1, whatsappId: 2 })).toBe('done');
    const other = new SessionManager(simulatorProvider(new SimulatorRegistry(), 60_000), 'runner-d');
    expect(await other.handle({ type: 'start', commandId: 'c3', companyId: 1, whatsappId: 2 })).toBe('elsewhere');
    expect(
      await other.handle({
        type: 'send',
        commandId: 'c4',
        companyId: 1,
        whatsappId: 2,
        messageId: 'm',
        wid: '3EB0ELSEWHERE',
        ticketId: 1,
        to: 'x@s.whatsapp.net',
        body: 'hi',
      }),
    ).toBe('elsewhere');
    // the holder stops (releases the lease): the other may take it
    await holder.stopAll();
    expect(await other.handle({ type: 'start', commandId: 'c5', companyId: 1, whatsappId: 2 })).toBe('done');
    await other.stopAll();
  });

  it('a send on a session that is not connected fails visibly (ERR_SENDING_WAPP_MSG), never silently', async () => {
    const registry = new SimulatorRegistry();
    const m = new SessionManager(simulatorProvider(registry, 60_000), 'runner-e', 1500);
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
    await m.stopAll();
  });

  it('401 from the phone is final: the stored keys are dropped and the session is DISCONNECTED', async () => {
    const registry = new SimulatorRegistry();
    const m = new SessionManager(simulatorProvider(registry, 60_000), 'runner-f');
    await m.handle({ type: 'start', commandId: 'c8', companyId: 1, whatsappId: 4 });
    await until(() => statuses(4).includes('qrcode'));
    await registry.get(1, 4)!.scan('5511900000004');
    await until(() => statuses(4).includes('CONNECTED'));
    registry.get(1, 4)!.drop(401);
    await until(() => statuses(4).at(-1) === 'DISCONNECTED');
    expect(await new AuthStore(1, 4).readCreds()).toBeUndefined();
    await m.stopAll();
  });

  it('nobody scans: after MAX_QR_CODES QR codes the session stops as TIMEOUT and leaves the sessions to run', async () => {
    const m = new SessionManager(simulatorProvider(new SimulatorRegistry(), 20), 'runner-g');
    await m.handle({ type: 'start', commandId: 'c9', companyId: 1, whatsappId: 5 });
    await until(() => statuses(5).at(-1) === 'TIMEOUT');
    const qrs = emitted.filter((e) => e.type === 'session' && e.whatsappId === 5 && e.status === 'qrcode');
    expect(qrs).toHaveLength(MAX_QR_CODES);
    expect(qrs.map((e) => (e as { retries?: number }).retries)).toEqual([1, 2, 3, 4, 5]);
    expect((await wantedSessions()).some((w) => w.whatsappId === 5)).toBe(false);
    await m.stopAll();
  });

  /** A connected simulated phone on a fresh manager. */
  const connectedPhone = async (
    whatsappId: number,
    runnerId: string,
    provider = (r: InstanceType<typeof SimulatorRegistry>) => simulatorProvider(r, 60_000),
  ) => {
    const registry = new SimulatorRegistry();
    const m = new SessionManager(provider(registry), runnerId);
    await m.handle({ type: 'start', commandId: `start-${whatsappId}`, companyId: 1, whatsappId });
    await until(() => statuses(whatsappId).includes('qrcode'));
    await registry.get(1, whatsappId)!.scan(`55119000000${whatsappId}`);
    await until(() => statuses(whatsappId).includes('CONNECTED'));
    return { m, registry, phone: () => registry.get(1, whatsappId)! };
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
    await m.stopAll();
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
    await m.stopAll();
  });

  it('the simulated phone, like a real one, drops a second message with an id it already has', async () => {
    const { m, phone, registry } = await connectedPhone(15, 'runner-l');
    await m.handle(sendCommand(15, '3EB0DDD0000000000001'));
    // an attempt whose outcome was never recorded: sent again with the same id
    await updateItem({ pk: 'C#1#WSENT', sk: '3EB0DDD0000000000001' }, { remove: ['sentAt'] });
    await m.handle(sendCommand(15, '3EB0DDD0000000000001'));
    expect(phone().outbound.filter((o) => o.wid === '3EB0DDD0000000000001')).toHaveLength(1);
    expect(registry.repeatsOf(1, 15)).toBe(1);
    await m.stopAll();
  });

  it('a send the provider refused is not retried by a redelivery: both report ERR_SENDING_WAPP_MSG', async () => {
    const { m, registry } = await connectedPhone(12, 'runner-j');
    registry.failSends.add('5511988887777@s.whatsapp.net');
    await m.handle(sendCommand(12, '3EB0CCC0000000000001'));
    registry.failSends.clear();
    await m.handle(sendCommand(12, '3EB0CCC0000000000001'));
    expect(registry.get(1, 12)!.outbound).toHaveLength(0);
    expect(results('3EB0CCC0000000000001')).toEqual([
      expect.objectContaining({ ack: 0, error: 'ERR_SENDING_WAPP_MSG' }),
      expect.objectContaining({ ack: 0, error: 'ERR_SENDING_WAPP_MSG' }),
    ]);
    await m.stopAll();
  });

  it('a stop holds (402 temporary ban, like the third 440): the session leaves the wanted list and is not resumed', async () => {
    const { m, registry } = await connectedPhone(13, 'runner-k');
    registry.get(1, 13)!.drop(402);
    await until(() => statuses(13).at(-1) === 'DISCONNECTED');
    await vi.waitFor(async () =>
      expect((await wantedSessions()).some((w) => w.companyId === 1 && w.whatsappId === 13)).toBe(false),
    );
    emitted.splice(0);
    await m.resume();
    expect(m.get(1, 13)).toBeUndefined();
    expect(statuses(13)).toEqual([]);
    // the stored credentials stay: scanning again is not needed once the ban ends
    expect(await new AuthStore(1, 13).readCreds()).toBeDefined();
    await m.stopAll();
  });

  it('a connect that throws (DynamoDB down) does not wedge the session: it is retried and connects', async () => {
    let failures = 1;
    const flaky = (r: InstanceType<typeof SimulatorRegistry>) => {
      const sim = simulatorProvider(r, 60_000);
      return {
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
    };
    const m = new SessionManager(flaky(new SimulatorRegistry()), 'runner-l');
    await m.handle({ type: 'start', commandId: 'c-flaky', companyId: 1, whatsappId: 14 });
    expect(statuses(14)).toEqual(['OPENING']);
    await vi.waitFor(() => expect(statuses(14)).toContain('qrcode'), { timeout: 5000 });
    await m.stopAll();
  });

  it('health: a connected but silent socket is restarted after two unanswered probes; traffic and probes are reported', async () => {
    const registry = new SimulatorRegistry();
    const lines: string[] = [];
    const m = new SessionManager(simulatorProvider(registry, 60_000), 'runner-health', undefined, {
      health: { probeTimeoutMs: 50, silentProbes: 2, reportEveryMs: 0, metrics: true },
      writeMetrics: (line) => lines.push(line),
    });
    await m.handle({ type: 'start', commandId: 'c-h1', companyId: 1, whatsappId: 40 });
    await until(() => statuses(40).includes('qrcode'));
    await registry.get(1, 40)!.scan('5511900000040');
    await until(() => statuses(40).includes('CONNECTED'));
    const healthOf = () =>
      emitted
        .filter((e): e is Extract<InboundEvent, { type: 'health' }> => e.type === 'health' && e.whatsappId === 40)
        .at(-1)?.health;

    await m.checkHealth();
    await until(() => healthOf()?.probeMs !== undefined);
    await registry.get(1, 40)!.inject({ from: '5511988887777', body: 'oi' });
    await until(() => Boolean(healthOf()?.lastInboundAt));

    const silent = registry.get(1, 40)!;
    silent.goSilent();
    await m.checkHealth();
    // one unanswered probe is not yet a zombie
    expect(registry.get(1, 40)).toBe(silent);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ SessionsSilent: 1, SessionsUnhealthy: 1 });
    await m.checkHealth();
    await until(() => registry.get(1, 40) !== silent && statuses(40).at(-1) === 'CONNECTED');
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
    await m.stopAll();
  });

  it('health: a drop that reconnects is counted and explained; 515 after the scan is not', async () => {
    const registry = new SimulatorRegistry();
    const m = new SessionManager(simulatorProvider(registry, 60_000), 'runner-health-2');
    await m.handle({ type: 'start', commandId: 'c-h2', companyId: 1, whatsappId: 41 });
    await until(() => statuses(41).includes('qrcode'));
    await registry.get(1, 41)!.scan('5511900000041');
    await until(() => statuses(41).includes('CONNECTED'));
    const healthOf = () =>
      emitted
        .filter((e): e is Extract<InboundEvent, { type: 'health' }> => e.type === 'health' && e.whatsappId === 41)
        .at(-1)?.health;
    expect(healthOf()).toMatchObject({ reconnects: 0 });
    expect(healthOf()?.lastDisconnect).toBeUndefined();
    registry.get(1, 41)!.drop(408);
    // the state change carries the health at once, without waiting for the report interval
    await until(() => healthOf()?.reconnects === 1);
    expect(healthOf()?.lastDisconnect).toMatchObject({ reason: 'timedOut', code: 408 });
    await m.stopAll();
  });
});
