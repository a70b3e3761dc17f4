/**
 * The contract between the API (functions/) and the session runner (session-runner/).
 *
 * - Commands go from the API to the runner on the FIFO queue `session-commands`, grouped by
 *   connection (`company#<companyId>#whatsapp#<whatsappId>`), deduplicated by `commandId`; a
 *   contact list's number checks go in a lane of their own (`commandLane`).
 * - Provider events go from the runner to the API on the FIFO queue `inbound`, grouped by
 *   `company#connection#chat` and deduplicated by the WhatsApp message id (plus the kind of event),
 *   so a message and its later status updates stay in order.
 */
import type { ConnectionStatus } from './constants';
import type { ConnectionHealth } from './schemas/whatsapp';

export const COMMAND_QUEUE = 'session-commands';
/** API -> the Cloud API sender (jobs/cloud-send): the same `send` commands, for connections of provider `cloud` */
export const CLOUD_COMMAND_QUEUE = 'cloud-commands';
/** delayed copies of sends routed to WhatsApp Web on a connection with both transports (messages/failover.ts) */
export const TRANSPORT_FAILOVER_QUEUE = 'transport-failover';
export const INBOUND_QUEUE = 'inbound';

export const commandGroupId = (companyId: number, whatsappId: number) => `company#${companyId}#whatsapp#${whatsappId}`;
/**
 * The FIFO group a command goes in: a contact list's batched checks (paced, see the runner) in a
 * lane of their own beside the connection's, so they never hold a send back. A single check (an API
 * caller waiting for its answer) stays in the connection's lane.
 */
export const commandLane = (command: Pick<SessionCommand, 'type' | 'companyId' | 'whatsappId'>) =>
  command.type === 'checkNumbers'
    ? `${commandGroupId(command.companyId, command.whatsappId)}#checks`
    : commandGroupId(command.companyId, command.whatsappId);
/** Numbers asked of WhatsApp in one query (a contact list's checks go in batches of this). */
export const CHECK_BATCH = 50;
/**
 * Why a number check could not be made: the session is not connected, the provider failed, or
 * WhatsApp refused it with a restriction (rate-overlimit, 429, 463), which stops the connection's
 * checks for the day.
 */
export type NumberCheckError = 'ERR_WAPP_NOT_INITIALIZED' | 'ERR_WAPP_CHECK_CONTACT' | 'ERR_NUMBER_CHECK_RESTRICTED';
/** Whether a provider's failure of a number check is WhatsApp refusing it with a restriction. */
export function isCheckRestriction(err: unknown) {
  const e = err as
    | { message?: string; output?: { statusCode?: number }; data?: { code?: number | string } }
    | undefined;
  const code = Number(e?.output?.statusCode ?? e?.data?.code);
  return code === 429 || code === 463 || /rate-overlimit|\b463\b/i.test(e?.message ?? '');
}
export const inboundGroupId = (companyId: number, whatsappId: number, chatJid: string) =>
  `${companyId}#${whatsappId}#${chatJid}`;
/** Dedup ids of the `inbound` queue for a message and for each ack value of it (every transport uses these). */
export const messageDedupId = (companyId: number, wid: string) => `${companyId}:${wid}:message`;
/** By outcome: a redelivered send answered "sent" must not swallow the first attempt's later failure. */
export const sendResultDedupId = (companyId: number, messageId: string, error?: string) =>
  `${companyId}:${messageId}:sendResult:${error ?? 'sent'}`;
export const ackDedupId = (companyId: number, wid: string, ack: number, error?: string) =>
  `${companyId}:${wid}:ack:${error ? 'failed' : ack}`;
/** A template's change (Cloud API): one per connection, template, event and time Meta sent it. */
export const templateStatusRouting = (e: Extract<InboundEvent, { type: 'templateStatus' }>) => ({
  groupId: inboundGroupId(e.companyId, e.whatsappId, 'templates'),
  dedupId: `${e.companyId}:${e.whatsappId}:template:${e.templateId}:${e.event}:${e.at}`,
});

/** An inbound event whose JSON is larger than this goes through storage as a claim check (SQS: 256 KiB). */
export const INBOUND_INLINE_MAX_BYTES = 240 * 1024;

