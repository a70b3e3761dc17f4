import WebSocket from 'ws';
import { perGroupSequencer } from '../sequencer';
import type { UndecryptableMessage } from '#shared/whatsapp-protocol';
import type {
  MediaFile,
  Provider,
  ProviderMessage,
  ProviderSession,
  ReactionEvent,
  SendCommand,
  SessionContext,
} from '../provider';
import type { SessionRestriction } from '#shared/whatsapp-protocol';

/**
 * The simulator provider (local runtime and tests only): each session is a WebSocket to the
 * simulator hub (infra/local/simulator-hub.ts), which plays WhatsApp and the phones. Like WhatsApp,
 * the hub shows QR codes until a test scans one, keeps one socket per session (a newer socket
 * replaces an older one with 440), and holds every event it sends until the runner acknowledges it
 * (after the event is on the inbound queue), sending the unacknowledged ones again to the next
 * socket of the session, whichever runner opens it.
 */

/** A WhatsApp close code travels as this plus the code (WebSocket application codes are 4000-4999). */
export const CLOSE_CODE_BASE = 4000;

/** A message the hub delivers: media travels inline (base64), `fail` makes its download fail. */
export interface HubMessage extends Omit<ProviderMessage, 'media'> {
  media?: { mimetype: string; fileName?: string; size: number; data: string; fail?: boolean };
}

/** What the phone side reports, each acknowledged by the runner once handled. */
export type HubEvent =
  | { kind: 'message'; message: HubMessage }
  /** with `refusal`, WhatsApp refused the message it had taken (status ERROR) with that code */
  | { kind: 'ack'; wid: string; chatJid: string; ack: number; refusal?: { code: number; title: string } }
  /** WhatsApp locked new chats, lifted the lock, or told the new-chat quota */
  | ({ kind: 'restriction' } & SessionRestriction)
  | { kind: 'edit'; wid: string; chatJid: string; body: string; fromMe?: boolean; participantJid?: string }
  | { kind: 'revoke'; wid: string; chatJid: string; fromMe?: boolean; participantJid?: string }
  | ({ kind: 'reaction' } & ReactionEvent)
  | { kind: 'call'; callId: string; from: string; fromAlt?: string; timestamp: number }
  /** WhatsApp told the phone that a `@lid` id and a number are the same account */
  | { kind: 'lidMapping'; lid: string; pn: string }
  /** a customer's message reached the session but could not be decrypted (no content) */
  | { kind: 'undecryptable'; message: UndecryptableMessage };

/** Hub -> runner. */
export type HubFrame =
  | { op: 'open'; number: string }
  | { op: 'qr'; qrcode: string }
  /** a QR code was scanned: store the credentials, then acknowledge (a 515 restart follows) */
  | { op: 'pair'; id: number; number: string }
  | { op: 'event'; id: number; event: HubEvent }
  | { op: 'res'; id: number; result?: unknown; error?: string };

export interface SendArgs {
  wid: string;
  to: string;
  body: string;
  media?: { key: string; mimetype: string; fileName: string; kind: string; size: number };
  quotedWid?: string;
}

/** Runner -> hub: acknowledgements and requests (answered by a `res` frame with the same id). */
export type RunnerFrame =
  | { op: 'ack'; id: number }
  | { op: 'req'; id: number; method: 'send'; args: SendArgs }
  | { op: 'req'; id: number; method: 'delete'; args: { wid: string } }
  | { op: 'req'; id: number; method: 'react'; args: { wid: string; to: string; emoji: string } }
  | { op: 'req'; id: number; method: 'checkNumbers'; args: { numbers: string[] } }
  | { op: 'req'; id: number; method: 'rejectCall'; args: { callId: string; from: string } }
  | { op: 'req'; id: number; method: 'repair'; args: { chatJid: string } }
  | { op: 'req'; id: number; method: 'addressBook' | 'probe' | 'logout'; args?: undefined };

type RequestMethod = Extract<RunnerFrame, { op: 'req' }>['method'];

/** The key type of a chat's Signal session in the auth store (as Baileys names it). */
export const SESSION_KEY = 'session';
/** A chat's simulated Signal session: messages received in it, and the runner that stored this value. */
export interface SessionRecord {
  n: number;
  by: string;
}

class HubSession implements ProviderSession {
  private ws?: WebSocket;
  private closing = false;
  private nextId = 1;
  private requests = new Map<number, { done: (v: unknown) => void; fail: (e: Error) => void }>();
  // an edit or an ack must not overtake its message: events of one chat are handled in order
  private inOrder = perGroupSequencer();

  constructor(
    private ctx: SessionContext,
    private hubUrl: string,
    private runnerId: string,
    private signalKeys: boolean,
  ) {}

  async connect() {
    const creds = await this.ctx.auth.readCreds<{ me: string }>();
    const url = new URL(this.hubUrl);
    url.searchParams.set('companyId', String(this.ctx.companyId));
    url.searchParams.set('whatsappId', String(this.ctx.whatsappId));
    url.searchParams.set('runner', this.runnerId);
    if (creds?.me) url.searchParams.set('me', creds.me);
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.on('message', (data) => void this.onFrame(JSON.parse(String(data)) as HubFrame));
    await new Promise<void>((opened, failed) => {
      ws.once('open', () => opened());
      ws.once('error', failed);
    });
    ws.on('error', () => undefined);
    ws.once('close', (code) => {
      for (const r of this.requests.values()) r.fail(new Error('socket closed'));
      this.requests.clear();
      if (this.closing) return;
      // an application code carries WhatsApp's; anything else is a lost connection
      this.ctx.events.closed(code >= CLOSE_CODE_BASE ? code - CLOSE_CODE_BASE : 428);
    });
  }

