import makeWASocket, {
  Browsers,
  downloadMediaMessage,
  makeCacheableSignalKeyStore,
  type AnyMessageContent,
  type proto,
  type WAMessage,
  type WASocket,
} from '@whiskeysockets/baileys';
import type { ILogger } from '@whiskeysockets/baileys/lib/Utils/logger';
import { log } from '#lib/log';
import type { Provider, ProviderSession, SendCommand, SessionContext } from '../../provider';
import { loadDynamoAuthState } from './auth-state';
import { numberFromJid, translateConnection, translateUpdates, translateUpsert, type Translated } from './translate';

/** Baileys' logger interface, routed to our structured log at warn and above. */
const quietLogger: ILogger & { fatal: ILogger['error'] } = {
  level: 'warn',
  child: () => quietLogger,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (obj: unknown, msg?: string) =>
    log.warn(msg ?? 'baileys', { detail: typeof obj === 'string' ? obj : undefined }),
  error: (obj: unknown, msg?: string) =>
    log.error(msg ?? 'baileys', { detail: typeof obj === 'string' ? obj : undefined }),
  fatal: (obj: unknown, msg?: string) =>
    log.error(msg ?? 'baileys', { detail: typeof obj === 'string' ? obj : undefined }),
};

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
      return { audio: media, mimetype, ptt: ptt ?? true };
    case 'sticker':
      return { sticker: media, mimetype };
    default:
      return { document: media, mimetype, fileName, caption };
  }
}

class BaileysSession implements ProviderSession {
  private sock?: WASocket;
  /** ids this socket sent: their upsert echo is not an inbound message */
  private sentIds = new Set<string>();
  /** profile picture URLs by jid, looked up once a day per contact */
  private pictures = new Map<string, { url?: string; at: number }>();

  constructor(private ctx: SessionContext) {}

  async connect() {
    const { state, saveCreds } = await loadDynamoAuthState(this.ctx.auth);
    const sock = makeWASocket({
      auth: { creds: state.creds, keys: makeCacheableSignalKeyStore(state.keys, quietLogger) },
      logger: quietLogger,
      browser: Browsers.ubuntu('Chrome'),
      markOnlineOnConnect: false,
      syncFullHistory: false,
      // retries of messages we sent are answered from our store, not memory
      getMessage: async (key) =>
        key.id ? ((await this.ctx.getMessage(key.id)) as proto.IMessage | undefined) : undefined,
    });
    this.sock = sock;
    const events = this.ctx.events;

    sock.ev.on(
      'creds.update',
      () => void saveCreds().catch((err) => log.error('saving creds failed', { error: String(err) })),
    );
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
      // 'append' carries history and our own echoes; new messages (also those sent from the phone) come as 'notify'
      if (type !== 'notify' && type !== 'append') return;
      for (const raw of messages) void this.deliver(translateUpsert(raw), type === 'append');
    });
    sock.ev.on('messages.update', (updates) => {
      for (const t of translateUpdates(updates)) void this.deliver(t, false);
    });
    sock.ev.on('lid-mapping.update', (m) => void events.lidMapping({ lid: m.lid, pn: m.pn }));
    sock.ev.on('call', (calls) => {
      for (const c of calls)
        if (c.status === 'offer')
          void events.call({ callId: c.id, from: c.from, timestamp: Math.floor(new Date(c.date).getTime() / 1000) });
    });
  }

  private async deliver(t: Translated | undefined, append: boolean) {
    if (!t) return;
    try {
      const events = this.ctx.events;
      if (t.kind === 'message') {
        if (t.message.fromMe && this.sentIds.has(t.message.wid)) return;
        // history appends older than a day are not new conversations
        if (append && t.message.timestamp < Date.now() / 1000 - 24 * 3600) return;
        const raw: WAMessage = t.raw;
        const sock = this.sock;
        const profilePicUrl =
          t.message.fromMe || t.message.isGroup
            ? undefined
            : await this.picture(t.message.chatAltJid ?? t.message.chatJid);
        await events.message({
          ...t.message,
          profilePicUrl,
          media: t.media && {
            ...t.media,
            download: () =>
              downloadMediaMessage(
                raw,
                'stream',
                {},
                {
                  logger: quietLogger,
                  reuploadRequest: (m) =>
                    sock ? sock.updateMediaMessage(m) : Promise.reject(new Error('socket closed')),
                },
              ),
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
    const url = await Promise.race([
      this.sock?.profilePictureUrl(jid, 'image').catch(() => undefined),
      new Promise<undefined>((r) => setTimeout(() => r(undefined), 3000)),
    ]);
    this.pictures.set(jid, { url: url ?? undefined, at: Date.now() });
    return url ?? undefined;
  }

  private socket() {
    if (!this.sock) throw new Error('session not connected');
    return this.sock;
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
    const quoted = command.quotedWid
      ? ({ key: { id: command.quotedWid, remoteJid: command.to, fromMe: false }, message: {} } as WAMessage)
      : undefined;
    const sent = await this.socket().sendMessage(command.to, content(command, media), { quoted });
    const wid = sent?.key.id;
    if (!wid) throw new Error('no message id from WhatsApp');
    this.sentIds.add(wid);
    if (sent.message) await this.ctx.rememberSent(wid, sent.message);
    return { wid };
  }

  async deleteMessage(ev: { wid: string; to: string; fromMe: boolean }) {
    await this.socket().sendMessage(ev.to, { delete: { id: ev.wid, remoteJid: ev.to, fromMe: ev.fromMe } });
  }

  async checkNumber(number: string) {
    const [found] = (await this.socket().onWhatsApp(number)) ?? [];
    return found?.exists ? { exists: true, jid: found.jid } : { exists: false };
  }

  async rejectCall(callId: string, from: string) {
    await this.socket().rejectCall(callId, from);
  }
}

export function baileysProvider(): Provider {
  return { name: 'baileys', create: (ctx) => new BaileysSession(ctx) };
}
