import { z } from 'zod';

/**
 * The operator's view of the WhatsApp fleet (issue 23, item 6): the session runners, every session
 * that should run with who holds it and why it is in its state. Super users only.
 */

/** Why a session is in its state, in words an operator can act on (the web app words them). */
export const SESSION_REASONS = [
  'connected',
  'connecting',
  'needs_qr',
  'logged_out_on_phone',
  'replaced_by_other_device',
  'banned',
  'version_refused',
  'connection_lost',
  'disconnected',
  'connection_deleted',
] as const;
export type SessionReason = (typeof SESSION_REASONS)[number];

export const FleetRunner = z.object({
  id: z.string(),
  state: z.enum(['running', 'draining']),
  /** sessions it holds, by its last heartbeat */
  sessions: z.number(),
  /** resident memory in bytes, by its last heartbeat */
  rss: z.number(),
  startedAt: z.string(),
  /** its last heartbeat holds until then; past it the runner is dead and its sessions move */
  heartbeatUntil: z.string(),
  alive: z.boolean(),
});
export type FleetRunner = z.infer<typeof FleetRunner>;

export const FleetSession = z.object({
  companyId: z.number(),
  whatsappId: z.number(),
  /** the connection's name; null when the connection no longer exists */
  name: z.string().nullable(),
  /** the runner holding it, if any */
  holder: z.string().nullable(),
  /** whether that holder's heartbeat is fresh */
  holderAlive: z.boolean(),
  /** the connection's stored status (CONNECTED, qrcode ...), null when the connection is gone */
  status: z.string().nullable(),
  reason: z.enum(SESSION_REASONS),
  /** when WhatsApp stopped it for good (it is no longer wanted: a start or a new QR code brings it back) */
  stoppedAt: z.string().nullable(),
  /** while WhatsApp locks new chats from the number (its reach-out lock): until when */
  reachoutLockedUntil: z.string().nullable().optional(),
});
export type FleetSession = z.infer<typeof FleetSession>;

/** A queue of the platform: what waits, what is being worked on, what failed for good. */
export const FleetQueue = z.object({
  name: z.string(),
  /** waiting to be received */
  visible: z.number(),
  /** received and not yet done */
  inFlight: z.number(),
  /** sent with a delay that has not passed */
  delayed: z.number(),
  /** failed every attempt: in the queue's dead-letter queue until redriven */
  deadLetters: z.number(),
});
export type FleetQueue = z.infer<typeof FleetQueue>;

export const FleetView = z.object({
  runners: z.array(FleetRunner),
  sessions: z.array(FleetSession),
  queues: z.array(FleetQueue),
  generatedAt: z.string(),
});
export type FleetView = z.infer<typeof FleetView>;