  private async onFrame(frame: HubFrame) {
    const { events } = this.ctx;
    switch (frame.op) {
      case 'open':
        return events.status({ status: 'CONNECTED', number: frame.number });
      case 'qr':
        return events.status({ status: 'qrcode', qrcode: frame.qrcode });
      case 'pair':
        await this.ctx.auth.writeCreds({ me: frame.number });
        events.status({ status: 'PAIRING' });
        return this.frame({ op: 'ack', id: frame.id });
      case 'res': {
        const request = this.requests.get(frame.id);
        this.requests.delete(frame.id);
        if (frame.error) request?.fail(new Error(frame.error));
        else request?.done(frame.result);
        return;
      }
      case 'event': {
        const { event } = frame;
        const chat =
          event.kind === 'call'
            ? event.from
            : event.kind === 'message' || event.kind === 'undecryptable'
              ? event.message.chatJid
              : event.kind === 'lidMapping'
                ? event.pn
                : event.kind === 'restriction'
                  ? 'restriction'
                  : event.chatJid;
        return this.inOrder(chat, async () => {
          // not acknowledged when it fails: the hub delivers it again to the next socket
          await this.handle(event);
          this.frame({ op: 'ack', id: frame.id });
        }).catch(() => undefined);
      }
    }
  }

  private async handle(event: HubEvent) {
    const { events } = this.ctx;
    switch (event.kind) {
      case 'message': {
        const { media, ...message } = event.message;
        if (this.signalKeys && !message.fromMe) await this.advanceSession(message.chatJid);
        return events.message({
          ...message,
          media: media && {
            mimetype: media.mimetype,
            fileName: media.fileName,
            size: media.size,
            download: async () => {
              if (media.fail) throw new Error('simulated download failure');
              return Buffer.from(media.data, 'base64');
            },
          },
        });
      }
      case 'ack':
        return events.ack({
          wid: event.wid,
          chatJid: event.chatJid,
          ack: event.ack,
          ...(event.refusal ? { error: 'ERR_SENDING_WAPP_MSG' as const, providerError: event.refusal } : {}),
        });
      case 'restriction': {
        const { kind: _, ...restriction } = event;
        return events.restriction?.(restriction);
      }
      case 'edit': {
        const { kind: _, ...edit } = event;
        return events.edit(edit);
      }
      case 'revoke': {
        const { kind: _, ...revoke } = event;
        return events.revoke(revoke);
      }
      case 'reaction': {
        const { kind: _, ...reaction } = event;
        return events.reaction?.(reaction);
      }
      case 'call': {
        const { kind: _, ...call } = event;
        return events.call(call);
      }
      case 'lidMapping':
        return events.lidMapping({ lid: event.lid, pn: event.pn });
      case 'undecryptable':
        return events.undecryptable?.(event.message);
    }
  }

  /**
   * Decrypting a message moves the chat's Signal session on, and Baileys stores it before the
   * message is handed on: here a count of the chat's messages and the runner that wrote it. A
   * failed write fails the message (not acknowledged: the hub delivers it again).
   */
  private async advanceSession(chatJid: string) {
    const { auth } = this.ctx;
    const stored = (await auth.getKeys(SESSION_KEY, [chatJid]))[chatJid] as SessionRecord | undefined;
    const next: SessionRecord = { n: (stored?.n ?? 0) + 1, by: this.runnerId };
    await auth.setKeys({ [SESSION_KEY]: { [chatJid]: next } });
  }

  private frame(frame: RunnerFrame) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }

  private request<T>(method: RequestMethod, args?: unknown): Promise<T> {
    if (this.ws?.readyState !== WebSocket.OPEN) return Promise.reject(new Error('not connected'));
    const id = this.nextId++;
    return new Promise<T>((done, fail) => {
      this.requests.set(id, { done: done as (v: unknown) => void, fail });
      this.frame({ op: 'req', id, method, args } as RunnerFrame);
    });
  }

  async close() {
    this.closing = true;
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((closed) => {
      ws.once('close', () => closed());
      ws.close(1000);
    });
  }

  async logout() {
    await this.request('logout').catch(() => undefined);
    await this.close();
  }

  async send(command: SendCommand, media?: MediaFile) {
    await this.request('send', {
      wid: command.wid,
      to: command.to,
      body: command.body,
      media: command.media && media ? { ...command.media, size: media.size } : undefined,
      quotedWid: command.quotedWid,
    } satisfies SendArgs);
    return { chatJid: command.to, content: { conversation: command.body } };
  }

  async react(ev: { wid: string; to: string; emoji: string }) {
    await this.request('react', { wid: ev.wid, to: ev.to, emoji: ev.emoji });
  }

  async deleteMessage(ev: { wid: string }) {
    await this.request('delete', { wid: ev.wid });
  }

  checkNumbers(numbers: string[]) {
    return this.request<{ number: string; exists: boolean; jid?: string }[]>('checkNumbers', { numbers });
  }

  addressBook() {
    return this.request<{ number: string; name: string }[]>('addressBook');
  }

  async rejectCall(callId: string, from: string) {
    await this.request('rejectCall', { callId, from });
  }

  async repair(chatJid: string) {
    await this.request('repair', { chatJid });
  }

  async probe() {
    await this.request('probe');
  }
}

/**
 * `hubUrl`: the hub's WebSocket address; `runnerId` names this runner in the hub's session timeline
 * and on the session records it writes; `signalKeys`: each message received writes its chat's
 * session record (advanceSession).
 */
export function simulatorProvider(hubUrl: string, runnerId: string, opts: { signalKeys?: boolean } = {}): Provider {
  return { name: 'simulator', create: (ctx) => new HubSession(ctx, hubUrl, runnerId, opts.signalKeys ?? false) };
}
