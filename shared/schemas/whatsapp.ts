import { z } from 'zod';
import { CONNECTION_PROVIDERS, CONNECTION_STATUSES } from '../constants';
import { TRANSPORTS } from '../transports';
import { bodyId, bodyInt, name2to50, nullableBodyId, queryBool, MSG } from './common';

/**
 * Why a session last closed, as the runner classifies the close code (session-runner close-policy):
 * the web app turns each into plain language with the fix.
 */
export const DISCONNECT_REASONS = [
  'loggedOut',
  'forbidden',
  'banned',
  'tempBanned',
  'clientTooOld',
  'badUserAgent',
  'multiDeviceMismatch',
  'restartRequired',
  'replaced',
  'connectionLost',
  'timedOut',
  'qrExpired',
  'silent',
  'unknown',
] as const;
export type DisconnectReason = (typeof DISCONNECT_REASONS)[number];

/** The session health monitor's view of one connection (issue 15), reported by the runner. */
export const ConnectionHealth = z.object({
  /** when the runner started watching this session: the counters count from here */
  since: z.string(),
  lastInboundAt: z.string().optional(),
  lastOutboundAt: z.string().optional(),
  lastAckAt: z.string().optional(),
  /** the last answered round-trip probe and how long it took */
  lastProbeAt: z.string().optional(),
  probeMs: z.number().optional(),
  reconnects: z.number(),
  /** "connected but silent" sockets the runner restarted */
  zombieRestarts: z.number(),
  /** messages WhatsApp delivered that could not be decrypted (Baileys asks the sender again; "waiting for this message") */
  undecryptable: z.number().optional(),
  lastDisconnect: z
    .object({ reason: z.enum(DISCONNECT_REASONS), code: z.number().optional(), at: z.string() })
    .optional(),
  updatedAt: z.string(),
});
export type ConnectionHealth = z.infer<typeof ConnectionHealth>;

/** A WhatsApp connection (management.md section 3) as the API returns it. */
export const Whatsapp = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  status: z.enum(CONNECTION_STATUSES),
  isDefault: z.boolean(),
  qrcode: z.string().optional(),
  retries: z.number(),
  updatedAt: z.string(),
  createdAt: z.string(),
  greetingMessage: z.string(),
  complationMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  token: z.string().optional(),
  provider: z.string(),
  expiresInactiveMessage: z.string(),
  expiresTicket: z.number(),
  timeUseBotQueues: z.number(),
  maxUseBotQueues: z.number(),
  timeToTransfer: z.number().nullable(),
  transferQueueId: z.number().nullable(),
  promptId: z.number().nullable(),
  queueIds: z.array(z.number()),
  queues: z.array(z.object({ id: z.number(), name: z.string(), color: z.string().optional() })).optional(),
  /** the connected phone's number, once connected */
  number: z.string().optional(),
  /** session health, only for who may see the QR code */
  health: ConnectionHealth.optional(),
  /** Cloud API connections (provider `cloud`): Meta's ids of the number and its business account */
  phoneNumberId: z.string().optional(),
  wabaId: z.string().optional(),
  /** the system-user token and the app secret, always masked (`********` and their last 4 characters) */
  accessToken: z.string().optional(),
  appSecret: z.string().optional(),
  /** what Meta's webhook verification must present; only for who may edit the connection */
  verifyToken: z.string().optional(),
  /** why a Cloud API number is not CONNECTED (the Graph API's answer, in plain words) */
  statusReason: z.enum(['tokenExpired', 'numberNotRegistered', 'accountRestricted', 'graphUnavailable']).optional(),
  /** when the message templates were last synced from the WhatsApp Business Account (Cloud API) */
  templatesSyncedAt: z.string().optional(),
  /**
   * Meta's messaging limit of the number's business portfolio (Cloud API): how many customers it may
   * message outside their 24-hour window in a moving 24 hours; -1 is unlimited. Read with the number
   * (`whatsapp_business_manager_messaging_limit`); unknown until then.
   */
  cloudMessagingLimit: z.number().optional(),
  /** the number's quality rating as Meta last reported it: GREEN, YELLOW, RED or UNKNOWN (Cloud API) */
  cloudQuality: z.string().optional(),
  /** Meta's last quality event of the number (FLAGGED, UNFLAGGED, UPGRADE, DOWNGRADE ...) and when it came */
  cloudQualityEvent: z.string().optional(),
  cloudQualityEventAt: z.string().optional(),
  /**
   * WhatsApp Web's warnings before a ban: WhatsApp locked new chats from this number until
   * `reachoutLockedUntil` (with its enforcement type), and the new-chat quota of the current cycle.
   * Campaigns on the connection wait while either holds.
   */
  reachoutLockedUntil: z.string().optional(),
  reachoutType: z.string().optional(),
  newChatQuota: z.object({ total: z.number(), used: z.number(), endsAt: z.string().optional() }).optional(),
  /**
   * A WhatsApp Web connection's second transport (one number, two transports): the same number on
   * the Cloud API, attached after the product checked both are one number. Its credentials are the
   * connection's Cloud API fields above; its own status and reason here (`status` stays the Web
   * session's).
   */
  cloudTransport: z
    .object({
      status: z.enum(CONNECTION_STATUSES),
      statusReason: z.enum(['tokenExpired', 'numberNotRegistered', 'accountRestricted', 'graphUnavailable']).optional(),
      attachedAt: z.string(),
    })
    .optional(),
  /** with both transports: which one in-window replies go through while it is up (default `web`) */
  preferredTransport: z.enum(TRANSPORTS).optional(),
});
export type Whatsapp = z.infer<typeof Whatsapp>;

