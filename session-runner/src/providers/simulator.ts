import { randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { Provider, ProviderSession, SendCommand, SessionContext } from '../provider';

/**
 * A fake phone per connection, for tests and demos (local runtime only). It shows QR codes until a
 * test "scans" one, then behaves like WhatsApp after a scan (a 515 restart, then CONNECTED with the
 * stored credentials). Tests inject inbound messages, read what was sent, move acks 1 -> 2 -> 3, and
 * make a socket go silent (the health monitor's zombie case).
 */
export interface OutboundRecord {
  wid: string;
  to: string;
  body: string;
  media?: { key: string; mimetype: string; fileName: string; kind: string; size: number };
  quotedWid?: string;
  ack: number;
  deleted?: boolean;
  at: string;
}

export interface InjectedMessage {
  from: string;
  body?: string;
  wid?: string;
  fromMe?: boolean;
  pushName?: string;
  /** the contact's `@lid` id, sent as the chat id with the number as the alternate id */
  lid?: string;
  group?: { jid: string; name?: string };
  media?: { data: string; mimetype: string; fileName?: string };
  /** simulate a media download failure */
  failMedia?: boolean;
  quotedWid?: string;
  mediaType?: 'locationMessage' | 'vcard';
  timestamp?: number;
  profilePicUrl?: string;
}

const jidOf = (number: string) => (number.includes('@') ? number : `${number.replace(/\D/g, '')}@s.whatsapp.net`);

export class SimulatedPhone implements ProviderSession {
  status = 'DISCONNECTED';
  qrcode = '';
  number?: string;
  readonly outbound: OutboundRecord[];
  private qrTimer?: NodeJS.Timeout;
  private qrCount = 0;
  private open = false;
  private silent = false;

  constructor(
    readonly ctx: SessionContext,
    private registry: SimulatorRegistry,
    private qrIntervalMs: number,
  ) {
    // what was sent survives the socket restarts of one connection
    this.outbound = registry.outboundOf(ctx.companyId, ctx.whatsappId);
  }

  async connect() {
    this.open = true;
    this.registry.attach(this);
    const creds = await this.ctx.auth.readCreds<{ me: string }>();
    if (creds?.me) {
      this.number = creds.me;
      this.status = 'CONNECTED';
      this.ctx.events.status({ status: 'CONNECTED', number: creds.me });
      return;
    }
    this.showQr();
  }

  private showQr() {
    if (!this.open) return;
    this.qrCount++;
    this.status = 'qrcode';
    this.qrcode = `sim:${this.ctx.companyId}:${this.ctx.whatsappId}:${this.qrCount}:${randomBytes(8).toString('hex')}`;
    this.ctx.events.status({ status: 'qrcode', qrcode: this.qrcode });
    clearTimeout(this.qrTimer);
    this.qrTimer = setTimeout(() => this.showQr(), this.qrIntervalMs);
  }

  /** The test scanned the QR code: store credentials, then WhatsApp's usual restart (515). */
  async scan(number: string) {
    if (this.status !== 'qrcode') throw new Error(`no QR code to scan (status ${this.status})`);
    clearTimeout(this.qrTimer);
    await this.ctx.auth.writeCreds({ me: number.replace(/\D/g, '') });
    this.status = 'PAIRING';
    this.ctx.events.status({ status: 'PAIRING' });
    this.open = false;
    this.ctx.events.closed(515);
  }

  async close() {
    this.open = false;
    clearTimeout(this.qrTimer);
    this.status = 'DISCONNECTED';
  }

  async logout() {
    await this.close();
  }

  /** A socket drop with a WhatsApp status code (tests of the close policy). */
  drop(code: number) {
    this.open = false;
    clearTimeout(this.qrTimer);
    this.status = 'DISCONNECTED';
    this.ctx.events.closed(code);
  }

  async send(command: SendCommand, media?: Buffer) {
    if (this.status !== 'CONNECTED') throw new Error('not connected');
    if (this.registry.failSends.has(command.to)) throw new Error('simulated send failure');
    this.registry.received(this.ctx.companyId, this.ctx.whatsappId, {
      wid: command.wid,
      to: command.to,
      body: command.body,
      media: command.media && media ? { ...command.media, size: media.length } : undefined,
      quotedWid: command.quotedWid,
      ack: 1,
      at: new Date().toISOString(),
    });
    return { chatJid: command.to, content: { conversation: command.body } };
  }

  async deleteMessage(ev: { wid: string }) {
    const found = this.outbound.find((o) => o.wid === ev.wid);
    if (found) found.deleted = true;
  }

  async checkNumber(number: string) {
    const digits = number.replace(/\D/g, '');
    if (this.registry.absent.has(digits)) return { exists: false };
    return { exists: true, jid: jidOf(digits) };
  }

  /** The fake phone's address book, as a test set it (`POST /@simulator/sessions/{c}/{w}/address-book`). */
  async addressBook() {
    return this.registry.addressBookOf(this.ctx.companyId, this.ctx.whatsappId);
  }

  async rejectCall(callId: string) {
    this.registry.rejectedCalls.push(callId);
  }

  /** Nothing to re-sync on a fake phone: the repair is recorded, so a test sees it was asked. */
  async repair(chatJid: string) {
    this.registry.repairsOf(this.ctx.companyId, this.ctx.whatsappId).push({ chatJid, at: new Date().toISOString() });
  }

  /** Answers at once, unless the phone went silent: then never, like a half-open socket. */
  probe() {
    if (this.silent) return new Promise<void>(() => undefined);
    if (this.status !== 'CONNECTED') return Promise.reject(new Error('not connected'));
    return Promise.resolve();
  }

  /** "Connected but silent": the socket stays open and answers nothing (until it is replaced). */
  goSilent() {
    this.silent = true;
  }

  /** Moves an outbound message's ack one step (1 sent -> 2 delivered -> 3 read) or to `ack`. */
  async advanceAck(wid: string, ack?: number) {
    const found = this.outbound.find((o) => o.wid === wid);
    if (!found) throw new Error(`no outbound message ${wid}`);
    found.ack = ack ?? Math.min(found.ack + 1, 3);
    await this.ctx.events.ack({ wid, chatJid: found.to, ack: found.ack });
    return found.ack;
  }

  async inject(m: InjectedMessage) {
    if (this.status !== 'CONNECTED') throw new Error('not connected');
    const wid = m.wid ?? `SIMIN${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`;
    const number = jidOf(m.from);
    const chatJid = m.group ? m.group.jid : m.lid ? m.lid : number;
    const media = m.media
      ? {
          mimetype: m.media.mimetype,
          fileName: m.media.fileName,
          size: Buffer.from(m.media.data, 'base64').length,
          download: async () => {
            if (m.failMedia) throw new Error('simulated download failure');
            return Buffer.from(m.media!.data, 'base64');
          },
        }
      : undefined;
    const kind = m.media?.mimetype.split('/')[0];
    const mediaType =
      m.mediaType ?? (!m.media ? 'chat' : kind === 'image' || kind === 'audio' || kind === 'video' ? kind : 'document');
    await this.ctx.events.message({
      wid,
      chatJid,
      chatAltJid: !m.group && m.lid ? number : undefined,
      fromMe: m.fromMe ?? false,
      isGroup: Boolean(m.group),
      participantJid: m.group ? number : undefined,
      participantName: m.group ? m.pushName : undefined,
      pushName: m.group ? m.group.name : m.pushName,
      body: m.body ?? m.media?.fileName ?? '',
      mediaType,
      media,
      quotedWid: m.quotedWid,
      profilePicUrl: m.profilePicUrl,
      timestamp: m.timestamp ?? Math.floor(Date.now() / 1000),
    });
    return { wid, chatJid };
  }

  snapshot() {
    return {
      status: this.status,
      qrcode: this.qrcode,
      number: this.number,
      silent: this.silent,
      outbound: this.outbound,
      repairs: this.registry.repairsOf(this.ctx.companyId, this.ctx.whatsappId),
      /** sends of an id this phone already had (dropped, as a real phone does) */
      repeats: this.registry.repeatsOf(this.ctx.companyId, this.ctx.whatsappId),
    };
  }
}

/**
 * The phones of this runner, found by connection for the simulator endpoints. With `sentLog` (the
 * local stack gives a file of its own) every message a phone receives is appended there before the
 * send returns, and read back at start: the phones live outside the runner, so a killed runner
 * loses nothing they got, and a message sent twice shows twice.
 */
export class SimulatorRegistry {
  private phones = new Map<string, SimulatedPhone>();
  private sent = new Map<string, OutboundRecord[]>();
  readonly absent = new Set<string>();
  readonly failSends = new Set<string>();
  readonly rejectedCalls: string[] = [];
  /** repairSession commands by connection */
  private repairs = new Map<string, { chatJid: string; at: string }[]>();
  /** sends of an id the phone already had, dropped */
  private repeats = new Map<string, number>();

  constructor(private sentLog?: string) {
    if (!sentLog || !existsSync(sentLog)) return;
    for (const line of readFileSync(sentLog, 'utf8').split('\n')) {
      // a line cut short by a kill during the write was never a complete send
      if (!line.endsWith('}')) continue;
      const { phone, ...record } = JSON.parse(line) as OutboundRecord & { phone: string };
      if (!this.sent.has(phone)) this.sent.set(phone, []);
      this.sent.get(phone)!.push(record);
    }
  }

  /** A phone received a message we sent. */
  /** A phone drops a message whose id it already has (a resend after a crash); the repeats are counted. */
  received(companyId: number, whatsappId: number, record: OutboundRecord) {
    const phone = `${companyId}#${whatsappId}`;
    if (this.outboundOf(companyId, whatsappId).some((o) => o.wid === record.wid)) {
      this.repeats.set(phone, (this.repeats.get(phone) ?? 0) + 1);
      return;
    }
    if (this.sentLog) appendFileSync(this.sentLog, `${JSON.stringify({ phone, ...record })}\n`);
    this.outboundOf(companyId, whatsappId).push(record);
  }

  repeatsOf(companyId: number, whatsappId: number) {
    return this.repeats.get(`${companyId}#${whatsappId}`) ?? 0;
  }

  attach(phone: SimulatedPhone) {
    this.phones.set(`${phone.ctx.companyId}#${phone.ctx.whatsappId}`, phone);
  }

  outboundOf(companyId: number, whatsappId: number) {
    const key = `${companyId}#${whatsappId}`;
    if (!this.sent.has(key)) this.sent.set(key, []);
    return this.sent.get(key)!;
  }

  get(companyId: number, whatsappId: number) {
    return this.phones.get(`${companyId}#${whatsappId}`);
  }

  private books = new Map<string, { number: string; name: string }[]>();

  addressBookOf(companyId: number, whatsappId: number) {
    return this.books.get(`${companyId}#${whatsappId}`) ?? [];
  }

  setAddressBook(companyId: number, whatsappId: number, entries: { number: string; name: string }[]) {
    this.books.set(`${companyId}#${whatsappId}`, entries);
  }

  repairsOf(companyId: number, whatsappId: number) {
    const key = `${companyId}#${whatsappId}`;
    if (!this.repairs.has(key)) this.repairs.set(key, []);
    return this.repairs.get(key)!;
  }
}

export function simulatorProvider(registry: SimulatorRegistry, qrIntervalMs: number): Provider {
  return { name: 'simulator', create: (ctx) => new SimulatedPhone(ctx, registry, qrIntervalMs) };
}
