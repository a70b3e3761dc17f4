import { afterEach, describe, it, expect, vi } from 'vitest';
import type { InboundEvent } from '#shared/whatsapp-protocol';

const enqueue = vi.fn();
vi.mock('#lib/queue', () => ({ enqueue: (...args: unknown[]) => enqueue(...args) }));
const putObject = vi.fn();
vi.mock('#lib/storage', () => ({
  putObject: (...args: unknown[]) => putObject(...args),
  claimCheckKey: (companyId: number, whatsappId: number, name: string) =>
    `company${companyId}/inbound-claims/${whatsappId}/${name}.json`,
}));
Object.assign(process.env, {
  TABLE_NAME: 'unused',
  MEDIA_BUCKET: 'unused',
  AWS_REGION: 'us-east-1',
  LOG_LEVEL: 'error',
});
const { resetConfig } = await import('#lib/config');
resetConfig();
const { drainEmits, emit, routing } = await import('./emit');

const base = { companyId: 3, whatsappId: 7 };
const chat = '5511988887777@s.whatsapp.net';

describe('inbound event routing (FIFO group and dedup id)', () => {
  it('a message and its later acks, edits and deletion share the company#connection#chat group', () => {
    const groups = [
      routing({
        type: 'message',
        ...base,
        message: {
          wid: 'W1',
          chatJid: chat,
          fromMe: false,
          isGroup: false,
          body: 'hi',
          mediaType: 'chat',
          timestamp: 1,
        },
      }),
      routing({ type: 'ack', ...base, wid: 'W1', chatJid: chat, ack: 2 }),
      routing({ type: 'edit', ...base, wid: 'W1', chatJid: chat, body: 'hello' }),
      routing({ type: 'revoke', ...base, wid: 'W1', chatJid: chat }),
      routing({ type: 'sendResult', ...base, messageId: 'm1', ticketId: 4, chatJid: chat, wid: 'W2', ack: 1 }),
    ].map((r) => r.groupId);
    expect(new Set(groups)).toEqual(new Set([`3#7#${chat}`]));
  });

  it('dedup: the same message reported twice is one; each ack level and each edit text is its own event', () => {
    const msg = {
      type: 'message' as const,
      ...base,
      message: {
        wid: 'W1',
        chatJid: chat,
        fromMe: false,
        isGroup: false,
        body: 'hi',
        mediaType: 'chat' as const,
        timestamp: 1,
      },
    };
    expect(routing(msg).dedupId).toBe(routing({ ...msg, message: { ...msg.message, body: 'hi (again)' } }).dedupId);
    const ack2 = routing({ type: 'ack', ...base, wid: 'W1', chatJid: chat, ack: 2 }).dedupId;
    const ack3 = routing({ type: 'ack', ...base, wid: 'W1', chatJid: chat, ack: 3 }).dedupId;
    expect(ack2).not.toBe(ack3);
    const e1 = routing({ type: 'edit', ...base, wid: 'W1', chatJid: chat, body: 'a' }).dedupId;
    const e2 = routing({ type: 'edit', ...base, wid: 'W1', chatJid: chat, body: 'b' }).dedupId;
    expect(e1).not.toBe(e2);
    // a send reported twice with one outcome is one event; a later, different outcome still gets through
    const result = { type: 'sendResult' as const, ...base, messageId: 'm1', ticketId: 4, chatJid: chat, wid: 'W2' };
    const sent = routing({ ...result, ack: 1 }).dedupId;
    expect(routing({ ...result, ack: 1 }).dedupId).toBe(sent);
    expect(routing({ ...result, ack: 0, error: 'ERR_SENDING_WAPP_MSG' }).dedupId).not.toBe(sent);
    // the same WhatsApp id in two companies never collides
    expect(routing({ ...msg, companyId: 4 }).dedupId).not.toBe(routing(msg).dedupId);
  });

  it('a message that could not be decrypted travels in its chat group, and its real message (same wid) is not deduplicated as it', () => {
    const lost = routing({ type: 'undecryptable', ...base, wid: 'W1', chatJid: chat, isGroup: false, timestamp: 1 });
    const real = routing({
      type: 'message',
      ...base,
      message: { wid: 'W1', chatJid: chat, fromMe: false, isGroup: false, body: 'hi', mediaType: 'chat', timestamp: 1 },
    });
    expect(lost.groupId).toBe(real.groupId);
    expect(lost.dedupId).not.toBe(real.dedupId);
    // reported twice, it is one event
    expect(
      routing({ type: 'undecryptable', ...base, wid: 'W1', chatJid: chat, isGroup: false, timestamp: 2 }).dedupId,
    ).toBe(lost.dedupId);
  });

  it('every session status change is delivered (never deduplicated), in one group per connection', () => {
    const a = routing({ type: 'session', ...base, status: 'qrcode', qrcode: 'x' });
    const b = routing({ type: 'session', ...base, status: 'qrcode', qrcode: 'x' });
    expect(a.groupId).toBe(b.groupId);
    expect(a.dedupId).not.toBe(b.dedupId);
  });
});

