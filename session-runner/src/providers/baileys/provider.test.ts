import { EventEmitter } from 'node:events';
import { Boom } from '@hapi/boom';
import { proto, type WAMessage } from '@whiskeysockets/baileys';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProviderEvents, SendCommand, SessionContext } from '../../provider';

/** A constructed Baileys socket: the calls the provider makes, recorded; events pushed by the test. */
const made: { config: Record<string, unknown>; sock: ReturnType<typeof fakeSocket> }[] = [];
function fakeSocket() {
  const ev = new EventEmitter();
  return {
    ev,
    user: { id: '5511900000000:3@s.whatsapp.net' },
    sendMessage: vi.fn(async (jid: string, _content: unknown, opts: { messageId?: string }) => ({
      key: { id: opts?.messageId, remoteJid: jid, fromMe: true },
      message: { conversation: 'x' },
    })),
    updateMediaMessage: vi.fn(async (m: WAMessage) => ({ ...m, message: { imageMessage: { url: 'fresh' } } })),
    profilePictureUrl: vi.fn(async () => undefined),
    signalRepository: { lidMapping: { getLIDForPN: vi.fn(async (_pn: string): Promise<string | null> => null) } },
    assertSessions: vi.fn(async (_jids: string[], _force?: boolean) => true),
    end: vi.fn(),
  };
}
const download = vi.fn();
vi.mock('@whiskeysockets/baileys', async (importOriginal) => {
  const original = await importOriginal<typeof import('@whiskeysockets/baileys')>();
  return {
    ...original,
    default: (config: Record<string, unknown>) => {
      const sock = fakeSocket();
      made.push({ config, sock });
      return sock;
    },
    downloadMediaMessage: (...args: unknown[]) => download(...args),
  };
});
Object.assign(process.env, {
  TABLE_NAME: 'unused',
  MEDIA_BUCKET: 'unused',
  AWS_REGION: 'us-east-1',
  LOG_LEVEL: 'error',
});
const { resetConfig } = await import('#lib/config');
resetConfig();
const { baileysProvider, currentVersion, downloadWithReupload, logFields } = await import('./provider');

/** An auth store in memory: enough for loadDynamoAuthState. */
const memoryAuth = () => {
  const keys = new Map<string, unknown>();
  return {
    withCodec() {
      return this;
    },
    readCreds: async () => undefined,
    writeCreds: async () => undefined,
    getKeys: async (type: string, ids: string[]) =>
      Object.fromEntries(ids.filter((id) => keys.has(`${type}.${id}`)).map((id) => [id, keys.get(`${type}.${id}`)])),
    setKeys: async () => undefined,
    clear: async () => undefined,
  };
};

function session(fetchVersion = async () => [2, 3000, 1] as [number, number, number]) {
  const events = {
    status: vi.fn(),
    message: vi.fn(async () => undefined),
    ack: vi.fn(async () => undefined),
    edit: vi.fn(async () => undefined),
    revoke: vi.fn(async () => undefined),
    call: vi.fn(async () => undefined),
    lidMapping: vi.fn(async () => undefined),
    closed: vi.fn(),
  } satisfies ProviderEvents;
  const ctx = {
    companyId: 1,
    whatsappId: 2,
    auth: memoryAuth(),
    events,
    getMessage: async () => undefined,
  } as unknown as SessionContext;
  return { s: baileysProvider({ fetchVersion }).create(ctx), events };
}

const command = (over: Partial<SendCommand> = {}): SendCommand => ({
  type: 'send',
  commandId: 'c1',
  companyId: 1,
  whatsappId: 2,
  messageId: 'm1',
  wid: '3EB0API0000000000001',
  ticketId: 3,
  to: '5511988887777@s.whatsapp.net',
  body: 'hello',
  ...over,
});

beforeEach(() => {
  made.splice(0);
  download.mockReset();
});