const text = z.string().max(4096, MSG.long);
const minutes = bodyInt.pipe(z.number().min(0, MSG.invalid));
const nullableId = nullableBodyId;

/** Custom API tokens must not be guessable: the generated ones are 43 characters. */
export const API_TOKEN_MIN = 16;

/** Meta's numeric ids (phone number, WhatsApp Business Account). */
const cloudId = z
  .string()
  .trim()
  .regex(/^\d{5,25}$/, MSG.invalid);
const cloudSecret = z.string().trim().max(1000, MSG.long);

/** The add/edit connection modal's body (management.md sections 5 and 7). */
export const WhatsappBody = z.object({
  name: name2to50,
  isDefault: z.boolean().optional(),
  greetingMessage: text.optional(),
  complationMessage: text.optional(),
  outOfHoursMessage: text.optional(),
  ratingMessage: text.optional(),
  /** a new API token (at least 16 characters); empty or absent keeps the current one, or generates one */
  token: z.union([z.literal(''), z.string().trim().min(API_TOKEN_MIN, MSG.short).max(200, MSG.long)]).optional(),
  /** fixed once the connection exists */
  provider: z.enum(CONNECTION_PROVIDERS).optional(),
  /** provider `cloud`: all four required on creation; a masked or empty secret keeps the stored one */
  phoneNumberId: cloudId.optional(),
  wabaId: cloudId.optional(),
  accessToken: cloudSecret.optional(),
  appSecret: cloudSecret.optional(),
  /** provider `cloud`: generated when absent */
  verifyToken: z.union([z.literal(''), z.string().trim().min(API_TOKEN_MIN, MSG.short).max(200, MSG.long)]).optional(),
  expiresInactiveMessage: text.optional(),
  expiresTicket: minutes.optional(),
  timeUseBotQueues: minutes.optional(),
  maxUseBotQueues: minutes.optional(),
  timeToTransfer: z.union([z.null(), z.literal('').transform(() => null), minutes]).optional(),
  transferQueueId: nullableId.optional(),
  promptId: nullableId.optional(),
  queueIds: z.array(bodyId).max(200).optional(),
});
export type WhatsappBody = z.infer<typeof WhatsappBody>;

/**
 * `POST /whatsapp/{id}/cloud-transport`: the Cloud API credentials of the number a WhatsApp Web
 * connection already has; `PUT` changes the preferred transport and may rotate the secrets (a masked
 * or empty secret keeps the stored one).
 */
export const CloudTransportBody = z.object({
  phoneNumberId: cloudId,
  wabaId: cloudId,
  accessToken: cloudSecret,
  appSecret: cloudSecret,
  verifyToken: z.union([z.literal(''), z.string().trim().min(API_TOKEN_MIN, MSG.short).max(200, MSG.long)]).optional(),
  preferredTransport: z.enum(TRANSPORTS).optional(),
});
export type CloudTransportBody = z.infer<typeof CloudTransportBody>;
export const CloudTransportUpdateBody = CloudTransportBody.omit({ phoneNumberId: true }).partial();
export type CloudTransportUpdateBody = z.infer<typeof CloudTransportUpdateBody>;

/** `PUT` accepts any subset of the fields. */
export const WhatsappUpdateBody = WhatsappBody.partial();
export type WhatsappUpdateBody = z.infer<typeof WhatsappUpdateBody>;

/** `session=0` leaves the QR code out (management.md section 7). */
export const WhatsappQuery = z.object({
  session: z.union([z.literal('0'), z.literal('1'), queryBool]).optional(),
  companyId: z.coerce.number().optional(),
});

/** External messages API (`POST /api/messages/send`). */
export const ExternalSendBody = z.object({
  number: z
    .string({ error: MSG.required })
    .trim()
    .regex(/^\+?[\d\s().-]{8,30}$/, MSG.invalid),
  body: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(4096, MSG.long),
});
export type ExternalSendBody = z.infer<typeof ExternalSendBody>;

/** Keeps only the digits of a phone number (the WhatsApp user part of a jid). */
export const digitsOnly = (number: string) => number.replace(/\D/g, '');

export type CloudStatusReason = NonNullable<Whatsapp['statusReason']>;
