import { EventEmitter } from 'node:events';
import { Boom } from '@hapi/boom';
import { proto, type WAMessage } from '@whiskeysockets/baileys';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProviderEvents, SendCommand, SessionContext } from '../../provider';
import { HOLD_ATTEMPTS, type JournalItem, type JournalStore, journalBypasses } from './receipt-journal';

/** A constructed Baileys socket: the calls the provider makes, recorded; events pushed by the test. */
const made: { config: Record<string, unknown>; sock: ReturnType<typeof fakeSocket> }[] = [];
function fakeSocket() {
  const ev = new EventEmitter();
  return {
    ev,
    user: { id: '5511900000000:3@s.whatsapp.net', lid: '201500000000000:3@lid' },
    sendMessage: vi.fn(async (jid: string, _content: unknown, opts: { messageId?: string }) => ({
      key: { id: opts?.messageId, remoteJid: jid, fromMe: true },
      message: { conversation: 'x' },
    })),
    updateMediaMessage: vi.fn(async (m: WAMessage) => ({ ...m, message: { imageMessage: { url: 'fresh' } } })),
    profilePictureUrl: vi.fn(async () => undefined),
    signalRepository: { lidMapping: { getLIDForPN: vi.fn(async (_pn: string): Promise<string | null> => null) } },
    assertSessions: vi.fn(async (_jids: string[], _force?: boolean) => true),
    groupMetadata: vi.fn(async (jid: string) => ({ id: jid, subject: 'Group', participants: [] })),
    logout: vi.fn(async () => undefined),
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
const {
  CACHE_LIMITS,
  DOWNLOAD_BASE_MS,
  VERSION_KEEP_MS,
  VersionCache,
  REUPLOAD_TIMEOUT_MS,
  baileysProvider,
  currentVersion,
  downloadDeadlineMs,
  downloadWithReupload,
  logFields,
} = await import('./provider');

/** The receipt journal's entries in memory, by pk and sk. */
const memoryJournal = () => {
  const items = new Map<string, JournalItem>();
  const store: JournalStore = {
    put: async (item) => void items.set(`${item.pk}|${item.sk}`, item),
    list: async (pk, prefix) => [...items.values()].filter((i) => i.pk === pk && i.sk.startsWith(prefix)),
    delete: async (keys) => {
      for (const k of keys) items.delete(`${k.pk}|${k.sk}`);
    },
  };
  return { store, items };
};

/** An auth store in memory: enough for loadDynamoAuthState and the address book. */
const memoryAuth = () => {
  const keys = new Map<string, unknown>();
  return {
    companyId: 1,
    whatsappId: 2,
    pk: 'C#1#WAUTH#2',
    withCodec() {
      return this;
    },
    readCreds: async () => undefined,
    writeCreds: async () => undefined,
    getKeys: async (type: string, ids: string[]) =>
      Object.fromEntries(ids.filter((id) => keys.has(`${type}.${id}`)).map((id) => [id, keys.get(`${type}.${id}`)])),
    setKeys: async () => undefined,
    setFields: vi.fn(async (_type: string, _entries: Map<string, Record<string, string>>) => undefined),
    fieldsOf: async () => new Map(),
    flush: vi.fn(async () => undefined),
    clear: async () => undefined,
  };
};

function session(
  fetchVersion = async () => [2, 3000, 1] as [number, number, number],
  provider = baileysProvider({ fetchVersion, journal: memoryJournal().store }),
) {
  const events = {
    status: vi.fn(),
    message: vi.fn(async (_message: unknown) => undefined),
    ack: vi.fn(async () => undefined),
    edit: vi.fn(async () => undefined),
    revoke: vi.fn(async () => undefined),
    call: vi.fn(async () => undefined),
    lidMapping: vi.fn(async () => undefined),
    undecryptable: vi.fn(),
    closed: vi.fn(),
  } satisfies ProviderEvents;
  const auth = memoryAuth();
  /** what the sent store holds per wid (JSON, as sent-store.ts keeps it) */
  const sentStore = new Map<string, string>();
  const ctx = {
    companyId: 1,
    whatsappId: 2,
    auth,
    events,
    getMessage: async (wid: string) => (sentStore.has(wid) ? JSON.parse(sentStore.get(wid)!) : undefined),
  } as unknown as SessionContext;
  return { s: provider.create(ctx), events, auth, sentStore, provider };
}

const inbound = (id: string, from = '5511988887777@s.whatsapp.net') => ({
  key: { remoteJid: from, fromMe: false, id },
  messageTimestamp: Math.floor(Date.now() / 1000),
  message: { conversation: 'hi' },
});

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
    await s.send(audio('audio/mpeg'), { path: '/tmp/a.mp3', size: 3 });
    await s.send(audio('audio/ogg; codecs=opus', true), { path: '/tmp/a.ogg', size: 3 });
    await s.send(audio('audio/webm;codecs=opus', true), { path: '/tmp/a.webm', size: 4 });
    const sent = made[0]!.sock.sendMessage.mock.calls.map((c) => c[1] as { ptt?: boolean; audio: unknown });
    expect(sent.map((c) => c.ptt)).toEqual([false, true, false]);
    // Baileys streams the file from its path: the media never sits whole in memory here
    expect(sent[0]!.audio).toEqual({ url: '/tmp/a.mp3' });
  });

  it("connects with WhatsApp Web's current version, and with Baileys' own when it cannot be fetched in time", async () => {
    await session(async () => [2, 3000, 1029000000]).s.connect();
    expect(made[0]!.config.version).toEqual([2, 3000, 1029000000]);
    expect(await currentVersion(() => new Promise(() => undefined), 20)).toBeUndefined();
    expect(await currentVersion(async () => Promise.reject(new Error('offline')))).toBeUndefined();
  });

  it('R7: the version is fetched once per process and kept an hour; a failed fetch is counted and tried again next time; forgotten on a 405', async () => {
    let now = 0;
    let fetches = 0;
    let failing = false;
    const cache = new VersionCache(
      async () => {
        fetches++;
        if (failing) throw new Error('not the current version');
        return [2, 3000, fetches];
      },
      () => now,
    );
    expect(await cache.get()).toEqual([2, 3000, 1]);
    now += VERSION_KEEP_MS - 1;
    expect(await cache.get()).toEqual([2, 3000, 1]);
    expect(fetches).toBe(1);
    now += 1;
    expect(await cache.get()).toEqual([2, 3000, 2]);
    cache.forget();
    failing = true;
    expect(await cache.get()).toBeUndefined();
    expect(cache.failures).toBe(1);
    failing = false;
    expect(await cache.get()).toEqual([2, 3000, 4]);

    // sockets of one provider share it; a 405 close makes the next connect fetch again
    let served = 0;
    const { s } = session(async () => [2, 3000, ++served]);
    await s.connect();
    await s.connect();
    expect(served).toBe(1);
    made.at(-1)!.sock.ev.emit('connection.update', {
      connection: 'close',
      lastDisconnect: { error: new Boom('refused', { statusCode: 405 }) },
    });
    await s.connect();
    expect(served).toBe(2);
    expect(made.at(-1)!.config.version).toEqual([2, 3000, 2]);
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

  it('N3: a re-upload the phone never answers gives up after the timeout, so the media counts as expired and the chat moves on', async () => {
    expect(REUPLOAD_TIMEOUT_MS).toBeGreaterThanOrEqual(30_000);
    expect(REUPLOAD_TIMEOUT_MS).toBeLessThanOrEqual(60_000);
    download.mockRejectedValueOnce(new Boom('Failed to fetch stream', { statusCode: 404 }));
    const phoneOffline = vi.fn(() => new Promise<WAMessage>(() => undefined));
    await expect(downloadWithReupload({ key: { id: 'IMG2' } } as WAMessage, phoneOffline, 30)).rejects.toThrow();
    expect(phoneOffline).toHaveBeenCalled();
    expect(download).toHaveBeenCalledTimes(1);
  });

  it('R12: a download has a deadline that grows with the file (a stalled transfer ends with a media error)', async () => {
    const video = (fileLength: number) =>
      ({
        key: { id: 'VID' },
        message: { videoMessage: { fileLength, mimetype: 'video/mp4' } },
      }) as unknown as WAMessage;
    const small = downloadDeadlineMs(video(50_000));
    const large = downloadDeadlineMs(video(50_000_000));
    expect(small).toBeGreaterThan(DOWNLOAD_BASE_MS);
    expect(large).toBeGreaterThan(small + 400_000);
    // a media without a size is given the time of a large one, not none
    expect(downloadDeadlineMs({ key: { id: 'X' }, message: { imageMessage: {} } } as WAMessage)).toBeGreaterThan(small);
    // the download is called with an abort signal (AbortSignal.timeout of that deadline)
    let signal: AbortSignal | undefined;
    download.mockImplementationOnce(
      async (_raw: unknown, _type: unknown, opts: { options?: { signal?: AbortSignal } }) => {
        signal = opts.options?.signal;
        return 'stream';
      },
    );
    expect(await downloadWithReupload(video(50_000), async (m) => m)).toBe('stream');
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal!.aborted).toBe(false);
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

describe('Baileys provider: group receipts (N1)', () => {
  const group = '120363000000000000@g.us';
  const receipt = (id: string, userJid: string, at: 'receiptTimestamp' | 'readTimestamp', fromMe = true) => ({
    key: { remoteJid: group, fromMe, id, participant: userJid },
    receipt: { userJid, [at]: 1700000000 },
  });

  it('receipts of our own group messages become one delivered and one read ack, however many members send them; our own devices and messages of others give none', async () => {
    const { s, events } = session();
    await s.connect();
    const ev = made[0]!.sock.ev;
    ev.emit('message-receipt.update', [
      receipt('G1', '5511911110001@s.whatsapp.net', 'receiptTimestamp'),
      receipt('G1', '5511911110002@s.whatsapp.net', 'receiptTimestamp'),
    ]);
    ev.emit('message-receipt.update', [receipt('G1', '201511111111111@lid', 'receiptTimestamp')]);
    ev.emit('message-receipt.update', [
      receipt('G1', '5511911110002@s.whatsapp.net', 'readTimestamp'),
      // our phone reading the group: not a member's receipt
      receipt('G2', '5511900000000@s.whatsapp.net', 'readTimestamp'),
      receipt('G3', '201500000000000@lid', 'readTimestamp'),
      // a receipt for someone else's message
      receipt('G4', '5511911110001@s.whatsapp.net', 'readTimestamp', false),
    ]);
    ev.emit('message-receipt.update', [receipt('G1', '5511911110001@s.whatsapp.net', 'receiptTimestamp')]);
    await vi.waitFor(() => expect(events.ack).toHaveBeenCalledTimes(2));
    await new Promise((r) => setTimeout(r, 20));
    expect(events.ack.mock.calls).toEqual([
      [{ kind: 'ack', wid: 'G1', chatJid: group, ack: 2 }],
      [{ kind: 'ack', wid: 'G1', chatJid: group, ack: 3 }],
    ]);
  });
});

describe('Baileys provider: group metadata cache (N11)', () => {
  it("a group's metadata is asked of WhatsApp once for its sends, and again after the group changes or the cache lifetime ends", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { s } = session();
      await s.connect();
      const { config, sock } = made[0]!;
      const cached = config.cachedGroupMetadata as (jid: string) => Promise<{ id: string } | undefined>;
      const group = '120363000000000000@g.us';
      expect((await cached(group))?.id).toBe(group);
      await cached(group);
      expect(sock.groupMetadata).toHaveBeenCalledTimes(1);
      sock.ev.emit('group-participants.update', { id: group, author: 'x', participants: [], action: 'add' });
      await cached(group);
      expect(sock.groupMetadata).toHaveBeenCalledTimes(2);
      sock.ev.emit('groups.update', [{ id: group, subject: 'renamed' }]);
      await cached(group);
      expect(sock.groupMetadata).toHaveBeenCalledTimes(3);
      vi.setSystemTime(Date.now() + CACHE_LIMITS.groups.ttlMs + 1);
      await cached(group);
      expect(sock.groupMetadata).toHaveBeenCalledTimes(4);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Baileys provider: retry requests (N10)', () => {
  it("a retry request gets the sent proto back: bytes, enums and 64-bit numbers survive the sent store's JSON", async () => {
    const { s, sentStore } = session();
    await s.connect();
    const message = {
      extendedTextMessage: { text: 'hello', font: proto.Message.ExtendedTextMessage.FontType.FB_SCRIPT },
      messageContextInfo: { messageSecret: Buffer.alloc(32, 7) },
    };
    made[0]!.sock.sendMessage.mockResolvedValueOnce({
      key: { id: 'W1', remoteJid: '5511988887777@s.whatsapp.net', fromMe: true },
      message: message as never,
    });
    const out = await s.send(command({ wid: 'W1' }));
    // what session-manager hands recordSent, and sent-store.ts stores as JSON
    sentStore.set('W1', JSON.stringify(out.content));
    // a record an earlier version stored: the proto's own JSON (enums as names)
    sentStore.set('W0', JSON.stringify(proto.Message.fromObject(message)));
    const getMessage = made[0]!.config.getMessage as (key: { id: string }) => Promise<proto.IMessage | undefined>;
    for (const wid of ['W1', 'W0']) {
      const restored = (await getMessage({ id: wid }))!;
      expect(restored, wid).toBeInstanceOf(proto.Message);
      expect(restored.extendedTextMessage?.font, wid).toBe(proto.Message.ExtendedTextMessage.FontType.FB_SCRIPT);
      expect(Buffer.from(restored.messageContextInfo!.messageSecret!), wid).toEqual(Buffer.alloc(32, 7));
      expect(Buffer.from(proto.Message.encode(restored).finish()), wid).toEqual(
        Buffer.from(proto.Message.encode(proto.Message.fromObject(message)).finish()),
      );
    }
    expect(await getMessage({ id: 'unknown' })).toBeUndefined();
  });
});

describe('Baileys provider: shutdown (N4)', () => {
  it('drain() resolves once every event handed on is delivered, and the address book and creds are stored', async () => {
    const { s, events, auth, provider } = session();
    await s.connect();
    let deliver!: () => void;
    events.message.mockImplementationOnce(() => new Promise<undefined>((done) => (deliver = () => done(undefined))));
    made[0]!.sock.ev.emit('messages.upsert', { type: 'notify', messages: [inbound('IN1')] });
    made[0]!.sock.ev.emit('contacts.upsert', [{ id: '5511955550001@s.whatsapp.net', name: 'Ana' }]);
    await vi.waitFor(() => expect(events.message).toHaveBeenCalled());
    let drained = false;
    const drain = provider.drain().then(() => (drained = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(drained).toBe(false);
    deliver();
    await drain;
    expect(auth.setFields).toHaveBeenCalledWith('contact-name', new Map([['5511955550001', { saved: 'Ana' }]]));
    expect(auth.flush).toHaveBeenCalled();
  });
});

describe('Baileys provider: bounded memory (N5)', () => {
  it('the ids of our sends are remembered for their echo within bounds: the last ones sent, for an hour', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { s, events } = session();
      await s.connect();
      const echo = (id: string) =>
        made[0]!.sock.ev.emit('messages.upsert', {
          type: 'append',
          messages: [
            {
              key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: true, id },
              messageTimestamp: Math.floor(Date.now() / 1000),
              message: { conversation: 'sent' },
            },
          ],
        });
      await s.send(command({ wid: 'FIRST' }));
      for (let i = 0; i < CACHE_LIMITS.sentIds.max; i++) await s.send(command({ wid: `W${i}` }));
      await s.send(command({ wid: 'RECENT' }));
      // the oldest fell out: its late echo reads as a message sent from the phone
      echo('FIRST');
      echo('RECENT');
      await vi.waitFor(() => expect(events.message).toHaveBeenCalledTimes(1), { interval: 1 });
      await new Promise((r) => setTimeout(r, 20));
      expect(events.message).toHaveBeenCalledTimes(1);
      expect(events.message.mock.calls[0]![0]).toMatchObject({ wid: 'FIRST', fromMe: true });
      vi.setSystemTime(Date.now() + CACHE_LIMITS.sentIds.ttlMs + 1);
      echo('RECENT');
      await vi.waitFor(() => expect(events.message).toHaveBeenCalledTimes(2));
    } finally {
      vi.useRealTimers();
    }
  });

  it("the socket's signal-key cache and the runner's retry counters are bounded in count and age", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { s, auth } = session();
      const reads = vi
        .spyOn(auth, 'getKeys')
        .mockImplementation(async (_type: string, ids: string[]) => Object.fromEntries(ids.map((id) => [id, { id }])));
      await s.connect();
      const keys = (made[0]!.config.auth as { keys: { get: (type: string, ids: string[]) => Promise<unknown> } }).keys;
      const readsOf = (id: string) => reads.mock.calls.filter(([, ids]) => ids.includes(id)).length;
      await keys.get('session', ['k0']);
      await keys.get('session', ['k0']);
      expect(readsOf('k0')).toBe(1);
      for (let i = 1; i <= CACHE_LIMITS.signalKeys.max; i++) await keys.get('session', [`k${i}`]);
      await keys.get('session', ['k0']);
      expect(readsOf('k0')).toBe(2);
      vi.setSystemTime(Date.now() + CACHE_LIMITS.signalKeys.ttlMs + 1);
      await keys.get('session', ['k0']);
      expect(readsOf('k0')).toBe(3);

      const retries = made[0]!.config.msgRetryCounterCache as {
        get: (k: string) => unknown;
        set: (k: string, v: number) => void;
      };
      retries.set('first', 1);
      for (let i = 0; i < CACHE_LIMITS.retries.max; i++) retries.set(`r${i}`, 1);
      expect(retries.get('first')).toBeUndefined();
      retries.set('recent', 1);
      vi.setSystemTime(Date.now() + CACHE_LIMITS.retries.ttlMs + 1);
      expect(retries.get('recent')).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it("Baileys' own caches (devices, call offers, placeholder resends) are given bounded ones, a fresh set per socket", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { s } = session();
      await s.connect();
      const names = ['userDevicesCache', 'callOfferCache', 'placeholderResendCache'] as const;
      const limits = [CACHE_LIMITS.userDevices, CACHE_LIMITS.callOffers, CACHE_LIMITS.placeholderResends];
      for (const [i, name] of names.entries()) {
        const cache = made[0]!.config[name] as { get: (k: string) => unknown; set: (k: string, v: unknown) => void };
        expect(cache, name).toBeDefined();
        cache.set('first', 1);
        for (let n = 0; n < limits[i]!.max; n++) cache.set(`k${n}`, 1);
        expect(cache.get('first'), `${name} holds at most ${limits[i]!.max}`).toBeUndefined();
        cache.set('recent', 1);
        vi.setSystemTime(Date.now() + limits[i]!.ttlMs + 1);
        expect(cache.get('recent'), `${name} forgets after ${limits[i]!.ttlMs} ms`).toBeUndefined();
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it("a contact's picture is looked up once a day, and only so many contacts' pictures are remembered", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { s, events } = session();
      await s.connect();
      const lookups = made[0]!.sock.profilePictureUrl;
      const from = (n: number) => `55119${String(n).padStart(8, '0')}@s.whatsapp.net`;
      const receive = async (...messages: [id: string, jid: string][]) => {
        const before = events.message.mock.calls.length;
        for (const [id, jid] of messages)
          made[0]!.sock.ev.emit('messages.upsert', { type: 'notify', messages: [inbound(id, jid)] });
        await vi.waitFor(() => expect(events.message.mock.calls.length).toBe(before + messages.length), {
          interval: 1,
        });
      };
      await receive(['A1', from(0)]);
      await receive(['A2', from(0)]);
      expect(lookups).toHaveBeenCalledTimes(1);
      vi.setSystemTime(Date.now() + CACHE_LIMITS.pictures.ttlMs + 1);
      await receive(['A3', from(0)]);
      expect(lookups).toHaveBeenCalledTimes(2);
      await receive(
        ...Array.from({ length: CACHE_LIMITS.pictures.max }, (_, i) => [`B${i}`, from(i + 1)] as [string, string]),
      );
      await receive(['A4', from(0)]);
      expect(lookups).toHaveBeenCalledTimes(CACHE_LIMITS.pictures.max + 3);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Baileys provider: the window between the receipt and the queue', () => {
  beforeEach(() => {
    made.length = 0;
  });
  const hook = (n: number) => made[n]!.config.beforeDeliveryReceipt as (msg: WAMessage) => Promise<void>;

  it('a message is journalled before its delivery receipt goes out, and forgotten only once its event is on the queue', async () => {
    const journal = memoryJournal();
    const { s, events, provider } = session(undefined, baileysProvider({ journal: journal.store }));
    let queued!: () => void;
    events.message.mockImplementationOnce(() => new Promise<undefined>((done) => (queued = () => done(undefined))));
    await s.connect();
    const msg = inbound('IN-HELD') as WAMessage;
    await hook(0)(msg);
    expect([...journal.items.keys()]).toEqual(['C#1#WAUTH#2|INBOX#IN-HELD']);
    made[0]!.sock.ev.emit('messages.upsert', { type: 'notify', messages: [msg] });
    await vi.waitFor(() => expect(events.message).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 300));
    expect(journal.items.size).toBe(1);
    queued();
    await provider.drain();
    expect(journal.items.size).toBe(0);
  });

  it('a runner killed after the receipt: the next connect, on any runner, delivers the journalled message once and forgets it', async () => {
    const journal = memoryJournal();
    const first = session(undefined, baileysProvider({ journal: journal.store }));
    await first.s.connect();
    const msg = {
      key: {
        remoteJid: '5511988887777:12@s.whatsapp.net',
        remoteJidAlt: '201577777777777@lid',
        fromMe: false,
        id: 'IN-LOST',
      },
      messageTimestamp: Math.floor(Date.now() / 1000),
      message: { conversation: 'sent just before the crash' },
    } as WAMessage;
    await hook(0)(msg);
    // killed here: the receipt went out, the upsert never came
    const second = session(undefined, baileysProvider({ journal: journal.store }));
    await second.s.connect();
    await second.provider.drain();
    expect(second.events.message).toHaveBeenCalledTimes(1);
    expect(second.events.message).toHaveBeenCalledWith(
      expect.objectContaining({
        wid: 'IN-LOST',
        body: 'sent just before the crash',
        chatJid: '5511988887777@s.whatsapp.net',
        chatAltJid: '201577777777777@lid',
      }),
    );
    expect(journal.items.size).toBe(0);
  });

  it('a message that could not be decrypted is reported to the session (counted on its health), not delivered as a message', async () => {
    const { s, events, provider } = session();
    await s.connect();
    const stub = {
      key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'IN-BADMAC' },
      messageTimestamp: Math.floor(Date.now() / 1000),
      messageStubType: proto.WebMessageInfo.StubType.CIPHERTEXT,
      messageStubParameters: ['Bad MAC'],
    } as WAMessage;
    made[0]!.sock.ev.emit('messages.upsert', { type: 'notify', messages: [stub] });
    await provider.drain();
    expect(events.undecryptable).toHaveBeenCalledWith(
      expect.objectContaining({ wid: 'IN-BADMAC', chatJid: '5511988887777@s.whatsapp.net', reason: 'Bad MAC' }),
    );
    expect(events.message).not.toHaveBeenCalled();
  });

  it('a journal write that fails is tried again; when it keeps failing the message still goes on (a refused copy could not be decrypted again), counted', async () => {
    const journal = memoryJournal();
    const put = journal.store.put;
    let failures = 2;
    let attempts = 0;
    journal.store.put = async (item) => {
      attempts++;
      if (failures-- > 0) throw new Error('throttled');
      await put(item);
    };
    const { s, events, provider } = session(undefined, baileysProvider({ journal: journal.store, journalRetryMs: 1 }));
    await s.connect();
    // two failures, then stored: journalled as usual
    await hook(0)(inbound('IN-RETRIED') as WAMessage);
    expect(attempts).toBe(3);
    expect([...journal.items.keys()]).toEqual(['C#1#WAUTH#2|INBOX#IN-RETRIED']);

    // every attempt fails: the hook resolves (Baileys keeps the message) and the bypass is counted
    const before = journalBypasses();
    failures = Number.POSITIVE_INFINITY;
    attempts = 0;
    const msg = inbound('IN-UNJOURNALLED') as WAMessage;
    await hook(0)(msg);
    expect(attempts).toBe(HOLD_ATTEMPTS);
    expect(journalBypasses()).toBe(before + 1);
    made[0]!.sock.ev.emit('messages.upsert', { type: 'notify', messages: [msg] });
    await provider.drain();
    expect(events.message).toHaveBeenCalledWith(expect.objectContaining({ wid: 'IN-UNJOURNALLED' }));
  });

  it("the installed Baileys is patched (patches/, applied at install): the hook runs before the message's delivery receipt", async () => {
    const { readFile } = await import('node:fs/promises');
    const { createRequire } = await import('node:module');
    const main = createRequire(import.meta.url).resolve('@whiskeysockets/baileys');
    const source = await readFile(new URL('./Socket/messages-recv.js', `file://${main}`), 'utf8');
    const handler = source.slice(
      source.indexOf('const handleMessage = async'),
      source.indexOf('const handleCall = async'),
    );
    const hookAt = handler.indexOf('await config.beforeDeliveryReceipt?.(msg);');
    const receiptAt = handler.indexOf('await sendReceipt(msg.key.remoteJid, participant, [msg.key.id], type);');
    expect(hookAt).toBeGreaterThan(0);
    expect(receiptAt).toBeGreaterThan(hookAt);
    expect(handler.slice(hookAt, receiptAt)).not.toContain('sendReceipt(');
  });

  it('the runner image is built with the patch: patches/ is in the build context and copied before npm ci, an install that cannot apply it fails, and so does a bundle without it', async () => {
    const { readFile } = await import('node:fs/promises');
    const root = new URL('../../../../', import.meta.url);
    const dockerfile = await readFile(new URL('session-runner/Dockerfile', root), 'utf8');
    const ignore = (await readFile(new URL('.dockerignore', root), 'utf8')).split('\n');
    expect(ignore).toContain('!patches');
    expect(dockerfile.indexOf('COPY patches ./patches')).toBeGreaterThan(0);
    expect(dockerfile.indexOf('COPY patches ./patches')).toBeLessThan(dockerfile.indexOf('RUN npm ci'));
    const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));
    expect(pkg.scripts.postinstall).toBe('patch-package --error-on-fail');
    expect(pkg.scripts['build:runner']).toMatch(/&& node session-runner\/check-bundle\.mjs /);
    expect(dockerfile).toMatch(/RUN npm run build:runner/);
  });
});