/** What WhatsApp told a WhatsApp Web session about its limits (Baileys' reachoutTimeLock and message capping). */
export interface SessionRestriction {
  /** `active` false: lifted; `until` (ISO) when it ends; `type` WhatsApp's enforcement type */
  reachoutLock?: { active: boolean; until?: string; type?: string };
  /** new chats allowed in the cycle, used so far, and when the cycle ends (ISO) */
  newChatQuota?: { total: number; used: number; endsAt?: string };
}

/** A message's price category as a Cloud API status reports it; `charged` false for Meta's free ones. */
export interface MessagePricing {
  category: string;
  charged: boolean;
  /** the status's time, seconds */
  at: number;
}

/** A number's quality event (Cloud API): one per connection, event and time Meta sent it. */
export const numberQualityRouting = (e: Extract<InboundEvent, { type: 'numberQuality' }>) => ({
  groupId: inboundGroupId(e.companyId, e.whatsappId, 'quality'),
  dedupId: `${e.companyId}:${e.whatsappId}:quality:${e.event}:${e.at}`,
});

/** Why a provider refused a message (the Cloud API's error code and title). */
export interface ProviderError {
  code: number;
  title: string;
}

interface CommandBase {
  commandId: string;
  companyId: number;
  whatsappId: number;
}

export type MediaKind = 'image' | 'audio' | 'video' | 'document' | 'sticker';

export type SessionCommand =
  | (CommandBase & { type: 'start' })
  | (CommandBase & { type: 'newQr' })
  | (CommandBase & { type: 'disconnect' })
  /** pause the session, keeping its keys (an expired company); `start` resumes without a new QR */
  | (CommandBase & { type: 'stop' })
  | (CommandBase & {
      type: 'send';
      /** our message id, so the runner's result updates the right stored message */
      messageId: string;
      /**
       * The WhatsApp id to send with, assigned by the API when it stores the message: every ack,
       * echo and retry about the message then carries a key the store already has (ARCHITECTURE.md
       * "Identity of a message"), and a redelivered command is recognised by it.
       */
      wid: string;
      ticketId: number;
      /** `5511999999999@s.whatsapp.net`, a `@lid` id, or a group `@g.us` id */
      to: string;
      body: string;
      /** object key in the media bucket (under the company's prefix) */
      media?: { key: string; mimetype: string; fileName: string; kind: MediaKind; ptt?: boolean };
      /** WhatsApp id of the quoted message */
      quotedWid?: string;
      /** the quoted message was ours (the quote is then credited to this phone) */
      quotedFromMe?: boolean;
      /** in groups, who wrote the quoted message */
      quotedParticipant?: string;
      /** the quoted message's text, shown inside the quote */
      quotedBody?: string;
      /**
       * A connection with a Cloud API transport: a runner that cannot send now leaves the send
       * (no failure reported): its failover check moves it to the Cloud API (messages/failover.ts)
       */
      fallback?: boolean;
      /** Cloud API only: an approved template with its variables' values (`body` is its text, for the record) */
      template?: {
        name: string;
        language: string;
        named: boolean;
        header: { name: string; value: string }[];
        body: { name: string; value: string }[];
      };
    })
  | (CommandBase & { type: 'delete'; messageId: string; wid: string; to: string; fromMe: boolean })
  /** a reaction of ours to a message of the chat (`emoji` empty: our reaction taken back) */
  | (CommandBase & {
      type: 'react';
      messageId: string;
      /** the message reacted to: its WhatsApp id, whether it was ours, its author in a group */
      wid: string;
      fromMe: boolean;
      participant?: string;
      to: string;
      emoji: string;
    })
  | (CommandBase & { type: 'checkNumber'; number: string; replyTo: string })
  /** up to CHECK_BATCH numbers in one query; answered by one `checkNumberResults` event */
  | (CommandBase & { type: 'checkNumbers'; checks: { number: string; replyTo: string }[] })
  /** POST /contacts/import: the phone's address book comes back as `addressBook` events */
  | (CommandBase & { type: 'importContacts'; requestId: string })
  | (CommandBase & { type: 'rejectCall'; callId: string; from: string })
  /**
   * Several messages to this chat got no delivery ack (the undelivered watchdog): re-fetch the
   * chat's encryption sessions and its LID mapping, the usual causes of messages a phone never gets.
   */
  | (CommandBase & { type: 'repairSession'; ticketId: number; to: string });

