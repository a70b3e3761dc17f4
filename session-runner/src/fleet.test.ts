import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { InboundEvent, SessionCommand } from '#shared/whatsapp-protocol';
import { startTestTable, type LocalDynamo } from '../../infra/local/dynamo';
import { type RunningHub, type SimulatorHub, startSimulatorHub } from '../../infra/local/simulator-hub';
import { resetConfig } from '#lib/config';
import { deleteItem, queryAll, resetDb } from '#lib/db';

const emitted: InboundEvent[] = [];
vi.mock('./emit', () => ({ emit: async (e: InboundEvent) => void emitted.push(e) }));

const { SessionManager } = await import('./session-manager');
const { Fleet } = await import('./fleet');
const { startRunnerApi } = await import('./runner-api');
const { simulatorProvider } = await import('./providers/simulator');
const { wantedSessions } = await import('#lib/fleet/ownership');
const { heartbeat } = await import('#lib/fleet/registry');
type RunnerInfo = import('#lib/fleet/registry').RunnerInfo;

/** A fleet on a fast clock: heartbeats every 200 ms, dead after 1.5 s. */
const SETTINGS = { heartbeatMs: 200, heartbeatTtlMs: 1_500, rebalanceMs: 250, handoversPerTick: 4 };

let dynamo: LocalDynamo & { tableName: string };
let sim: RunningHub;
let hub: SimulatorHub;
beforeAll(async () => {
  sim = await startSimulatorHub({ qrIntervalMs: 60_000 });
  hub = sim.hub;
  dynamo = await startTestTable('fleet-test');
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

interface TestRunner {
  id: string;
  fleet: InstanceType<typeof Fleet>;
  manager: InstanceType<typeof SessionManager>;
  /** SIGKILL: timers stop, the API goes away, sockets drop; the table keeps its ownership */
  kill(): Promise<void>;
  /** SIGTERM: the drain */
  stop(): Promise<void>;
}
const started: TestRunner[] = [];

/** A runner process in miniature: its session manager, runner API and fleet membership. */
async function startRunner(
  id: string,
  writeHeartbeat?: (info: RunnerInfo) => Promise<void>,
  settings = SETTINGS,
): Promise<TestRunner> {
  let fleet: InstanceType<typeof Fleet> | undefined;
  const manager = new SessionManager(simulatorProvider(sim.url, id), id, 2_000, {
    owns: (c, w) => fleet!.owns(c, w),
  });
  const token = randomBytes(8).toString('hex');
  const api = await startRunnerApi({
    port: 0,
    host: '127.0.0.1',
    token,
    handlers: {
      command: (command) => fleet!.forwarded(command),
      adopt: (c, w) => fleet!.adopt(c, w),
      health: () => fleet!.health(),
      checkHealth: () => manager.checkHealth(),
    },
  });
  fleet = new Fleet(manager, { runnerId: id, url: `http://127.0.0.1:${api.port}`, token }, settings, writeHeartbeat);
  await fleet.start();
  let gone = false;
  const runner: TestRunner = {
    id,
    fleet,
    manager,
    async kill() {
      if (gone) return;
      gone = true;
      fleet!.halt();
      await api.close();
      await manager.closeAll();
    },
    async stop() {
      if (gone) return;
      gone = true;
      await fleet!.drain(Date.now() + 10_000);
      await api.close();
      await manager.closeAll();
    },
  };
  started.push(runner);
  return runner;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.kill()));
  for (const s of await wantedSessions()) await deleteItem({ pk: 'WSESSIONS', sk: `${s.companyId}#${s.whatsappId}` });
  for (const r of await queryAll<{ sk: string }>({ pk: 'WRUNNERS' })) await deleteItem({ pk: 'WRUNNERS', sk: r.sk });
  emitted.splice(0);
});

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not in time: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};
const command = (whatsappId: number, type: 'start'): SessionCommand => ({
  type,
  commandId: `${type}-${whatsappId}-${Date.now()}`,
  companyId: 1,
  whatsappId,
});
const send = (whatsappId: number, wid: string): SessionCommand => ({
  type: 'send',
  commandId: `send-${wid}`,
  companyId: 1,
  whatsappId,
  messageId: `msg-${wid}`,
  wid,
  ticketId: 1,
  to: '5511988887777@s.whatsapp.net',
  body: 'hello',
});
const phoneOf = (whatsappId: number) =>
  hub.snapshot(1, whatsappId) as { status: string; runner?: string; outbound: { wid: string }[]; repeats: number };
