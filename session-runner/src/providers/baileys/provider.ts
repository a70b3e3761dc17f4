import makeWASocket, {
  Browsers,
  downloadMediaMessage,
  fetchLatestWaWebVersion,
  isPnUser,
  makeCacheableSignalKeyStore,
  S_WHATSAPP_NET,
  type AnyMessageContent,
  type CacheStore,
  type proto,
  type WAMessage,
  type WASocket,
  type WAVersion,
} from '@whiskeysockets/baileys';
import type { ILogger } from '@whiskeysockets/baileys/lib/Utils/logger';
import { AddressBook } from '../../address-book';
import { log } from '#lib/log';
import type { Provider, ProviderSession, SendCommand, SessionContext } from '../../provider';
import { perGroupSequencer } from '../../sequencer';
import { loadDynamoAuthState } from './auth-state';
import {
  numberFromJid,
  statusToAck,
  translateCall,
  translateConnection,
  translateUpdates,
  translateUpsert,
  type Translated,
} from './translate';

/** The fields of a Baileys log object worth keeping: the error (message and stack) and the ids, never contents. */
export function logFields(obj: unknown): Record<string, unknown> {
  if (typeof obj === 'string') return { detail: obj };
  if (!obj || typeof obj !== 'object') return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v instanceof Error) {
      out[k] = v.message;
      out[`${k}Stack`] = v.stack;
    } else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
    else if (k === 'key' && v) out.key = { id: v.id, remoteJid: v.remoteJid, fromMe: v.fromMe };
    else if (k === 'node' && v) out.node = { tag: v.tag, attrs: v.attrs };
  }
  return out;
}

/** Baileys' logger interface, routed to our structured log at warn and above. */
const quietLogger: ILogger & { fatal: ILogger['error'] } = {
  level: 'warn',
  child: () => quietLogger,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (obj: unknown, msg?: string) => log.warn(msg ?? 'baileys', logFields(obj)),
  error: (obj: unknown, msg?: string) => log.error(msg ?? 'baileys', logFields(obj)),
  fatal: (obj: unknown, msg?: string) => log.error(msg ?? 'baileys', logFields(obj)),
};

/** An in-memory CacheStore without timers (Baileys' default NodeCache starts an interval nobody stops), bounded. */
export class MemoryCache implements CacheStore {
  private entries = new Map<string, unknown>();
  constructor(private max = 10_000) {}
  get<T>(key: string) {
    return this.entries.get(key) as T | undefined;
  }
  set<T>(key: string, value: T) {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as string);
  }
  del(key: string) {
    this.entries.delete(key);
  }
  flushAll() {
    this.entries.clear();
  }
}

/** How long each socket waits for WhatsApp Web's current version before using the one bundled with Baileys. */
const VERSION_TIMEOUT_MS = 5_000;
export type VersionFetcher = (signal: AbortSignal) => Promise<WAVersion | undefined>;
const fetchWaWebVersion: VersionFetcher = async (signal) => (await fetchLatestWaWebVersion({ signal })).version;