describe('Baileys provider', () => {
  it('sends with the id the API assigned (messageId), so every ack and echo carries a key the store has', async () => {
    const { s } = session();
    await s.connect();
    const out = await s.send(command());
    const [jid, , opts] = made[0]!.sock.sendMessage.mock.calls[0]!;
    expect(jid).toBe('5511988887777@s.whatsapp.net');
    expect(opts).toMatchObject({ messageId: '3EB0API0000000000001' });
    expect(out.chatJid).toBe('5511988887777@s.whatsapp.net');
  });

  it('a contact WhatsApp moved to a LID is sent to (and deleted at) the LID, and the result names that chat', async () => {
    const { s } = session();
    await s.connect();
    made[0]!.sock.signalRepository.lidMapping.getLIDForPN.mockResolvedValue('201512345678901@lid');
    const out = await s.send(command());
    expect(made[0]!.sock.sendMessage.mock.calls[0]![0]).toBe('201512345678901@lid');
    expect(out.chatJid).toBe('201512345678901@lid');
    await s.deleteMessage({ wid: '3EB0API0000000000001', to: '5511988887777@s.whatsapp.net', fromMe: true });
    expect(made[0]!.sock.sendMessage.mock.calls[1]![1]).toEqual({
      delete: { id: '3EB0API0000000000001', remoteJid: '201512345678901@lid', fromMe: true },
    });
  });

  it('a session repair looks the LID mapping up, reports it, and re-fetches the Signal sessions of both id forms, forced', async () => {
    const { s, events } = session();
    await s.connect();
    made[0]!.sock.signalRepository.lidMapping.getLIDForPN.mockResolvedValue('201512345678901@lid');
    await s.repair('5511988887777@s.whatsapp.net');
    expect(events.lidMapping).toHaveBeenCalledWith({ lid: '201512345678901@lid', pn: '5511988887777@s.whatsapp.net' });
    expect(made[0]!.sock.assertSessions).toHaveBeenCalledWith(
      ['5511988887777@s.whatsapp.net', '201512345678901@lid'],
      true,
    );
  });

  it('a quote is the real one: our own message credited to us, its author in groups, its text shown', async () => {
    const { s } = session();
    await s.connect();
    await s.send(
      command({
        to: '120363000000000000@g.us',
        quotedWid: 'Q1',
        quotedFromMe: false,
        quotedParticipant: '5511977776666@s.whatsapp.net',
        quotedBody: 'where is my order?',
      }),
    );
    const quoted = (made[0]!.sock.sendMessage.mock.calls[0]![2] as { quoted: WAMessage }).quoted;
    expect(quoted).toEqual({
      key: {
        id: 'Q1',
        remoteJid: '120363000000000000@g.us',
        fromMe: false,
        participant: '5511977776666@s.whatsapp.net',
      },
      message: { conversation: 'where is my order?' },
    });
  });

  it('an uploaded audio file is an audio file; only a recorded ogg/opus voice note is sent as a voice note', async () => {
    const { s } = session();
    await s.connect();
    const audio = (mimetype: string, ptt?: boolean) =>
      command({ media: { key: 'k', mimetype, fileName: 'a', kind: 'audio', ptt } });
    await s.send(audio('audio/mpeg'), Buffer.from('mp3'));
    await s.send(audio('audio/ogg; codecs=opus', true), Buffer.from('ogg'));
    await s.send(audio('audio/webm;codecs=opus', true), Buffer.from('webm'));
    const ptt = made[0]!.sock.sendMessage.mock.calls.map((c) => (c[1] as { ptt?: boolean }).ptt);
    expect(ptt).toEqual([false, true, false]);
  });

  it("connects with WhatsApp Web's current version, and with Baileys' own when it cannot be fetched in time", async () => {
    await session(async () => [2, 3000, 1029000000]).s.connect();
    expect(made[0]!.config.version).toEqual([2, 3000, 1029000000]);
    expect(await currentVersion(() => new Promise(() => undefined), 20)).toBeUndefined();
    expect(await currentVersion(async () => Promise.reject(new Error('offline')))).toBeUndefined();
  });

  it('one message-retry counter across the sockets of a runner (reconnects do not reset it)', async () => {
    const { s } = session();
    await s.connect();
    await s.connect();
    expect(made[0]!.config.msgRetryCounterCache).toBeDefined();
    expect(made[1]!.config.msgRetryCounterCache).toBe(made[0]!.config.msgRetryCounterCache);
  });

  it('offline backlog days old is still delivered; a status ERROR update reaches the API as an error ack', async () => {
    const { s, events } = session();
    await s.connect();
    const ev = made[0]!.sock.ev;
    ev.emit('messages.upsert', {
      type: 'append',
      messages: [
        {
          key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'OLD1' },
          messageTimestamp: Math.floor(Date.now() / 1000) - 3 * 24 * 3600,
          message: { conversation: 'sent while the runner was down' },
        },
      ],
    });
    ev.emit('messages.update', [
      { key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: true, id: 'OUT1' }, update: { status: 0 } },
    ]);
    await vi.waitFor(() => expect(events.message).toHaveBeenCalledTimes(1));
    await vi.waitFor(() =>
      expect(events.ack).toHaveBeenCalledWith(
        expect.objectContaining({ wid: 'OUT1', ack: 0, error: 'ERR_SENDING_WAPP_MSG' }),
      ),
    );
  });

  it('the echo of our own send is not a message, but a delivery receipt folded into it is reported', async () => {
    const { s, events } = session();
    await s.connect();
    await s.send(command());
    made[0]!.sock.ev.emit('messages.upsert', {
      type: 'append',
      messages: [
        {
          key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: true, id: '3EB0API0000000000001' },
          messageTimestamp: Math.floor(Date.now() / 1000),
          status: proto.WebMessageInfo.Status.DELIVERY_ACK,
          message: { conversation: 'hello' },
        },
      ],
    });
    await vi.waitFor(() =>
      expect(events.ack).toHaveBeenCalledWith({
        wid: '3EB0API0000000000001',
        chatJid: '5511988887777@s.whatsapp.net',
        ack: 2,
      }),
    );
    expect(events.message).not.toHaveBeenCalled();
  });

  it('a call event whose report fails is logged, never an unhandled rejection', async () => {
    const { s, events } = session();
    await s.connect();
    events.call.mockRejectedValueOnce(new Error('SQS throttled'));
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    made[0]!.sock.ev.emit('call', [
      { id: 'C1', from: '201512345678901@lid', date: new Date(), offline: false, status: 'offer' },
    ]);
    await new Promise((r) => setTimeout(r, 20));
    process.off('unhandledRejection', unhandled);
    expect(events.call).toHaveBeenCalled();
    expect(unhandled).not.toHaveBeenCalled();
  });
});

