import { afterAll, beforeAll, beforeEach, describe, it, expect, vi } from 'vitest';
import type { InboundEvent } from '#shared/whatsapp-protocol';
import { startDynamo, type LocalDynamo } from '../../infra/local/dynamo';
import { freePort } from '../../infra/local/ports';
import { resetConfig } from '#lib/config';
import { resetDb } from '#lib/db';

const emitted: InboundEvent[] = [];
vi.mock('./emit', () => ({ emit: async (e: InboundEvent) => void emitted.push(e) }));

const { SessionManager, MAX_QR_CODES } = await import('./session-manager');
const { wantedSessions } = await import('./lease');
const { SimulatorRegistry, simulatorProvider } = await import('./providers/simulator');
const { AuthStore } = await import('./auth-store');

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
});
