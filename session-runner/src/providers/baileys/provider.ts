import makeWASocket, {
  Browsers,
  cleanMessage,
  downloadMediaMessage,
  fetchLatestWaWebVersion,
  isPnUser,
  makeCacheableSignalKeyStore,
  normalizeMessageContent,
  S_WHATSAPP_NET,
  proto,
  type AnyMessageContent,
  type GroupMetadata,
  type WAMessage,
  type WASocket,
  type WAVersion,
} from '@whiskeysockets/baileys';
import type { ILogger } from '@whiskeysockets/baileys/lib/Utils/logger';
import { AddressBook } from '../../address-book';
import { log } from '#lib/log';
import { withTimeout } from '../../health';
import { Lru } from '../../lru';
import type { MediaFile, Provider, ProviderSession, SendCommand, SessionContext } from '../../provider';
import { perGroupSequencer } from '../../sequencer';
import { loadDynamoAuthState } from './auth-state';
import { ReceiptJournal, type JournalStore } from './receipt-journal';
import {
  groupReceiptAck,
  numberFromJid,
  statusToAck,
  translateCall,
  translateCapping,
  translateConnection,
  translateReachoutLock,
  translateReceipts,
  translateUpdates,
  translateUpsert,
  answersByNumber,
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

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/**
 * The bounds of the caches a session keeps (Baileys' default NodeCache starts an interval nobody
 * stops; these have no timers). Per socket unless said otherwise.
 */
export const CACHE_LIMITS = {
  /** signal keys over the AuthStore's own cache, as Baileys' default keeps them (5 min) */
  signalKeys: { max: 500, ttlMs: 5 * MINUTE },
  /** message-retry counters, one cache for the runner (Baileys keeps them 1 h) */
  retries: { max: 10_000, ttlMs: 60 * MINUTE },
  /** ids this socket sent: their echo comes within seconds */
  sentIds: { max: 1_000, ttlMs: 60 * MINUTE },
  /** profile picture URLs by jid, looked up once a day per contact */
  pictures: { max: 500, ttlMs: DAY },
  /** the highest ack reported per group message: a receipt per member must not each become an event */
  groupAcks: { max: 2_000, ttlMs: DAY },
  /** group metadata for sends (a metadata query per group send otherwise); dropped on every group change */
  groups: { max: 100, ttlMs: 5 * MINUTE },
  /** Baileys' own: each contact's devices, as its default keeps them (5 min) */
  userDevices: { max: 1_000, ttlMs: 5 * MINUTE },
  /** Baileys' own: call offers until answered or rejected (5 min) */
  callOffers: { max: 100, ttlMs: 5 * MINUTE },
  /** Baileys' own: messages asked again from the phone (placeholders), 1 h */
  placeholderResends: { max: 1_000, ttlMs: 60 * MINUTE },
};

/** How long each socket waits for WhatsApp Web's current version before using the one bundled with Baileys. */
const VERSION_TIMEOUT_MS = 5_000;
export type VersionFetcher = (signal: AbortSignal) => Promise<WAVersion | undefined>;
/**
 * Baileys answers its bundled version with `isLatest: false` on any failure (network, an anti-bot
 * page, a changed page): that is a failure too, not the current version (R7 of whatsapp-review-3).
 */
const fetchWaWebVersion: VersionFetcher = async (signal) => {
  const fetched = await fetchLatestWaWebVersion({ signal });
  if (!fetched.isLatest) throw new Error(`not the current version: ${String(fetched.error ?? 'unknown')}`);
  return fetched.version;
};

/** How long a fetched version serves every socket of the process before it is fetched again. */
export const VERSION_KEEP_MS = 60 * 60_000;

/**
 * WhatsApp Web's version, fetched once per process and kept for VERSION_KEEP_MS (a deploy no longer
 * makes one fetch per session); forgotten when WhatsApp refuses it (405), so the next connect
 * fetches again.
 */
export class VersionCache {
  private kept?: { version: WAVersion; at: number };
  /** fetches that failed (network, timeout, not the current version) since the process started */
  failures = 0;

  constructor(
    private fetcher: VersionFetcher,
    private now: () => number = Date.now,
  ) {}

  async get(): Promise<WAVersion | undefined> {
    if (this.kept && this.now() - this.kept.at < VERSION_KEEP_MS) return this.kept.version;
    const version = await currentVersion(this.fetcher);
    if (!version) {
      this.failures++;
      return undefined;
    }
    this.kept = { version, at: this.now() };
    return version;
  }

  forget() {
    this.kept = undefined;
  }
}

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

function content(command: SendCommand, file?: MediaFile): AnyMessageContent {
  if (!command.media || !file) return { text: command.body };
  const { kind, mimetype, fileName, ptt } = command.media;
  // a path, not a stream: Baileys opens the file itself and streams it through its encryption
  const media = { url: file.path };
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

/** How long the sender's phone gets to upload an expired media again. */
export const REUPLOAD_TIMEOUT_MS = 45_000;

/**
 * A media download's deadline (R12 of whatsapp-review-3): without one a stalled CDN transfer holds
 * its chat and a delivery slot for minutes (Node's fetch waits up to 300 s between chunks). A base
 * for the connection, plus the time the file takes at a slow but working rate; a media without a
 * size gets the time of a large one.
 */
export const DOWNLOAD_BASE_MS = 30_000;
export const DOWNLOAD_MIN_BYTES_PER_SECOND = 100_000;
const UNKNOWN_MEDIA_BYTES = 16 * 1024 * 1024;

export function downloadDeadlineMs(raw: WAMessage): number {
  const content = normalizeMessageContent(raw.message);
  const media =
    content?.imageMessage ??
    content?.videoMessage ??
    content?.audioMessage ??
    content?.documentMessage ??
    content?.stickerMessage;
  const size = Number(media?.fileLength ?? 0) || UNKNOWN_MEDIA_BYTES;
  return DOWNLOAD_BASE_MS + Math.ceil((size / DOWNLOAD_MIN_BYTES_PER_SECOND) * 1000);
}

/** Download options with the deadline: the signal ends the transfer, the stream included. */
const withDeadline = (raw: WAMessage) => ({ options: { signal: AbortSignal.timeout(downloadDeadlineMs(raw)) } });

/**
 * A media download; an expired CDN copy (404/410) is re-uploaded by the sender's phone and fetched
 * again. Baileys waits for the phone without a limit, and the chat's delivery waits with it: a
 * phone that does not answer in `timeoutMs` leaves the media expired (the message arrives with a
 * media error).
 */
export async function downloadWithReupload(
  raw: WAMessage,
  reupload: (m: WAMessage) => Promise<WAMessage>,
  timeoutMs = REUPLOAD_TIMEOUT_MS,
) {
  try {
    return await downloadMediaMessage(raw, 'stream', withDeadline(raw));
  } catch (err) {
    // Baileys' own retry looks for `error.status`, which its Boom errors do not carry
    const status = (err as { output?: { statusCode?: number } }).output?.statusCode;
    if (status !== 404 && status !== 410) throw err;
    const fresh = await withTimeout(reupload(raw), timeoutMs);
    return downloadMediaMessage(fresh, 'stream', withDeadline(fresh));
  }
}

/** A sent message as the sent store keeps it (JSON): bytes as base64, 64-bit numbers as strings. */
const storableMessage = (message: proto.IMessage) =>
  proto.Message.toObject(proto.Message.fromObject(message), { bytes: String, longs: String });

/** A stored sent message back as the proto a retry request re-encrypts, its bytes, enums and longs typed. */
const restoreMessage = (stored: unknown): proto.IMessage | undefined =>
  stored && typeof stored === 'object' ? proto.Message.fromObject(stored) : undefined;

/** What the sessions of one provider share. */
interface Shared {
  retries: Lru;
  versions: VersionCache;
  /** sessions with a socket open or with work left after it closed (see drain()) */
  sessions: Set<BaileysSession>;
  journal?: JournalStore;
  /** first wait between journal write attempts (tests shrink it) */
  journalRetryMs?: number;
}

/** How long closing a socket waits for its address book to be written (a newQr clears the keys right after). */
const CLOSE_FLUSH_MS = 5_000;

class BaileysSession implements ProviderSession {
  private sock?: WASocket;
  /** ids this socket sent: their upsert echo is not an inbound message */
  private sentIds = new Lru<true>(CACHE_LIMITS.sentIds);
  private pictures = new Lru<string | null>(CACHE_LIMITS.pictures);
  private groupAcks = new Lru<number>(CACHE_LIMITS.groupAcks);
  private groups = new Lru<GroupMetadata>(CACHE_LIMITS.groups);
  private inOrder = perGroupSequencer(DELIVERY_CONCURRENCY);
  /** events handed on and not yet delivered */
  private deliveries = new Set<Promise<void>>();
  private book: AddressBook;
  private journal: ReceiptJournal;

  constructor(
    private ctx: SessionContext,
    private shared: Shared,
  ) {
    this.book = new AddressBook(ctx.auth);
    this.journal = new ReceiptJournal(ctx.auth.pk, shared.journal, shared.journalRetryMs);
  }

  async connect() {
    const { state, saveCreds } = await loadDynamoAuthState(this.ctx.auth);
    const version = await this.shared.versions.get();
    // WhatsApp may refuse the bundled version (405): the close policy reconnects to fetch again
    if (!version)
      log.warn("WhatsApp Web's version could not be fetched: using Baileys' bundled one", {
        companyId: this.ctx.companyId,
        whatsappId: this.ctx.whatsappId,
        failures: this.shared.versions.failures,
      });
    const sock = makeWASocket({
      ...(version ? { version } : {}),
      auth: {
        creds: state.creds,
        keys: makeCacheableSignalKeyStore(state.keys, quietLogger, new Lru(CACHE_LIMITS.signalKeys)),
      },
      logger: quietLogger,
      browser: Browsers.ubuntu('Chrome'),
      markOnlineOnConnect: false,
      syncFullHistory: false,
      // one retry counter across reconnects, so a message cannot loop through decrypt retries
      msgRetryCounterCache: this.shared.retries,
      // Baileys bounds its own caches by age only (and each starts a timer): these are bounded in count too
      userDevicesCache: new Lru(CACHE_LIMITS.userDevices),
      callOfferCache: new Lru(CACHE_LIMITS.callOffers),
      placeholderResendCache: new Lru(CACHE_LIMITS.placeholderResends),
      // retries of messages we sent are answered from our store, not memory
      getMessage: async (key) => (key.id ? restoreMessage(await this.ctx.getMessage(key.id)) : undefined),
      cachedGroupMetadata: (jid) => this.groupMetadata(jid),
      beforeDeliveryReceipt: (msg) => this.journal.hold(msg),
    });
    this.sock = sock;
    this.shared.sessions.add(this);
    const events = this.ctx.events;
    const logFailure = (what: string) => (err: unknown) =>
      log.error(what, { companyId: this.ctx.companyId, whatsappId: this.ctx.whatsappId, error: String(err) });

    sock.ev.on('creds.update', () => void saveCreds().catch(logFailure('saving creds failed')));
    sock.ev.on('connection.update', (update) => {
      const t = translateConnection(update);
      if (t.qrcode) events.status({ status: 'qrcode', qrcode: t.qrcode });
      if (update.isNewLogin) events.status({ status: 'PAIRING' });
      if (t.open) events.status({ status: 'CONNECTED', number: numberFromJid(sock.user?.id) });
      // WhatsApp's warning before a ban: no new chats until the lock ends
      const reachoutLock = translateReachoutLock(update.reachoutTimeLock);
      if (reachoutLock)
        void events.restriction?.({ reachoutLock }).catch(logFailure('reporting a reach-out lock failed'));
      if (t.closed && this.sock === sock) {
        this.sock = undefined;
        // the version this socket used was refused: every next connect fetches the current one
        if (t.closedCode === 405) this.shared.versions.forget();
        events.closed(t.closedCode);
        this.retire();
      }
    });
    sock.ev.on('message-capping.update', (info) => {
      const newChatQuota = translateCapping(info);
      if (newChatQuota)
        void events.restriction?.({ newChatQuota }).catch(logFailure('reporting the new-chat quota failed'));
    });
    sock.ev.on('messages.upsert', ({ messages, type }) => {
      // 'notify' is new messages (also those sent from the phone); 'append' the offline backlog,
      // our own echoes and notification stubs (history comes only in messaging-history.set)
      if (type !== 'notify' && type !== 'append') return;
      for (const raw of messages) this.deliverHeld(raw, type === 'append');
    });
    sock.ev.on('messages.update', (updates) => {
      for (const t of translateUpdates(updates)) void this.deliver(t, false);
    });
    sock.ev.on('message-receipt.update', (receipts) => {
      for (const t of translateReceipts(receipts, [sock.user?.id, sock.user?.lid])) {
        if (t.kind !== 'ack' || t.ack <= (this.groupAcks.get(t.wid) ?? -1)) continue;
        this.groupAcks.set(t.wid, t.ack);
        void this.deliver(t, false);
      }
    });
    // a group's members or settings changed: its next send asks WhatsApp again
    sock.ev.on('groups.update', (updates) => {
      for (const u of updates) if (u.id) this.groups.del(u.id);
    });
    sock.ev.on('group-participants.update', ({ id }) => this.groups.del(id));
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
    // what a runner that stopped before handing on had journalled (see ReceiptJournal)
    const me = state.creds.me;
    for (const raw of await this.journal.pending()) {
      cleanMessage(raw, me?.id ?? '', me?.lid ?? '');
      this.deliverHeld(raw, true);
    }
  }

  /** Hands a message on; its journal entry goes once it is on the queue. */
  private deliverHeld(raw: WAMessage, append: boolean) {
    const delivery = this.deliver(translateUpsert(raw), append);
    if (!delivery) this.journal.release(raw.key.id);
    else void delivery.then(() => this.journal.release(raw.key.id));
  }

  /** Hands an event on, in order within its chat. */
  private deliver(t: Translated | undefined, append: boolean) {
    if (!t) return undefined;
    const chat = t.kind === 'message' ? t.message.chatJid : t.chatJid;
    const delivery = this.inOrder(chat, () => this.handOver(t, append));
    this.deliveries.add(delivery);
    void delivery.finally(() => this.deliveries.delete(delivery));
    return delivery;
  }

  /**
   * Resolves once every event handed on so far is delivered (an emit the queue refuses for a while
   * is retried, see emit.ts) and the address book and creds are stored: a shutdown waits for it.
   */
  async settle() {
    while (this.deliveries.size) await Promise.allSettled([...this.deliveries]);
    await this.journal.flush();
    await this.book.flush();
    await this.ctx.auth.flush();
  }

  /** The socket is gone: the session leaves the provider once its work is done. */
  private retire() {
    void this.settle()
      .catch(() => undefined)
      .finally(() => {
        if (!this.sock) this.shared.sessions.delete(this);
      });
  }

  private async handOver(t: Translated, append: boolean) {
    try {
      const events = this.ctx.events;
      if (t.kind === 'message') {
        if (t.message.fromMe && this.sentIds.has(t.message.wid)) {
          // receipts that came while the echo was buffered are folded into it, not reported apart
          const status = t.raw.status ?? 0;
          const ack = Math.max(
            status >= 3 ? statusToAck(status) : 0,
            groupReceiptAck(t.raw.userReceipt, [this.sock?.user?.id, this.sock?.user?.lid]) ?? 0,
          );
          if (ack > (this.groupAcks.get(t.message.wid) ?? 0)) {
            if (t.message.isGroup) this.groupAcks.set(t.message.wid, ack);
            await events.ack({ wid: t.message.wid, chatJid: t.message.chatJid, ack });
          }
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
      else if (t.kind === 'reaction') {
        const { kind: _, ...reaction } = t;
        await events.reaction?.(reaction);
      } else if (t.kind === 'undecryptable') {
        const { kind: _, ...lost } = t;
        await events.undecryptable?.(lost);
      } else await events.revoke(t);
    } catch (err) {
      // only an event the queue refuses as such gets here (emit retries the rest)
      log.error('delivering a provider event failed', {
        companyId: this.ctx.companyId,
        whatsappId: this.ctx.whatsappId,
        kind: t.kind,
        wid: t.kind === 'message' ? t.message.wid : t.wid,
        error: (err as Error).message,
      });
    }
  }

  private async picture(jid: string): Promise<string | undefined> {
    if (this.pictures.has(jid)) return this.pictures.get(jid) ?? undefined;
    const url = await this.sock?.profilePictureUrl(jid, 'image', 3000).catch(() => undefined);
    this.pictures.set(jid, url ?? null);
    return url ?? undefined;
  }

  /** Baileys' `cachedGroupMetadata`: a group's metadata, asked of WhatsApp once per cache lifetime. */
  private async groupMetadata(jid: string): Promise<GroupMetadata | undefined> {
    const cached = this.groups.get(jid);
    if (cached) return cached;
    const metadata = await this.sock?.groupMetadata(jid).catch(() => undefined);
    if (metadata) this.groups.set(jid, metadata);
    return metadata;
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
    await withTimeout(this.book.flush(), CLOSE_FLUSH_MS).catch(() => undefined);
    this.retire();
  }

  async logout() {
    const sock = this.sock;
    this.sock = undefined;
    // the caller clears the keys: the address book goes with them
    this.book.discard();
    await sock?.logout().catch(() => undefined);
    this.retire();
  }

  async send(command: SendCommand, media?: MediaFile) {
    const sock = this.socket();
    const chatJid = await this.addressOf(sock, command.to);
    // known before the send: its echo may arrive before sendMessage returns
    this.sentIds.set(command.wid, true);
    const sent = await sock.sendMessage(chatJid, content(command, media), {
      messageId: command.wid,
      quoted: quotedOf(command, chatJid),
    });
    return { chatJid, content: sent?.message ? storableMessage(sent.message) : undefined };
  }

  async react(ev: { wid: string; to: string; fromMe: boolean; participant?: string; emoji: string }) {
    const sock = this.socket();
    const chatJid = await this.addressOf(sock, ev.to);
    await sock.sendMessage(chatJid, {
      react: {
        text: ev.emoji,
        key: {
          remoteJid: chatJid,
          fromMe: ev.fromMe,
          id: ev.wid,
          ...(ev.participant ? { participant: ev.participant } : {}),
        },
      },
    });
  }

  async deleteMessage(ev: { wid: string; to: string; fromMe: boolean }) {
    const sock = this.socket();
    const chatJid = await this.addressOf(sock, ev.to);
    await sock.sendMessage(chatJid, { delete: { id: ev.wid, remoteJid: chatJid, fromMe: ev.fromMe } });
  }

  addressBook() {
    return this.book.list();
  }

  async checkNumbers(numbers: string[]) {
    const found = (await this.socket().onWhatsApp(...numbers)) ?? [];
    return answersByNumber(numbers, found);
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

/**
 * `fetchVersion` is injectable: tests have no network. `drain()` resolves once every session's
 * events are delivered and its address book and creds stored (the runner's shutdown, after the
 * sockets are closed).
 */
export function baileysProvider(
  opts: { fetchVersion?: VersionFetcher; journal?: JournalStore; journalRetryMs?: number } = {},
): Provider & {
  drain(): Promise<void>;
} {
  const shared: Shared = {
    retries: new Lru(CACHE_LIMITS.retries),
    versions: new VersionCache(opts.fetchVersion ?? fetchWaWebVersion),
    sessions: new Set(),
    journal: opts.journal,
    journalRetryMs: opts.journalRetryMs,
  };
  return {
    name: 'baileys',
    create: (ctx) => new BaileysSession(ctx, shared),
    drain: async () => {
      await Promise.all([...shared.sessions].map((s) => s.settle()));
    },
  };
}