describe('media download', () => {
  it('an expired CDN copy (Boom 410, which Baileys itself misses) is re-uploaded by the phone and fetched again', async () => {
    const raw = { key: { id: 'IMG1' }, message: { imageMessage: { url: 'old' } } } as WAMessage;
    download.mockRejectedValueOnce(new Boom('Failed to fetch stream', { statusCode: 410 }));
    download.mockResolvedValueOnce('the bytes');
    const reupload = vi.fn(async (m: WAMessage) => ({ ...m, message: { imageMessage: { url: 'fresh' } } }));
    expect(await downloadWithReupload(raw, reupload)).toBe('the bytes');
    expect(reupload).toHaveBeenCalledWith(raw);
    expect((download.mock.calls[1]![0] as WAMessage).message?.imageMessage?.url).toBe('fresh');
  });

  it('other download errors are not retried', async () => {
    download.mockRejectedValueOnce(new Boom('forbidden', { statusCode: 403 }));
    const reupload = vi.fn();
    await expect(downloadWithReupload({ key: {} } as WAMessage, reupload)).rejects.toThrow('forbidden');
    expect(reupload).not.toHaveBeenCalled();
  });
});

describe('Baileys log lines', () => {
  it("keep the error's message and stack and the ids, not the objects", () => {
    const err = new Error('Bad MAC');
    const fields = logFields({
      err,
      key: { id: 'W1', remoteJid: 'x@s.whatsapp.net', fromMe: false },
      node: { tag: 'message', attrs: { id: 'W1', from: 'x@s.whatsapp.net' }, content: [] },
      jid: 'x@s.whatsapp.net',
    });
    expect(fields).toMatchObject({
      err: 'Bad MAC',
      key: { id: 'W1', remoteJid: 'x@s.whatsapp.net' },
      node: { tag: 'message', attrs: { id: 'W1' } },
      jid: 'x@s.whatsapp.net',
    });
    expect(String(fields.errStack)).toContain('Bad MAC');
  });
});
