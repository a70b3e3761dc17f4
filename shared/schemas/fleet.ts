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
});
export type FleetSession = z.infer<typeof FleetSession>;

export const FleetView = z.object({
  runners: z.array(FleetRunner),
  sessions: z.array(FleetSession),
  generatedAt: z.string(),
});
export type FleetView = z.infer<typeof FleetView>;