/** WhatsApp Web's current version, or undefined (Baileys' bundled one) when it cannot be had in time. */
export async function currentVersion(fetcher: VersionFetcher, timeoutMs = VERSION_TIMEOUT_MS) {
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((done) => {
    timer = setTimeout(() => {
      abort.abort();
      done(undefined);
    }, timeoutMs);
  });
  try {
    return await Promise.race([fetcher(abort.signal).catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Offline backlog older than this is not delivered (WhatsApp keeps a device's backlog for about two weeks). */
const BACKLOG_MAX_AGE_SECONDS = 14 * 24 * 3600;
/** Provider events handled at once (downloads, picture look-ups), each chat's still one after another. */
const DELIVERY_CONCURRENCY = 8;

function content(command: SendCommand, media?: Buffer): AnyMessageContent {
  if (!command.media || !media) return { text: command.body };
  const { kind, mimetype, fileName, ptt } = command.media;
  const caption = command.body && command.body !== fileName ? command.body : undefined;
  switch (kind) {
    case 'image':
      return { image: media, mimetype, caption };
    case 'video':
      return { video: media, mimetype, caption };
    case 'audio':
      // a voice note only when recorded as one and in the container WhatsApp plays as one; other
      // recordings (webm from Chrome) go as an audio file, since there is no transcoder in the image
      return { audio: media, mimetype, ptt: ptt === true && mimetype.startsWith('audio/ogg') };
    case 'sticker':
      return { sticker: media, mimetype };
    default:
      return { document: media, mimetype, fileName, caption };
  }
}

/** The quoted message as WhatsApp shows it: whose it was (ours, or in groups its author) and its text. */
export function quotedOf(command: SendCommand, chatJid: string): WAMessage | undefined {
  if (!command.quotedWid) return undefined;
  return {
    key: {
      id: command.quotedWid,
      remoteJid: chatJid,
      fromMe: command.quotedFromMe ?? false,
      participant: command.quotedParticipant,
    },
    message: { conversation: command.quotedBody ?? '' },
  };
}

/** A media download; an expired CDN copy (404/410) is re-uploaded by the sender's phone and fetched again. */
export async function downloadWithReupload(raw: WAMessage, reupload: (m: WAMessage) => Promise<WAMessage>) {
  try {
    return await downloadMediaMessage(raw, 'stream', {});
  } catch (err) {
    // Baileys' own retry looks for `error.status`, which its Boom errors do not carry
    const status = (err as { output?: { statusCode?: number } }).output?.statusCode;
    if (status !== 404 && status !== 410) throw err;
    return downloadMediaMessage(await reupload(raw), 'stream', {});
  }
}

class BaileysSession implements ProviderSession {
  private sock?: WASocket;
  /** ids this socket sent: their upsert echo is not an inbound message */
  private sentIds = new Set<string>();
  /** profile picture URLs by jid, looked up once a day per contact */
  private pictures = new Map<string, { url?: string; at: number }>();
  private inOrder = perGroupSequencer(DELIVERY_CONCURRENCY);
  private book: AddressBook;

  constructor(
    private ctx: SessionContext,
    private shared: { retries: CacheStore; fetchVersion: VersionFetcher },
  ) {
    this.book = new AddressBook(ctx.auth);
  }

  async connect() {
    const { state, saveCreds } = await loadDynamoAuthState(this.ctx.auth);
    const version = await currentVersion(this.shared.fetchVersion);
    const sock = makeWASocket({
      ...(version ? { version } : {}),
      auth: { creds: state.creds, keys: makeCacheableSignalKeyStore(state.keys, quietLogger, new MemoryCache()) },
      logger: quietLogger,
      browser: Browsers.ubuntu('Chrome'),
      markOnlineOnConnect: false,
      syncFullHistory: false,
      // one retry counter across reconnects, so a message cannot loop through decrypt retries
      msgRetryCounterCache: this.shared.retries,
      // retries of messages we sent are answered from our store, not memory
      getMessage: async (key) =>
        key.id ? ((await this.ctx.getMessage(key.id)) as proto.IMessage | undefined) : undefined,
    });
    this.sock = sock;
    const events = this.ctx.events;
    const logFailure = (what: string) => (err: unknown) =>
      log.error(what, { companyId: this.ctx.companyId, whatsappId: this.ctx.whatsappId, error: String(err) });

    sock.ev.on('creds.update', () => void saveCreds().catch(logFailure('saving creds failed')));
    sock.ev.on('connection.update', (update) => {
      const t = translateConnection(update);
      if (t.qrcode) events.status({ status: 'qrcode', qrcode: t.qrcode });
      if (update.isNewLogin) events.status({ status: 'PAIRING' });
      if (t.open) events.status({ status: 'CONNECTED', number: numberFromJid(sock.user?.id) });
      if (t.closed && this.sock === sock) {
        this.sock = undefined;
        events.closed(t.closedCode);
      }
    });
    sock.ev.on('messages.upsert', ({ messages, type }) => {
      // 'notify' is new messages (also those sent from the phone); 'append' the offline backlog,
      // our own echoes and notification stubs (history comes only in messaging-history.set)
      if (type !== 'notify' && type !== 'append') return;
      for (const raw of messages) this.deliver(translateUpsert(raw), type === 'append');
    });
    sock.ev.on('messages.update', (updates) => {
      for (const t of translateUpdates(updates)) this.deliver(t, false);
    });
    // the phone's address book: the first history sync, then changes (POST /contacts/import reads it)
    sock.ev.on('messaging-history.set', ({ contacts }) => void this.book.merge(contacts));
    sock.ev.on('contacts.upsert', (contacts) => void this.book.merge(contacts));
    sock.ev.on('contacts.update', (contacts) => void this.book.merge(contacts));
    sock.ev.on(
      'lid-mapping.update',
      (m) => void events.lidMapping({ lid: m.lid, pn: m.pn }).catch(logFailure('reporting a LID mapping failed')),
    );
    sock.ev.on('call', (calls) => {
      for (const c of calls) {
        const call = translateCall(c);
        if (call) void events.call(call).catch(logFailure('reporting a call failed'));
      }
    });
  }

  /** Hands an event on, in order within its chat. */
  private deliver(t: Translated | undefined, append: boolean) {
    if (!t) return;
    const chat = t.kind === 'message' ? t.message.chatJid : t.chatJid;
    void this.inOrder(chat, () => this.handOver(t, append));
  }

  private async handOver(t: Translated, append: boolean) {
    try {
      const events = this.ctx.events;
      if (t.kind === 'message') {
        if (t.message.fromMe && this.sentIds.has(t.message.wid)) {
          // a receipt that came while the echo was buffered is folded into it, not reported apart
          const status = t.raw.status ?? 0;
          if (status >= 3)
            await events.ack({ wid: t.message.wid, chatJid: t.message.chatJid, ack: statusToAck(status) });
          return;
        }
        if (append && t.message.timestamp < Date.now() / 1000 - BACKLOG_MAX_AGE_SECONDS) return;
        const raw: WAMessage = t.raw;
        const profilePicUrl =
          t.message.fromMe || t.message.isGroup
            ? undefined
            : await this.picture(t.message.chatAltJid ?? t.message.chatJid);
        await events.message({
          ...t.message,
          profilePicUrl,
          media: t.media && {
            ...t.media,
            download: () => downloadWithReupload(raw, (m) => this.socket().updateMediaMessage(m)),
          },
        });
      } else if (t.kind === 'ack') await events.ack(t);
      else if (t.kind === 'edit') await events.edit(t);
      else await events.revoke(t);
    } catch (err) {
      log.error('delivering a provider event failed', { error: (err as Error).message });
    }
  }

  private async picture(jid: string): Promise<string | undefined> {
    const known = this.pictures.get(jid);
    if (known && Date.now() - known.at < 24 * 3600 * 1000) return known.url;
    const url = await this.sock?.profilePictureUrl(jid, 'image', 3000).catch(() => undefined);
    this.pictures.set(jid, { url: url ?? undefined, at: Date.now() });
    return url ?? undefined;
  }

  private socket() {
    if (!this.sock) throw new Error('session not connected');
    return this.sock;
  }

  /** A contact WhatsApp moved to a LID is reached there (its number gets a 463 refusal). */
  private async addressOf(sock: WASocket, to: string) {
    if (!isPnUser(to)) return to;
    return (await sock.signalRepository.lidMapping.getLIDForPN(to).catch(() => null)) ?? to;
  }

  async close() {
    const sock = this.sock;
    this.sock = undefined;
    sock?.end(undefined);
  }

  async logout() {
    const sock = this.sock;
    this.sock = undefined;
    await sock?.logout().catch(() => undefined);
  }

  async send(command: SendCommand, media?: Buffer) {
    const sock = this.socket();
    const chatJid = await this.addressOf(sock, command.to);
    // known before the send: its echo may arrive before sendMessage returns
    this.sentIds.add(command.wid);
    const sent = await sock.sendMessage(chatJid, content(command, media), {
      messageId: command.wid,
      quoted: quotedOf(command, chatJid),
    });
    return { chatJid, content: sent?.message ?? undefined };
  }

  async deleteMessage(ev: { wid: string; to: string; fromMe: boolean }) {
    const sock = this.socket();
    const chatJid = await this.addressOf(sock, ev.to);
    await sock.sendMessage(chatJid, { delete: { id: ev.wid, remoteJid: chatJid, fromMe: ev.fromMe } });
  }

  addressBook() {
    return this.book.list();
  }

  async checkNumber(number: string) {
    const [found] = (await this.socket().onWhatsApp(number)) ?? [];
    return found?.exists ? { exists: true, jid: found.jid } : { exists: false };
  }

  async rejectCall(callId: string, from: string) {
    await this.socket().rejectCall(callId, from);
  }

  /**
   * The LID mapping is looked up (store, then the server) and reported; the chat's Signal sessions
   * are fetched again (`force`), under both id forms, replacing keys the phone no longer accepts.
   */
  async repair(chatJid: string) {
    const sock = this.socket();
    const lid = isPnUser(chatJid) ? await sock.signalRepository.lidMapping.getLIDForPN(chatJid) : null;
    if (lid) await this.ctx.events.lidMapping({ lid, pn: chatJid });
    await sock.assertSessions(lid ? [chatJid, lid] : [chatJid], true);
  }

  /** The ping iq Baileys' own keep-alive sends; the server answers it with an empty result. */
  async probe() {
    await this.socket().query({
      tag: 'iq',
      attrs: { to: S_WHATSAPP_NET, type: 'get', xmlns: 'w:p' },
      content: [{ tag: 'ping', attrs: {} }],
    });
  }
}

/** `fetchVersion` is injectable: tests have no network. */
export function baileysProvider(opts: { fetchVersion?: VersionFetcher } = {}): Provider {
  const shared = { retries: new MemoryCache(), fetchVersion: opts.fetchVersion ?? fetchWaWebVersion };
  return { name: 'baileys', create: (ctx) => new BaileysSession(ctx, shared) };
}
