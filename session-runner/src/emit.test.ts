import { describe, it, expect } from 'vitest';
import { routing } from './emit';

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

  it('every session status change is delivered (never deduplicated), in one group per connection', () => {
    const a = routing({ type: 'session', ...base, status: 'qrcode', qrcode: 'x' });
    const b = routing({ type: 'session', ...base, status: 'qrcode', qrcode: 'x' });
    expect(a.groupId).toBe(b.groupId);
    expect(a.dedupId).not.toBe(b.dedupId);
  });
});
