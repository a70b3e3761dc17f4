import type { ConnectionStatus } from '#shared/constants';
import type {
  AddressBookEntry,
  ProviderError,
  SessionCommand,
  SessionRestriction,
  UndecryptableMessage,
} from '#shared/whatsapp-protocol';
import type { ProviderMessage } from '#lib/inbound-media';
import type { AuthStore } from './auth-store';

export type SendCommand = Extract<SessionCommand, { type: 'send' }>;

/** A send's media, streamed from storage into a local file (read from there, never held whole in memory). */
export interface MediaFile {
  path: string;
  size: number;
}

/** A message as a provider reports it: media not yet stored, only a way to fetch it. */
export type { ProviderMessage };

/** What a provider tells the session manager. */
export interface ReactionEvent {
  wid: string;
  chatJid: string;
  emoji: string;
  reactionId: string;
  fromMe?: boolean;
  participantJid?: string;
}

export interface ProviderEvents {
  /** QR code shown, pairing, connected (with the phone's number) */
  status(update: {
    status: Extract<ConnectionStatus, 'qrcode' | 'PAIRING' | 'CONNECTED' | 'OPENING'>;
    qrcode?: string;
    number?: string;
  }): void;
  message(message: ProviderMessage): Promise<void>;
  /** `error` when WhatsApp refused a message it had accepted (status 0), with its code when it gave one (463, 479 ...) */
  ack(ev: {
    wid: string;
    chatJid: string;
    ack: number;
    error?: 'ERR_SENDING_WAPP_MSG';
    providerError?: ProviderError;
  }): Promise<void>;
  /** WhatsApp locked new chats for a while, or told the new-chat quota of the cycle */
  restriction?(ev: SessionRestriction): Promise<void>;
  /** an edit or a revoke names its target `wid`; `fromMe`/`participantJid` say who sent it */
  edit(ev: { wid: string; chatJid: string; body: string; fromMe?: boolean; participantJid?: string }): Promise<void>;
  revoke(ev: { wid: string; chatJid: string; fromMe?: boolean; participantJid?: string }): Promise<void>;
  /** a reaction to the message `wid` (`emoji` empty: taken back); `reactionId` is the reaction's own id */
  reaction?(ev: ReactionEvent): Promise<void>;
  call(ev: { callId: string; from: string; fromAlt?: string; timestamp: number }): Promise<void>;
  lidMapping(ev: { lid: string; pn: string }): Promise<void>;
  /** a message arrived that could not be decrypted (the provider asks the sender to send it again) */
  undecryptable?(ev: UndecryptableMessage): Promise<void>;
  /** the socket closed; `code` is WhatsApp's status code (401 logged out, 515 restart ...) */
  closed(code: number | undefined): void;
}

export interface SessionContext {
  companyId: number;
  whatsappId: number;
  auth: AuthStore;
  events: ProviderEvents;
  /** content of a message we sent, for the provider's retry requests (from our store, not memory) */
  getMessage(wid: string): Promise<unknown | undefined>;
}

/** One WhatsApp session of one connection. */
export interface ProviderSession {
  /** opens the socket with the stored credentials (a QR code follows when there are none) */
  connect(): Promise<void>;
  /** resolves once every event it received is handed on and its address book and creds are stored */
  settle?(): Promise<void>;
  /** closes the socket, keeping the credentials */
  close(): Promise<void>;
  /** logs the phone out; the caller clears the credentials */
  logout(): Promise<void>;
  /**
   * Sends with exactly `command.wid`. Returns the chat it went to (a contact's `@lid` id when
   * WhatsApp moved it there) and the sent content, kept for retry requests.
   */
  send(command: SendCommand, media?: MediaFile): Promise<{ chatJid: string; content?: unknown }>;
  deleteMessage(ev: { wid: string; to: string; fromMe: boolean }): Promise<void>;
  /** reacts to the message `wid` of the chat `to` (`emoji` empty: takes our reaction back) */
  react(ev: { wid: string; to: string; fromMe: boolean; participant?: string; emoji: string }): Promise<void>;
  /** asks WhatsApp about many numbers in one query; one answer per number asked, in its order */
  checkNumbers(numbers: string[]): Promise<{ number: string; exists: boolean; jid?: string }[]>;
  /** the phone's address book as WhatsApp reported it to this device (see address-book.ts) */
  addressBook(): Promise<AddressBookEntry[]>;
  rejectCall(callId: string, from: string): Promise<void>;
  /**
   * Re-fetches the encryption sessions of a chat (number and LID) and its LID mapping, the usual
   * causes of messages a phone never gets (the undelivered watchdog's repairSession).
   */
  repair(chatJid: string): Promise<void>;
  /** a cheap round trip to WhatsApp (the health monitor's probe); resolves when answered */
  probe(): Promise<void>;
}

export interface Provider {
  name: 'baileys' | 'simulator';
  create(ctx: SessionContext): ProviderSession;
  /** resolves once every session's events are handed on and their writes stored (shutdown) */
  drain?(): Promise<void>;
}