const reportOf = (whatsappId: number) => hub.report().find((r) => r.companyId === 1 && r.whatsappId === whatsappId)!;

/** Starts sessions through `runner` and pairs each phone; they end CONNECTED. */
async function pairedSessions(runner: TestRunner, ids: number[]) {
  for (const id of ids) expect(await runner.fleet.route(command(id, 'start'))).toEqual({ outcome: 'done' });
  for (const id of ids) {
    await until(`QR code of ${id}`, () => phoneOf(id).status === 'qrcode');
    expect(await hub.scan(1, id, `551190000${id}`)).toBe(true);
  }
  await until('all connected', () => ids.every((id) => phoneOf(id).status === 'CONNECTED'));
}
const owners = async (ids: number[]) => {
  const all = await wantedSessions();
  return ids.map((id) => all.find((s) => s.whatsappId === id)?.owner);
};
const countBy = (list: (string | undefined)[]) => {
  const counts: Record<string, number> = {};
  for (const o of list) counts[String(o)] = (counts[String(o)] ?? 0) + 1;
  return counts;
};

describe('session fleet', () => {
  it('runners that join get their share by handover: sessions spread evenly, each connected again without a QR code', async () => {
    const ids = [101, 102, 103, 104, 105, 106, 107, 108, 109];
    const a = await startRunner('fleet-a');
    await pairedSessions(a, ids);
    expect(countBy(await owners(ids))).toEqual({ 'fleet-a': 9 });
    await startRunner('fleet-b');
    await startRunner('fleet-c');
    await until('3 sessions each', async () => {
      const counts = countBy(await owners(ids));
      return counts['fleet-a'] === 3 && counts['fleet-b'] === 3 && counts['fleet-c'] === 3;
    });
    await until('connected on their holder', async () => {
      const holders = await owners(ids);
      return ids.every((id, i) => phoneOf(id).status === 'CONNECTED' && phoneOf(id).runner === holders[i]);
    });
    for (const id of ids) expect(reportOf(id).qrAfterPaired).toBe(0);
    // each moved session was closed by its old holder before the new one opened it: never two at once
    for (const id of ids) expect(reportOf(id).timeline.filter((t) => t.kind === 'replaced')).toEqual([]);
  });

  it('a command received by a runner that does not hold the session is forwarded to its holder and runs there once', async () => {
    const a = await startRunner('fleet-d');
    await pairedSessions(a, [201]);
    const b = await startRunner('fleet-e');
    // one session, two runners: it stays where it is (ceil(1/2) = 1)
    expect(await b.fleet.route(send(201, '3EB0F00000000000000001'))).toEqual({ outcome: 'done' });
    expect(phoneOf(201).outbound.filter((o) => o.wid === '3EB0F00000000000000001')).toHaveLength(1);
    expect(phoneOf(201).runner).toBe('fleet-d');
    expect(b.manager.get(1, 201)).toBeUndefined();
    expect(emitted.filter((e) => e.type === 'sendResult')).toEqual([
      expect.objectContaining({ wid: '3EB0F00000000000000001', ack: 1 }),
    ]);
  });

  it("a killed runner's sessions resume on the others without a QR code once its heartbeat runs out", async () => {
    const ids = [301, 302, 303, 304, 305, 306];
    const a = await startRunner('fleet-f');
    await pairedSessions(a, ids);
    await startRunner('fleet-g');
    await startRunner('fleet-h');
    await until('2 sessions each', async () => Object.values(countBy(await owners(ids))).every((n) => n === 2));
    await until('connected', () => ids.every((id) => phoneOf(id).status === 'CONNECTED'));
    const victims = ids.filter((id) => phoneOf(id).runner === 'fleet-f');
    const killedAt = Date.now();
    await a.kill();
    await until('resumed on the others', async () => {
      const holders = await owners(ids);
      return ids.every(
        (id, i) => holders[i] !== 'fleet-f' && phoneOf(id).status === 'CONNECTED' && phoneOf(id).runner === holders[i],
      );
    });
    const seconds = (Date.now() - killedAt) / 1000;
    expect(seconds).toBeLessThan(SETTINGS.heartbeatTtlMs / 1000 + 3);
    for (const id of victims) expect(reportOf(id).qrAfterPaired).toBe(0);
    expect(Object.values(countBy(await owners(ids))).sort()).toEqual([3, 3]);
  });

  it('a command for a session whose holder died goes back to the queue until the heartbeat runs out, then runs on the runner that takes it', async () => {
    const a = await startRunner('fleet-i');
    await pairedSessions(a, [401]);
    const b = await startRunner('fleet-j');
    await a.kill();
    const early = await b.fleet.route(send(401, '3EB0F00000000000000002'));
    expect(early.outcome).toBe('retry');
    const seconds = (early as { seconds: number }).seconds;
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(Math.ceil(SETTINGS.heartbeatTtlMs / 1000) + 1);
    expect(phoneOf(401).outbound).toEqual([]);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    expect(await b.fleet.route(send(401, '3EB0F00000000000000002'))).toEqual({ outcome: 'done' });
    expect(phoneOf(401).outbound.map((o) => o.wid)).toEqual(['3EB0F00000000000000002']);
    expect(phoneOf(401).runner).toBe('fleet-j');
    expect(reportOf(401).qrAfterPaired).toBe(0);
  });

  it('drain: a stopping runner finishes its send in flight, hands every session to a peer without a QR code and leaves the registry', async () => {
    const ids = [501, 502, 503, 504];
    const a = await startRunner('fleet-k');
    await pairedSessions(a, ids);
    const b = await startRunner('fleet-l');
    await until('2 sessions each', async () => Object.values(countBy(await owners(ids))).every((n) => n === 2));
    await until('connected', () => ids.every((id) => phoneOf(id).status === 'CONNECTED'));
    const onA = ids.find((id) => phoneOf(id).runner === 'fleet-k')!;
    const sending = a.fleet.route(send(onA, '3EB0F00000000000000003'));
    await a.stop();
    expect(await sending).toEqual({ outcome: 'done' });
    expect(phoneOf(onA).outbound.map((o) => o.wid)).toEqual(['3EB0F00000000000000003']);
    expect(countBy(await owners(ids))).toEqual({ 'fleet-l': 4 });
    await until('all on the peer', () =>
      ids.every((id) => phoneOf(id).runner === 'fleet-l' && phoneOf(id).status === 'CONNECTED'),
    );
    for (const id of ids) expect(reportOf(id).qrAfterPaired).toBe(0);
    expect((await queryAll<{ sk: string }>({ pk: 'WRUNNERS' })).map((r) => r.sk)).toEqual(['fleet-l']);
    expect(b.manager.size).toBe(4);
  });

  it('R2: a handover whose auth writes were not stored in time does not move the session; the next one does', async () => {
    const a = await startRunner('fleet-r2a');
    await pairedSessions(a, [701]);
    await startRunner('fleet-r2b');
    const { runners } = await import('#lib/fleet/registry');
    const peer = (await runners()).find((r) => r.runnerId === 'fleet-r2b')!;
    const release = vi.spyOn(a.manager, 'release').mockResolvedValueOnce(false);
    await a.fleet.handOver({ companyId: 1, whatsappId: 701 }, peer);
    expect(release).toHaveBeenCalledTimes(1);
    expect(await owners([701])).toEqual(['fleet-r2a']);
    release.mockRestore();
    await a.fleet.handOver({ companyId: 1, whatsappId: 701 }, peer);
    expect(await owners([701])).toEqual(['fleet-r2b']);
    await until('on the peer', () => phoneOf(701).runner === 'fleet-r2b' && phoneOf(701).status === 'CONNECTED');
    expect(reportOf(701).qrAfterPaired).toBe(0);
  });

  it('self-fencing: a runner that cannot write its heartbeat closes its sockets before a peer may take them', async () => {
    let failing = false;
    // a TTL of 3 s gives the fence its margin of 600 ms (a fifth of the TTL; 3 s in production):
    // on a loaded machine, 300 ms of a 1.5 s TTL was sometimes less than closing the socket took
    const a = await startRunner(
      'fleet-m',
      async (info) => {
        if (failing) throw new Error('DynamoDB unreachable');
        await heartbeat(info);
      },
      { ...SETTINGS, heartbeatTtlMs: 3_000 },
    );
    await pairedSessions(a, [601]);
    await startRunner('fleet-n');
    failing = true;
    await until('taken over', () => phoneOf(601).runner === 'fleet-n' && phoneOf(601).status === 'CONNECTED', 10_000);
    const timeline = reportOf(601).timeline;
    const closedByA = timeline.findLast((t) => t.kind === 'close' && t.runner === 'fleet-m')!;
    const openedByB = timeline.find((t) => t.kind === 'open' && t.runner === 'fleet-n')!;
    expect(closedByA.at).toBeLessThan(openedByB.at);
    // nobody had to be thrown out: the fenced runner was gone before its successor came
    expect(timeline.filter((t) => t.kind === 'replaced')).toEqual([]);
    expect(a.manager.size).toBe(0);
  });
});
