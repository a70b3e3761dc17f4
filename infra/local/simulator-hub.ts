import { randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';
import {
  CLOSE_CODE_BASE,
  type HubEvent,
  type HubFrame,
  type HubMessage,
  type RunnerFrame,
  type SendArgs,
} from '../../session-runner/src/providers/simulator';
import type { SessionRestriction } from '../../shared/whatsapp-protocol';

/**
 * The simulated WhatsApp of the local stack (tests and demos): the phones of every connection and
 * the server the session runners connect to, one WebSocket per session (see
 * session-runner/src/providers/simulator.ts). It lives in the stack's process, outside the runners,
 * so a killed runner loses nothing the phones hold, and it behaves like WhatsApp where the fleet
 * depends on it:
 * - one socket per session: a newer socket replaces the older one (closed with 440);
 * - every event (a customer's message, an ack, an edit ...) stays pending until the runner
 *   acknowledges it, and the unacknowledged ones go again to the next socket of the session;
 * - a phone keeps one copy of each message id it receives (a resend with the same id is dropped
 *   and counted as a repeat);
 * - a timeline per session (connects, closes, QR codes) tells how long each session was down and
 *   whether a new QR code was ever needed after pairing.
 * The `/@simulator/...` endpoints (scan, inject, inject an undecryptable message, read what was sent,
 * acks, drops, silence) keep the shapes the tests use.
 */
export interface OutboundRecord {
  wid: string;
  to: string;
  body: string;
  media?: SendArgs['media'];
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
  /**
   * WhatsApp takes the message even while no runner holds the session (it is delivered when one
   * connects); the call answers at once. Without it the call waits for a connected session and
   * for the runner's acknowledgement, as the tests expect.
   */
  queue?: boolean;
}

type PhoneStatus = 'NONE' | 'qrcode' | 'PAIRING' | 'CONNECTED' | 'DISCONNECTED';

interface Link {
  ws: WebSocket;
  runner: string;
  /** the phone stopped answering on this socket (a half-open connection) */
  silent: boolean;
  /** pending events already sent on this socket */
  sent: Set<number>;
}

interface Pending {
  event: HubEvent;
  acked: Promise<void>;
  ack: () => void;
}

export interface TimelineEntry {
  at: number;
  kind: 'connect' | 'open' | 'qr' | 'pair' | 'close' | 'replaced';
  runner?: string;
  code?: number;
}

/** What the fleet proof reads per session. */
export interface SessionReport {
  companyId: number;
  whatsappId: number;
  status: PhoneStatus;
  /** times a socket opened with stored credentials */
  opens: number;
  /** QR codes shown after the session had paired: a session that needed scanning again */
  qrAfterPaired: number;
  /** each time the session was down after having been connected, in ms */
  outages: number[];
  /** down now: since when (ms since epoch) */
  downSince?: number;
  /** events not yet acknowledged by a runner */
  pending: number;
  /** the runner holding the session now */
  runner?: string;
  timeline: TimelineEntry[];
}

const jidOf = (number: string) => (number.includes('@') ? number : `${number.replace(/\D/g, '')}@s.whatsapp.net`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class Phone {
  status: PhoneStatus = 'NONE';
  qrcode = '';
  qrCount = 0;
  qrTimer?: NodeJS.Timeout;
  number?: string;
  link?: Link;
  paired = false;
  opens = 0;
  qrAfterPaired = 0;
  outages: number[] = [];
  downSince?: number;
  pending = new Map<number, Pending>();
  repairs: { chatJid: string; at: string }[] = [];
  book: { number: string; name: string }[] = [];
  repeats = 0;
  timeline: TimelineEntry[] = [];
  /** each number-check query asked of this phone: how many numbers, when */
  checkQueries: { numbers: number; at: string }[] = [];
  /** our reactions this phone's chats received, in order (`emoji` empty: taken back) */
  reactions: { wid: string; to: string; emoji: string; at: string }[] = [];

  constructor(
    readonly companyId: number,
    readonly whatsappId: number,
    readonly outbound: OutboundRecord[],
  ) {}

  get connected() {
    return this.status === 'CONNECTED' && Boolean(this.link);
  }
}

export class SimulatorHub {
  readonly absent = new Set<string>();
  readonly failSends = new Set<string>();
  /** phones (`<cid>#<wid>`) whose number checks WhatsApp refuses with a restriction (rate-overlimit) */
  readonly refusedChecks = new Set<string>();
  readonly rejectedCalls: string[] = [];
  private phones = new Map<string, Phone>();
  private sent = new Map<string, OutboundRecord[]>();
  private nextEventId = 1;

  constructor(private opts: { sentLog?: string; qrIntervalMs?: number } = {}) {
    const { sentLog } = opts;
    if (!sentLog || !existsSync(sentLog)) return;
    for (const line of readFileSync(sentLog, 'utf8').split('\n')) {
      // a line cut short by a kill during the write was never a complete send
      if (!line.endsWith('}')) continue;
      const { phone, ...record } = JSON.parse(line) as OutboundRecord & { phone: string };
      this.outboundOf(phone).push(record);
    }
  }

  private outboundOf(key: string) {
    const list = this.sent.get(key) ?? [];
    this.sent.set(key, list);
    return list;
  }

  private phone(companyId: number, whatsappId: number) {
    const key = `${companyId}#${whatsappId}`;
    const phone = this.phones.get(key) ?? new Phone(companyId, whatsappId, this.outboundOf(key));
    this.phones.set(key, phone);
    return phone;
  }

  private note(phone: Phone, entry: Omit<TimelineEntry, 'at'>) {
    phone.timeline.push({ at: Date.now(), ...entry });
  }

  private frame(link: Link | undefined, frame: HubFrame) {
    if (link && link.ws.readyState === link.ws.OPEN) link.ws.send(JSON.stringify(frame));
  }

  /** A runner opened a session's socket: `me` is the number its stored credentials name. */
  attach(ws: WebSocket, params: { companyId: number; whatsappId: number; runner: string; me?: string }) {
    const phone = this.phone(params.companyId, params.whatsappId);
    const link: Link = { ws, runner: params.runner, silent: false, sent: new Set() };
    const older = phone.link;
    phone.link = link;
    clearTimeout(phone.qrTimer);
    this.note(phone, { kind: 'connect', runner: link.runner });
    if (older) {
      this.note(phone, { kind: 'replaced', runner: older.runner, code: 440 });
      older.ws.close(CLOSE_CODE_BASE + 440);
    }
    ws.on('message', (data) => this.onFrame(phone, link, JSON.parse(String(data)) as RunnerFrame));
    ws.on('error', () => undefined);
    ws.on('close', (code) => {
      if (phone.link !== link) return;
      phone.link = undefined;
      clearTimeout(phone.qrTimer);
      if (phone.status === 'CONNECTED') phone.downSince = Date.now();
      if (phone.status !== 'PAIRING') phone.status = 'DISCONNECTED';
      this.note(phone, { kind: 'close', runner: link.runner, code });
    });
    if (params.me) {
      phone.status = 'CONNECTED';
      phone.number = params.me;
      phone.paired = true;
      phone.opens++;
      if (phone.downSince !== undefined) phone.outages.push(Date.now() - phone.downSince);
      phone.downSince = undefined;
      this.note(phone, { kind: 'open', runner: link.runner });
      this.frame(link, { op: 'open', number: params.me });
      this.deliver(phone);
      return;
    }
    phone.qrCount = 0;
    this.showQr(phone, link);
  }

  private showQr(phone: Phone, link: Link) {
    if (phone.link !== link) return;
    phone.qrCount++;
    phone.status = 'qrcode';
    phone.qrcode = `sim:${phone.companyId}:${phone.whatsappId}:${phone.qrCount}:${randomBytes(8).toString('hex')}`;
    if (phone.paired) phone.qrAfterPaired++;
    this.note(phone, { kind: 'qr', runner: link.runner });
    this.frame(link, { op: 'qr', qrcode: phone.qrcode });
    phone.qrTimer = setTimeout(() => this.showQr(phone, link), this.opts.qrIntervalMs ?? 30_000);
  }

  /** Sends the pending events the current socket has not had yet, oldest first. */
  private deliver(phone: Phone) {
    const link = phone.link;
    if (!link || phone.status !== 'CONNECTED') return;
    for (const [id, pending] of phone.pending) {
      if (link.sent.has(id)) continue;
      link.sent.add(id);
      this.frame(link, { op: 'event', id, event: pending.event });
    }
  }

  private onFrame(phone: Phone, link: Link, frame: RunnerFrame) {
    if (frame.op === 'ack') {
      const pending = phone.pending.get(frame.id);
      phone.pending.delete(frame.id);
      pending?.ack();
      this.pairAcks.get(frame.id)?.();
      return;
    }
    const answer = (result: unknown) => this.frame(link, { op: 'res', id: frame.id, result });
    const refuse = (error: string) => this.frame(link, { op: 'res', id: frame.id, error });
    if (phone.link !== link) return refuse('replaced by a newer socket');
    switch (frame.method) {
      case 'probe':
        // a silent phone never answers, like a half-open socket
        if (link.silent) return;
        return phone.status === 'CONNECTED' ? answer(null) : refuse('not connected');
      case 'send': {
        if (phone.status !== 'CONNECTED') return refuse('not connected');
        if (this.failSends.has(frame.args.to)) return refuse('simulated send failure');
        this.received(phone, { ...frame.args, ack: 1, at: new Date().toISOString() });
        return answer({ chatJid: frame.args.to });
      }
      case 'react': {
        if (phone.status !== 'CONNECTED') return refuse('not connected');
        phone.reactions.push({ ...frame.args, at: new Date().toISOString() });
        return answer(null);
      }
      case 'delete': {
        const found = phone.outbound.find((o) => o.wid === frame.args.wid);
        if (found) found.deleted = true;
        return answer(null);
      }
      case 'checkNumbers': {
        if (this.refusedChecks.has(`${phone.companyId}#${phone.whatsappId}`)) return refuse('rate-overlimit');
        phone.checkQueries.push({ numbers: frame.args.numbers.length, at: new Date().toISOString() });
        return answer(
          frame.args.numbers.map((number) => {
            const digits = number.replace(/\D/g, '');
            return this.absent.has(digits) ? { number, exists: false } : { number, exists: true, jid: jidOf(digits) };
          }),
        );
      }
      case 'addressBook':
        return answer(phone.book);
      case 'rejectCall':
        this.rejectedCalls.push(frame.args.callId);
        return answer(null);
      case 'repair':
        phone.repairs.push({ chatJid: frame.args.chatJid, at: new Date().toISOString() });
        return answer(null);
      case 'logout':
        phone.status = 'DISCONNECTED';
        phone.paired = false;
        return answer(null);
    }
  }

  /**
   * A phone received a message we sent. It keeps one copy per id: a resend with an id it already
   * has (after a crash) is dropped and counted. With a sent log every message is appended there
   * before the send is answered, so the tests read what the phones got even across stack restarts.
   */
  private received(phone: Phone, record: OutboundRecord) {
    if (phone.outbound.some((o) => o.wid === record.wid)) {
      phone.repeats++;
      return;
    }
    if (this.opts.sentLog)
      appendFileSync(
        this.opts.sentLog,
        `${JSON.stringify({ phone: `${phone.companyId}#${phone.whatsappId}`, ...record })}\n`,
      );
    phone.outbound.push(record);
  }

  /** Queues an event for the session; resolves once a runner acknowledged it, or after `waitMs`. */
  private async push(phone: Phone, event: HubEvent, waitMs: number) {
    const id = this.nextEventId++;
    let ack!: () => void;
    const acked = new Promise<void>((done) => (ack = done));
    phone.pending.set(id, { event, acked, ack });
    this.deliver(phone);
    if (waitMs <= 0) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((done) => (timer = setTimeout(() => done(false), waitMs)));
    const out = await Promise.race([acked.then(() => true), late]);
    clearTimeout(timer);
    return out;
  }

  /** Waits until the session's phone passes `ready` (a session starts asynchronously). */
  async phoneWhere(companyId: number, whatsappId: number, ready: (p: Phone) => boolean = () => true, waitMs = 8000) {
    const until = Date.now() + waitMs;
    for (;;) {
      const phone = this.phones.get(`${companyId}#${whatsappId}`);
      if (phone && ready(phone)) return phone;
      if (Date.now() > until) return undefined;
      await sleep(25);
    }
  }

  private pairAcks = new Map<number, () => void>();

  /** The test scanned the QR code: the runner stores credentials, then WhatsApp's usual restart (515). */
  async scan(companyId: number, whatsappId: number, number: string) {
    const phone = await this.phoneWhere(companyId, whatsappId, (p) => p.status === 'qrcode' && Boolean(p.link));
    if (!phone) return false;
    const link = phone.link!;
    clearTimeout(phone.qrTimer);
    const id = this.nextEventId++;
    const stored = new Promise<void>((done) => this.pairAcks.set(id, done));
    const digits = number.replace(/\D/g, '');
    this.frame(link, { op: 'pair', id, number: digits });
    await Promise.race([stored, sleep(8000)]);
    this.pairAcks.delete(id);
    phone.status = 'PAIRING';
    phone.number = digits;
    phone.paired = true;
    this.note(phone, { kind: 'pair', runner: link.runner });
    link.ws.close(CLOSE_CODE_BASE + 515);
    return true;
  }

  /** A customer (or the phone itself, `fromMe`) writes; answers the message's id and chat. */
  async inject(companyId: number, whatsappId: number, m: InjectedMessage) {
    const phone = m.queue
      ? await this.phoneWhere(companyId, whatsappId, (p) => p.paired, 0)
      : await this.phoneWhere(companyId, whatsappId, (p) => p.connected);
    if (!phone) return undefined;
    const wid = m.wid ?? `SIMIN${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`;
    const number = jidOf(m.from);
    const chatJid = m.group ? m.group.jid : m.lid ? m.lid : number;
    const kind = m.media?.mimetype.split('/')[0];
    const message: HubMessage = {
      wid,
      chatJid,
      chatAltJid: !m.group && m.lid ? number : undefined,
      fromMe: m.fromMe ?? false,
      isGroup: Boolean(m.group),
      participantJid: m.group ? number : undefined,
      participantName: m.group ? m.pushName : undefined,
      pushName: m.group ? m.group.name : m.pushName,
      body: m.body ?? m.media?.fileName ?? '',
      mediaType:
        m.mediaType ??
        (!m.media ? 'chat' : kind === 'image' || kind === 'audio' || kind === 'video' ? kind : 'document'),
      media: m.media && {
        mimetype: m.media.mimetype,
        fileName: m.media.fileName,
        size: Buffer.from(m.media.data, 'base64').length,
        data: m.media.data,
        fail: m.failMedia,
      },
      quotedWid: m.quotedWid,
      profilePicUrl: m.profilePicUrl,
      timestamp: m.timestamp ?? Math.floor(Date.now() / 1000),
    };
    const handed = await this.push(phone, { kind: 'message', message }, m.queue ? 0 : 30_000);
    return { wid, chatJid, pending: !handed };
  }

  /**
   * A customer's message reaches the session but cannot be decrypted (what Baileys reports as a
   * CIPHERTEXT stub): only who wrote and when. Injecting a message with the same `wid` afterwards
   * is the sender's phone sending it again. Answers the id and chat, like `inject`.
   */
  async injectUndecryptable(
    companyId: number,
    whatsappId: number,
    m: Pick<InjectedMessage, 'from' | 'wid' | 'pushName' | 'lid' | 'group' | 'timestamp'>,
  ) {
    const phone = await this.phoneWhere(companyId, whatsappId, (p) => p.connected);
    if (!phone) return undefined;
    const wid = m.wid ?? `SIMIN${randomUUID().replace(/-/g, '').slice(0, 18).toUpperCase()}`;
    const number = jidOf(m.from);
    const chatJid = m.group ? m.group.jid : m.lid ? m.lid : number;
    const message = {
      wid,
      chatJid,
      chatAltJid: !m.group && m.lid ? number : undefined,
      isGroup: Boolean(m.group),
      participantJid: m.group ? number : undefined,
      participantName: m.group ? m.pushName : undefined,
      pushName: m.group ? undefined : m.pushName,
      timestamp: m.timestamp ?? Math.floor(Date.now() / 1000),
      reason: 'Bad MAC',
    };
    await this.push(phone, { kind: 'undecryptable', message }, 30_000);
    return { wid, chatJid };
  }

  /** Moves an outbound message's ack one step (1 sent -> 2 delivered -> 3 read) or to `ack`; undefined when not connected. */
  async advanceAck(
    companyId: number,
    whatsappId: number,
    wid: string,
    ack?: number,
    refusal?: { code: number; title: string },
  ) {
    const phone = await this.phoneWhere(companyId, whatsappId, (p) => p.connected);
    if (!phone) return undefined;
    const found = phone.outbound.find((o) => o.wid === wid);
    if (!found) throw new Error(`no outbound message ${wid}`);
    // a refusal (status ERROR with WhatsApp's code, 463 ...) takes the message back to pending
    found.ack = refusal ? 0 : (ack ?? Math.min(found.ack + 1, 3));
    await this.push(
      phone,
      { kind: 'ack', wid, chatJid: found.to, ack: found.ack, ...(refusal ? { refusal } : {}) },
      30_000,
    );
    return found.ack;
  }

  /** Closes the session's socket with a WhatsApp status code (tests of the close policy); false when it has none. */
  async drop(companyId: number, whatsappId: number, code: number) {
    const phone = await this.phoneWhere(companyId, whatsappId, (p) => Boolean(p.link));
    phone?.link?.ws.close(CLOSE_CODE_BASE + code);
    return Boolean(phone);
  }

  /** "Connected but silent": the socket stays open and answers no probe until it is replaced. */
  async silence(companyId: number, whatsappId: number) {
    const phone = await this.phoneWhere(companyId, whatsappId, (p) => p.connected);
    if (phone) phone.link!.silent = true;
    return Boolean(phone);
  }

  snapshot(companyId: number, whatsappId: number) {
    const phone = this.phones.get(`${companyId}#${whatsappId}`);
    if (!phone) return { status: 'NONE', outbound: this.outboundOf(`${companyId}#${whatsappId}`) };
    return {
      status: phone.status,
      qrcode: phone.qrcode,
      number: phone.number,
      silent: phone.link?.silent ?? false,
      outbound: phone.outbound,
      repairs: phone.repairs,
      /** sends of an id this phone already had (dropped, as a real phone does) */
      repeats: phone.repeats,
      checkQueries: phone.checkQueries,
      reactions: phone.reactions,
      pending: phone.pending.size,
      runner: phone.link?.runner,
    };
  }

  /** Per session: opens, QR codes after pairing, outages; the fleet proof reads it. */
  report(): SessionReport[] {
    return [...this.phones.values()].map((p) => ({
      companyId: p.companyId,
      whatsappId: p.whatsappId,
      status: p.status,
      opens: p.opens,
      qrAfterPaired: p.qrAfterPaired,
      outages: p.outages,
      downSince: p.downSince,
      pending: p.pending.size,
      runner: p.link?.runner,
      timeline: p.timeline,
    }));
  }

  /** The `/@simulator/...` endpoints, as the local gateway hands them over. */
  async handle(req: IncomingMessage, res: ServerResponse, raw: Buffer) {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://simulator');
    const parts = url.pathname.split('/').filter(Boolean); // ['@simulator', 'sessions', cid, wid, action]
    try {
      if (url.pathname === '/@simulator/health') return json(200, { ok: true });
      if (url.pathname === '/@simulator/report') return json(200, { sessions: this.report() });
      const body: Record<string, unknown> = req.method === 'POST' && raw.length ? JSON.parse(raw.toString('utf8')) : {};
      if (url.pathname === '/@simulator/absent') {
        this.absent.add(String(body.number).replace(/\D/g, ''));
        return json(200, { ok: true });
      }
      if (url.pathname === '/@simulator/fail-sends') {
        this.failSends.add(String(body.to));
        return json(200, { ok: true });
      }
      if (parts[1] !== 'sessions' || !parts[2] || !parts[3]) return json(404, { error: 'not found' });
      const [companyId, whatsappId, action] = [Number(parts[2]), Number(parts[3]), parts[4] ?? ''];
      if (req.method === 'GET' && !action) return json(200, this.snapshot(companyId, whatsappId));
      if (req.method !== 'POST') return json(405, { error: 'method not allowed' });
      const connected = () => this.phoneWhere(companyId, whatsappId, (p) => p.connected);
      switch (action) {
        case 'scan': {
          const scanned = await this.scan(companyId, whatsappId, String(body.number ?? '5511900000000'));
          return scanned ? json(200, { ok: true }) : json(409, { error: 'no QR code shown for this connection' });
        }
        case 'messages': {
          const out = await this.inject(companyId, whatsappId, body as unknown as InjectedMessage);
          if (!out) return json(409, { error: 'not connected' });
          return json(out.pending && body.queue ? 202 : 200, { wid: out.wid, chatJid: out.chatJid });
        }
        case 'undecryptable': {
          const out = await this.injectUndecryptable(companyId, whatsappId, body as unknown as InjectedMessage);
          return out ? json(200, out) : json(409, { error: 'not connected' });
        }
        case 'ack': {
          const ack = await this.advanceAck(
            companyId,
            whatsappId,
            String(body.wid),
            body.ack === undefined ? undefined : Number(body.ack),
            body.refusedCode === undefined
              ? undefined
              : { code: Number(body.refusedCode), title: String(body.refusedTitle ?? 'refused') },
          );
          return ack === undefined ? json(409, { error: 'not connected' }) : json(200, { ack });
        }
        case 'edit':
        case 'revoke': {
          const phone = await connected();
          if (!phone) return json(409, { error: 'not connected' });
          // the protocol message's sender: a contact unless `fromMe`; in groups, `participantJid`
          const sender = {
            wid: String(body.wid),
            chatJid: String(body.chatJid),
            fromMe: body.fromMe === true,
            ...(body.participantJid ? { participantJid: String(body.participantJid) } : {}),
          };
          await this.push(
            phone,
            action === 'edit' ? { kind: 'edit', ...sender, body: String(body.body) } : { kind: 'revoke', ...sender },
            30_000,
          );
          return json(200, { ok: true });
        }
        case 'reaction': {
          const phone = await connected();
          if (!phone) return json(409, { error: 'not connected' });
          // a contact (or, with `fromMe`, our own phone) reacts to the message `wid`; `emoji` empty takes it back
          const reactionId = String(body.reactionId ?? `R${randomBytes(8).toString('hex').toUpperCase()}`);
          await this.push(
            phone,
            {
              kind: 'reaction',
              wid: String(body.wid),
              chatJid: String(body.chatJid),
              emoji: String(body.emoji ?? ''),
              reactionId,
              fromMe: body.fromMe === true,
              ...(body.participantJid ? { participantJid: String(body.participantJid) } : {}),
            },
            30_000,
          );
          return json(200, { reactionId });
        }
        case 'call': {
          const phone = await connected();
          if (!phone) return json(409, { error: 'not connected' });
          const callId = String(body.callId ?? `CALL${Date.now()}`);
          const from = String(body.from).includes('@')
            ? String(body.from)
            : `${String(body.from).replace(/\D/g, '')}@s.whatsapp.net`;
          const fromAlt = body.fromAlt ? String(body.fromAlt) : undefined;
          await this.push(
            phone,
            { kind: 'call', callId, from, fromAlt, timestamp: Math.floor(Date.now() / 1000) },
            30_000,
          );
          return json(200, { callId, rejected: this.rejectedCalls });
        }
        case 'lid-mapping': {
          // WhatsApp learns that a lid and a number are one account (Baileys 7's LID mapping update)
          const phone = await connected();
          if (!phone) return json(409, { error: 'not connected' });
          const lid = String(body.lid).includes('@') ? String(body.lid) : `${String(body.lid)}@lid`;
          await this.push(phone, { kind: 'lidMapping', lid, pn: jidOf(String(body.pn)) }, 30_000);
          return json(200, { ok: true });
        }
        case 'drop':
          return (await this.drop(companyId, whatsappId, Number(body.code)))
            ? json(200, { ok: true })
            : json(409, { error: 'no session' });
        case 'address-book': {
          const entries = Array.isArray(body.contacts) ? (body.contacts as { number: string; name: string }[]) : [];
          this.phone(companyId, whatsappId).book = entries.map((e) => ({
            number: String(e.number).replace(/\D/g, ''),
            name: String(e.name ?? ''),
          }));
          return json(200, { ok: true, count: entries.length });
        }
        case 'restriction': {
          // WhatsApp's warning before a ban: {reachoutLock?: {active, until?, type?}, newChatQuota?: {total, used, endsAt?}}
          const phone = await connected();
          if (!phone) return json(409, { error: 'not connected' });
          await this.push(
            phone,
            {
              kind: 'restriction',
              ...(body.reachoutLock ? { reachoutLock: body.reachoutLock as SessionRestriction['reachoutLock'] } : {}),
              ...(body.newChatQuota ? { newChatQuota: body.newChatQuota as SessionRestriction['newChatQuota'] } : {}),
            },
            30_000,
          );
          return json(200, { ok: true });
        }
        case 'refuse-checks':
          // WhatsApp refuses this phone's number checks with a restriction from now on
          this.refusedChecks.add(`${companyId}#${whatsappId}`);
          return json(200, { ok: true });
        case 'silent':
          return (await this.silence(companyId, whatsappId))
            ? json(200, { ok: true })
            : json(409, { error: 'not connected' });
        default:
          return json(404, { error: 'not found' });
      }
    } catch (err) {
      return json(500, { error: (err as Error).message });
    }
  }
}

export interface RunningHub {
  hub: SimulatorHub;
  /** where the runners connect (SIMULATOR_HUB_URL) */
  url: string;
  close(): Promise<void>;
}

/** Starts the hub's WebSocket server on loopback (`port` 0: any free port). */
export async function startSimulatorHub(opts: { port?: number; sentLog?: string; qrIntervalMs?: number } = {}) {
  const hub = new SimulatorHub(opts);
  const wss = new WebSocketServer({ host: '127.0.0.1', port: opts.port ?? 0 });
  await new Promise<void>((listening) => wss.once('listening', () => listening()));
  wss.on('connection', (ws, req) => {
    const q = new URL(req.url ?? '/', 'http://hub').searchParams;
    hub.attach(ws, {
      companyId: Number(q.get('companyId')),
      whatsappId: Number(q.get('whatsappId')),
      runner: q.get('runner') ?? 'unknown',
      me: q.get('me') || undefined,
    });
  });
  const { port } = wss.address() as AddressInfo;
  return {
    hub,
    url: `ws://127.0.0.1:${port}/`,
    close: async () => {
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((closed) => wss.close(() => closed()));
    },
  } satisfies RunningHub;
}
