import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import type { InboundEvent } from '#shared/whatsapp-protocol';

const seen = vi.hoisted(() => ({ handled: [] as string[], failing: new Set<string>() }));

vi.mock('#lib/inbound/handle', () => ({
  handleInbound: async (event: Extract<InboundEvent, { type: 'ack' }>) => {
    if (seen.failing.has(event.wid)) throw new Error('table unavailable');
    seen.handled.push(event.wid);
  },
}));
vi.mock('#lib/log', () => ({
  log: { error: () => undefined, info: () => undefined, warn: () => undefined },
  withLogContext: (_ctx: unknown, fn: () => unknown) => fn(),
}));

const { handler } = await import('./inbound');

const record = (group: string, wid: string): SQSRecord =>
  ({
    messageId: `${group}-${wid}`,
    body: JSON.stringify({ type: 'ack', companyId: 1, whatsappId: 1, wid, chatJid: group, ack: 2 }),
    attributes: { MessageGroupId: group, ApproximateReceiveCount: '1' },
  }) as unknown as SQSRecord;

describe('inbound FIFO consumer', () => {
  beforeEach(() => {
    seen.handled = [];
    seen.failing.clear();
  });

  it('stops a message group at its first failed record and reports it and every later record of that group', async () => {
    seen.failing.add('a2');
    const event: SQSEvent = {
      Records: [record('A', 'a1'), record('B', 'b1'), record('A', 'a2'), record('B', 'b2'), record('A', 'a3')],
    };
    const out = await handler(event);
    expect(out.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['A-a2', 'A-a3']);
    // a3 waits for a2's retry; the other chat goes on
    expect(seen.handled).toEqual(['a1', 'b1', 'b2']);
  });

  it('reports nothing when every record is processed', async () => {
    const out = await handler({ Records: [record('A', 'a1'), record('A', 'a2')] });
    expect(out.batchItemFailures).toEqual([]);
    expect(seen.handled).toEqual(['a1', 'a2']);
  });
});