describe('emit (N4: an inbound event WhatsApp was told we have is never dropped)', () => {
  afterEach(() => {
    vi.useRealTimers();
    enqueue.mockReset();
  });
  const ack: InboundEvent = { type: 'ack', ...base, wid: 'W1', chatJid: chat, ack: 2 };
  const awsError = (name: string, fault: 'client' | 'server') =>
    Object.assign(new Error(name), { name, $fault: fault });

  it('an event the queue fails to take is tried again with back-off, under one dedup id, until taken; drainEmits waits for it', async () => {
    vi.useFakeTimers();
    enqueue
      .mockRejectedValueOnce(awsError('InternalError', 'server'))
      .mockRejectedValueOnce(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
      .mockRejectedValueOnce(awsError('RequestThrottled', 'client'))
      .mockResolvedValue(undefined);
    let taken = false;
    let drained = false;
    void emit(ack).then(() => (taken = true));
    void drainEmits().then(() => (drained = true));
    await vi.advanceTimersByTimeAsync(50);
    expect(enqueue).toHaveBeenCalledTimes(1);
    expect(drained).toBe(false);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(enqueue).toHaveBeenCalledTimes(4);
    expect(taken && drained).toBe(true);
    const dedupIds = new Set(enqueue.mock.calls.map((c) => (c[2] as { dedupId: string }).dedupId));
    expect(dedupIds.size).toBe(1);
  });

  it('an event SQS refuses as such (a client fault, not throttling) is not retried: the caller gets the error', async () => {
    enqueue.mockRejectedValueOnce(awsError('InvalidParameterValue', 'client'));
    await expect(emit(ack)).rejects.toThrow('InvalidParameterValue');
    expect(enqueue).toHaveBeenCalledTimes(1);
    await drainEmits();
  });

  it('an event larger than the queue takes goes through storage: the queue carries a claim check in its group, under its dedup id (R11)', async () => {
    enqueue.mockReset().mockResolvedValue(undefined);
    putObject.mockReset().mockResolvedValue(undefined);
    const big: InboundEvent = {
      type: 'message',
      ...base,
      message: {
        wid: 'BIG1',
        chatJid: chat,
        fromMe: false,
        isGroup: false,
        body: 'x'.repeat(300 * 1024),
        mediaType: 'chat',
        timestamp: 1,
      },
    };
    await emit(big);
    expect(putObject).toHaveBeenCalledTimes(1);
    const [key, json] = putObject.mock.calls[0] as [string, string];
    expect(key).toMatch(/^company3\/inbound-claims\/7\/[0-9a-f]{16}\.json$/);
    expect(JSON.parse(json)).toEqual(big);
    const [, sent, opts] = enqueue.mock.calls[0] as [string, InboundEvent, { groupId: string; dedupId: string }];
    expect(sent).toMatchObject({ type: 'claimCheck', ...base, key, of: 'message' });
    expect(opts).toEqual(routing(big));
    // a small event goes as it is
    await emit(ack);
    expect(putObject).toHaveBeenCalledTimes(1);
    expect(enqueue.mock.calls[1]?.[1]).toEqual(ack);
  });
});