export type NormalizedMediaType =
  | 'chat'
  | 'image'
  | 'audio'
  | 'video'
  | 'document'
  | 'sticker'
  | 'locationMessage'
  | 'vcard'
  | 'call_log'
  | 'application';

/** A message as the runner hands it to the API, whatever the provider. */
export interface InboundMessage {
  /** WhatsApp message id */
  wid: string;
  /** chat id: the contact's jid, or the group's jid */
  chatJid: string;
  /** the contact's other id when WhatsApp gave both (`@lid` and `@s.whatsapp.net`) */
  chatAltJid?: string;
  fromMe: boolean;
  isGroup: boolean;
  /** in groups, who wrote it */
  participantJid?: string;
  participantName?: string;
  pushName?: string;
  body: string;
  mediaType: NormalizedMediaType;
  /** object key in the media bucket, when media was downloaded */
  media?: { key: string; mimetype: string; fileName?: string; size?: number };
  /** set when the media could not be downloaded (ERR_WAPP_DOWNLOAD_MEDIA) */
  mediaError?: string;
  /**
   * Cloud API media: the id Meta's webhook gave. The inbound consumer fetches it (the id lives 7
   * days, its download URL 5 minutes) and stores it like the runner's media, then sets `media`.
   */
  cloudMedia?: { id: string; mimetype: string; fileName?: string };
  quotedWid?: string;
  /** seconds since epoch, as WhatsApp gives it */
  timestamp: number;
  /** the contact's profile picture URL when the runner fetched it */
  profilePicUrl?: string;
  /** a number with both transports: the Cloud API's webhook brought it (shown on the message) */
  transport?: 'web' | 'cloud';
  /**
   * Never sent by a transport: the inbound consumer's placeholder for an `undecryptable` event
   * (stored flagged, body empty; the real message with the same wid replaces it).
   */
  undecryptable?: true;
}

/**
 * A contact's message that reached the session but could not be decrypted (Baileys' CIPHERTEXT
 * stub; WhatsApp asks the sender's phone to send it again, usually with the same id): who wrote and
 * when, no content. Never our own (a stub of a message we sent is a copy, not a loss).
 */
export interface UndecryptableMessage {
  wid: string;
  chatJid: string;
  chatAltJid?: string;
  isGroup: boolean;
  participantJid?: string;
  participantName?: string;
  pushName?: string;
  /** seconds since epoch, as WhatsApp gives it */
  timestamp: number;
  /** the provider's reason (e.g. `Bad MAC`), for the logs */
  reason?: string;
}

/**
 * Who sent an edit or a revoke: our phone (`fromMe`) may change our messages, a contact only its own
 * (in groups, the same participant). Absent `fromMe` counts as a contact.
 */
export interface EditSender {
  fromMe?: boolean;
  participantJid?: string;
}

