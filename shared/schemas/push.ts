import { z } from 'zod';
import { MSG } from './common';

/**
 * Web Push (issue 25): a device is one browser push subscription (its endpoint), owned by one user,
 * with that user's choice of what is pushed to it.
 */
export const PUSH_KINDS = ['pendingTicket', 'ticketMessage', 'chatMention', 'slaBreach', 'connectionAlert'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

export const PushPreferences = z.object({
  /** a new pending ticket in one of my queues (admins without queues: any) */
  pendingTicket: z.boolean({ error: MSG.required }),
  /** a customer's message on a ticket assigned to me */
  ticketMessage: z.boolean({ error: MSG.required }),
  /** someone wrote `@My Name` in an internal chat I am in */
  chatMention: z.boolean({ error: MSG.required }),
  /** a ticket of mine or of my queues missed its service-level deadline */
  slaBreach: z.boolean({ error: MSG.required }),
  /**
   * (admins) a Cloud API number's quality dropped or Meta lowered its messaging limit. Optional: a
   * device subscribed before this kind existed has it on until its user turns it off.
   */
  connectionAlert: z.boolean().optional(),
});
export type PushPreferences = z.infer<typeof PushPreferences>;

/** Unpadded base64url, as PushSubscription.toJSON() gives the keys (padding tolerated). */
const base64url = (bytes: number, first?: string) => {
  const chars = Math.ceil((bytes * 4) / 3);
  const head = first ? `${first}[A-Za-z0-9_-]{${chars - 1}}` : `[A-Za-z0-9_-]{${chars}}`;
  return new RegExp(`^${head}=*$`);
};

export const PUSH_ENDPOINT_MAX = 2048;
export const PUSH_DEVICE_MAX = 100;

/** What the browser's pushManager.subscribe() gave, plus the device's name and preferences. */
export const PushSubscriptionBody = z.object({
  endpoint: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(PUSH_ENDPOINT_MAX, MSG.long),
  keys: z.object({
    // an uncompressed P-256 point: 65 bytes starting 0x04 (base64url 'B...')
    p256dh: z.string({ error: MSG.required }).regex(base64url(65, 'B'), MSG.invalid),
    // the 16-byte authentication secret
    auth: z.string({ error: MSG.required }).regex(base64url(16), MSG.invalid),
  }),
  device: z.string().trim().max(PUSH_DEVICE_MAX, MSG.long).optional(),
  preferences: PushPreferences,
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

export const PushSubscriptionUpdateBody = z
  .object({
    device: z.string().trim().max(PUSH_DEVICE_MAX, MSG.long).optional(),
    preferences: PushPreferences.partial().optional(),
  })
  .refine((b) => b.device !== undefined || b.preferences !== undefined, { message: MSG.required });
export type PushSubscriptionUpdateBody = z.infer<typeof PushSubscriptionUpdateBody>;

/** A subscription's id: the first 32 hex digits of the sha256 of its endpoint. */
export const pushSubscriptionId = z.string().regex(/^[0-9a-f]{32}$/, MSG.invalid);

/** A device as its owner sees it (the keys never leave the server). */
export const PushDevice = z.object({
  id: z.string(),
  endpoint: z.string(),
  device: z.string(),
  preferences: PushPreferences,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PushDevice = z.infer<typeof PushDevice>;

/** GET /push/config: the VAPID public key the browser subscribes with (applicationServerKey). */
export interface PushConfig {
  publicKey: string;
}

/** What a device receives (the service worker shows title and body, and opens url on click). */
export interface PushPayload {
  title: string;
  body: string;
  /** `/tickets/<uuid>`, `/chats/<uuid>` or `/connections` */
  url: string;
  /** one notification per ticket or chat: a newer one replaces it */
  tag: string;
  kind: PushKind;
}
