import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { HubFrame, RunnerFrame } from '../../session-runner/src/providers/simulator';
import { type RunningHub, startSimulatorHub } from './simulator-hub';

let sim: RunningHub;
beforeAll(async () => {
  sim = await startSimulatorHub({ qrIntervalMs: 60_000 });
});
afterAll(async () => {
  await sim.close();
});

/** A raw session socket, as a runner opens it: every frame the hub sends is kept. */
async function socket(whatsappId: number, runner: string, me?: string) {
  const url = new URL(sim.url);
  url.search = new URLSearchParams({
    companyId: '1',
    whatsappId: String(whatsappId),
    runner,
    ...(me ? { me } : {}),
  }).toString();
  const ws = new WebSocket(url);
  const frames: HubFrame[] = [];
  let closeCode: number | undefined;
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as HubFrame));
  ws.on('close', (code) => (closeCode = code));
  await new Promise((opened) => ws.once('open', opened));
  return {
    frames,
    events: () => frames.filter((f): f is Extract<HubFrame, { op: 'event' }> => f.op === 'event'),
    closeCode: () => closeCode,
    send: (frame: RunnerFrame) => ws.send(JSON.stringify(frame)),
    close: () =>
      new Promise((closed) => {
        ws.once('close', closed);
        ws.close();
      }),
  };
}
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(check()).toBe(true);
};

describe('simulator hub (the simulated WhatsApp)', () => {
  it('an event a runner never acknowledged goes again to the next socket of the session; an acknowledged one does not', async () => {
    const first = await socket(1, 'runner-1', '5511900000001');
    const injected = await Promise.all([
      sim.hub.inject(1, 1, { from: '5511988887777', body: 'one', wid: 'W1', queue: true }),
      sim.hub.inject(1, 1, { from: '5511988887777', body: 'two', wid: 'W2', queue: true }),
    ]);
    expect(injected.map((m) => m?.pending)).toEqual([true, true]);
    await until(() => first.events().length === 2);
    // the runner hands W1 to the queue and acknowledges it, then dies with W2 in hand
    first.send({ op: 'ack', id: first.events()[0]!.id });
    await first.close();
    const second = await socket(1, 'runner-2', '5511900000001');
    await until(() => second.events().length === 1);
    const again = second.events()[0]!.event;
    expect(again.kind === 'message' && again.message.wid).toBe('W2');
    expect(sim.hub.snapshot(1, 1).pending).toBe(1);
    second.send({ op: 'ack', id: second.events()[0]!.id });
    await until(() => sim.hub.snapshot(1, 1).pending === 0);
    await second.close();
  });

  it('one socket per session: a newer socket replaces the older one with 440, recorded in the timeline', async () => {
    const older = await socket(2, 'runner-1', '5511900000002');
    const newer = await socket(2, 'runner-2', '5511900000002');
    await until(() => older.closeCode() === 4440);
    expect(sim.hub.snapshot(1, 2).runner).toBe('runner-2');
    const report = sim.hub.report().find((r) => r.whatsappId === 2)!;
    expect(report.timeline.map((t) => t.kind)).toEqual(['connect', 'open', 'connect', 'replaced', 'open']);
    expect(report.opens).toBe(2);
    await newer.close();
  });

  it('the timeline gives each outage and counts QR codes shown after the session had paired', async () => {
    const connected = await socket(3, 'runner-1', '5511900000003');
    await connected.close();
    await new Promise((r) => setTimeout(r, 120));
    const back = await socket(3, 'runner-2', '5511900000003');
    const report = sim.hub.report().find((r) => r.whatsappId === 3)!;
    expect(report.outages).toHaveLength(1);
    expect(report.outages[0]).toBeGreaterThanOrEqual(100);
    expect(report.qrAfterPaired).toBe(0);
    await back.close();
    // credentials lost: the session asks for a QR code again, which the proof counts
    const lost = await socket(3, 'runner-3');
    await until(() => lost.frames.some((f) => f.op === 'qr'));
    expect(sim.hub.report().find((r) => r.whatsappId === 3)!.qrAfterPaired).toBe(1);
    await lost.close();
  });
});