export type InboundEvent =
  | { type: 'message'; companyId: number; whatsappId: number; message: InboundMessage }
  | {
      type: 'ack';
      companyId: number;
      whatsappId: number;
      wid: string;
      chatJid: string;
      ack: number;
      /** WhatsApp refused a message it had accepted (status 0, e.g. 463): the message was not delivered */
      error?: 'ERR_SENDING_WAPP_MSG';
      /** the provider's own reason, when it gives one (Cloud API `failed` statuses: Meta's code and title) */
      providerError?: ProviderError;
      /** what Meta prices the message as (Cloud API statuses): counted once per message, in the month of `at` */
      pricing?: MessagePricing;
    }
  | ({ type: 'edit'; companyId: number; whatsappId: number; wid: string; chatJid: string; body: string } & EditSender)
  | ({ type: 'revoke'; companyId: number; whatsappId: number; wid: string; chatJid: string } & EditSender)
  /**
   * A reaction to the message `wid` (`emoji` empty: taken back), by our phone (`fromMe`) or a contact;
   * `reactionId` is the reaction's own WhatsApp id (its repeats are dropped by it).
   */
  | ({
      type: 'reaction';
      companyId: number;
      whatsappId: number;
      wid: string;
      chatJid: string;
      emoji: string;
      reactionId: string;
    } & EditSender)
  /** shown in the ticket as a placeholder until the real message (same wid) replaces it */
  | ({ type: 'undecryptable'; companyId: number; whatsappId: number } & UndecryptableMessage)
  | {
      type: 'sendResult';
      companyId: number;
      whatsappId: number;
      messageId: string;
      ticketId: number;
      /** the chat it went to: the result shares the FIFO group of that chat's acks, so it lands first */
      chatJid?: string;
      /** the id the message went out with; a provider that names messages itself (the Cloud API) gives a new one */
      wid?: string;
      ack: number;
      error?: 'ERR_SENDING_WAPP_MSG';
      providerError?: ProviderError;
    }
  | {
      type: 'checkNumberResult';
      companyId: number;
      whatsappId: number;
      number: string;
      jid?: string;
      exists: boolean;
      replyTo: string;
      /** the check could not be made (session not connected, provider failure, WhatsApp refused it with a restriction) */
      error?: NumberCheckError;
    }
  | {
      type: 'checkNumberResults';
      companyId: number;
      whatsappId: number;
      results: { number: string; replyTo: string; exists: boolean; jid?: string }[];
      error?: NumberCheckError;
    }
  | {
      type: 'call';
      companyId: number;
      whatsappId: number;
      callId: string;
      from: string;
      /** the caller's number jid when `from` is a `@lid` id */
      fromAlt?: string;
      timestamp: number;
    }
  | {
      type: 'session';
      companyId: number;
      whatsappId: number;
      status: ConnectionStatus;
      qrcode?: string;
      retries?: number;
      /** the connected phone's number */
      number?: string;
    }
  | { type: 'lidMapping'; companyId: number; whatsappId: number; lid: string; pn: string }
  | {
      type: 'addressBook';
      companyId: number;
      whatsappId: number;
      requestId: string;
      /** one part of at most ADDRESS_BOOK_PART entries; `part` counts from 1 */
      part: number;
      parts: number;
      contacts: AddressBookEntry[];
    }
  /** the session health monitor's counters: on every change of state, else at most every few seconds */
  | { type: 'health'; companyId: number; whatsappId: number; health: ConnectionHealth }
  /** Meta changed a message template of the connection's WhatsApp Business Account (Cloud API) */
  | {
      type: 'templateStatus';
      companyId: number;
      whatsappId: number;
      templateId: string;
      name: string;
      language: string;
      /** Meta's `event`: the new status (APPROVED, PAUSED ...) or what happened (UNARCHIVED, DELETED ...) */
      event: string;
      reason?: string;
      /** when Meta sent it (seconds): an older event never overwrites a newer one */
      at: number;
    }
  /**
   * WhatsApp's warnings before a ban (WhatsApp Web): the reach-out lock (no new chats until `until`)
   * and the new-chat quota of the current cycle; each field present is the news, absent is unchanged
   */
  | ({ type: 'restriction'; companyId: number; whatsappId: number } & SessionRestriction)
  /**
   * An event too large for the queue (SQS takes 256 KiB: a contacts card with photos, a long text),
   * stored as JSON at `key` and put on the queue as this claim check, in the event's own group and
   * with its own dedup id
   */
  | { type: 'claimCheck'; companyId: number; whatsappId: number; key: string; of: string; bytes: number }
  /** Meta flagged, unflagged or re-tiered a Cloud API number (webhook `phone_number_quality_update`) */
  | {
      type: 'numberQuality';
      companyId: number;
      whatsappId: number;
      /** FLAGGED, UNFLAGGED, UPGRADE, DOWNGRADE, THROUGHPUT_UPGRADE, ONBOARDING ... */
      event: string;
      /** the portfolio's messaging limit now, when the event tells it (-1: unlimited) */
      messagingLimit?: number;
      /** when Meta sent it (seconds): an older event never overwrites a newer one */
      at: number;
    };

/** Ack values (attendance.md 2.5): 0 pending, 1 sent, 2 delivered, 3 read, 4/5 played. */
export const ACK = { pending: 0, sent: 1, delivered: 2, read: 3, played: 4 } as const;

/** A phone address-book entry: digits only, and the name saved on the phone (or the contact's own). */
export interface AddressBookEntry {
  number: string;
  name: string;
}

/** Entries per `addressBook` event (an SQS message holds 256 KB). */
export const ADDRESS_BOOK_PART = 500;
