import { z } from 'zod';
import { MSG, name2to50, nullableBodyId } from './common';
import { TemplateSendInput, type MessageTemplate } from './whatsapp-templates';

/**
 * Campaigns (management.md "Campaigns", 3, 4, 5, 7, 9). Statuses of section 4, plus PAUSADA: the
 * ban-risk limiter stopped the campaign with a reason (`pauseReason`); restart resumes it.
 */
export const CAMPAIGN_STATUSES = [
  'INATIVA',
  'PROGRAMADA',
  'EM_ANDAMENTO',
  'CANCELADA',
  'FINALIZADA',
  'PAUSADA',
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Why the limiter paused a campaign (and the connection): too many failed sends, or acks stopped coming. */
export const PAUSE_REASONS = ['failures', 'noAcks', 'connectionPaused'] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

/** Why a running campaign is waiting right now (shown beside EM_ANDAMENTO). */
export const WAIT_REASONS = ['dailyCap', 'connectionDown', 'reachoutLock', 'newChatQuota'] as const;
export type WaitReason = (typeof WAIT_REASONS)[number];

export const CAMPAIGN_MESSAGE_FIELDS = ['message1', 'message2', 'message3', 'message4', 'message5'] as const;

/** The editable window: more than this before scheduledAt (management.md 4, 9). */
export const CAMPAIGN_EDIT_WINDOW_MS = 60 * 60 * 1000;

export interface CampaignCounters {
  /** contacts planned (valid WhatsApp numbers, one per number) */
  validContacts: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
}

export interface Campaign extends CampaignCounters {
  id: number;
  companyId: number;
  name: string;
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  status: CampaignStatus;
  scheduledAt: string | null;
  completedAt: string | null;
  whatsappId: number | null;
  contactListId: number | null;
  tagId: number | null;
  /** the audience as a contact segment: its contacts when the campaign is planned (shared/schemas/segments.ts) */
  segmentId?: number | null;
  fileListId: number | null;
  mediaPath: string | null;
  mediaName: string | null;
  /**
   * A Cloud API connection's campaign sends this approved template (Meta takes nothing else from a
   * business to customers outside their 24-hour window); its values may use the message variables.
   */
  template?: MessageTemplate | null;
  mediaUrl?: string;
  contactList?: { id: number; name: string } | null;
  segment?: { id: number; name: string } | null;
  whatsapp?: { id: number; name: string } | null;
  pauseReason?: PauseReason | null;
  waitReason?: WaitReason | null;
  /** when a waiting campaign goes on (the next day, for the daily cap) */
  resumeAt?: string | null;
  startedAt?: string | null;
  createdAt: string;
  updatedAt: string;
}

const message = z
  .string()
  .max(4096, MSG.long)
  .optional()
  .nullable()
  .transform((v) => v ?? '');
const scheduledAt = z
  .union([z.null(), z.literal('').transform(() => null), z.string()])
  .optional()
  .refine((v) => v === undefined || v === null || !Number.isNaN(Date.parse(v)), MSG.invalid)
  .transform((v) => (v ? new Date(v).toISOString() : v));

/**
 * The campaign form: name 2-50 (section 5); up to five message variants, at least one filled; a
 * contact list, a contact segment or a tag as the audience (`tagListId` is the form's name for `tagId`); a connection;
 * optional file list and scheduledAt (a date makes it PROGRAMADA, none leaves it INATIVA).
 */
export const CampaignBody = z
  .object({
    name: name2to50,
    message1: message,
    message2: message,
    message3: message,
    message4: message,
    message5: message,
    whatsappId: nullableBodyId.optional(),
    contactListId: nullableBodyId.optional(),
    tagId: nullableBodyId.optional(),
    tagListId: nullableBodyId.optional(),
    segmentId: nullableBodyId.optional(),
    fileListId: nullableBodyId.optional(),
    /** required for a Cloud API connection (the messages are then not used); refused for WhatsApp Web */
    template: TemplateSendInput.nullable().optional(),
    scheduledAt,
    /** accepted and ignored: the server derives the status */
    status: z.string().optional(),
  })
  .transform(({ tagListId, status: _status, ...rest }) => ({ ...rest, tagId: rest.tagId ?? tagListId }))
  .superRefine((v, ctx) => {
    if (!v.template && !CAMPAIGN_MESSAGE_FIELDS.some((f) => v[f].trim()))
      ctx.addIssue({ code: 'custom', path: ['message1'], message: MSG.required });
    if (!v.whatsappId) ctx.addIssue({ code: 'custom', path: ['whatsappId'], message: MSG.required });
    if (!v.contactListId && !v.tagId && !v.segmentId)
      ctx.addIssue({ code: 'custom', path: ['contactListId'], message: MSG.required });
  });
export type CampaignBody = z.infer<typeof CampaignBody>;

export const CampaignsQuery = z.object({
  cursor: z.string().optional(),
  pageNumber: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
  searchParam: z.string().trim().toLowerCase().max(100).optional(),
});

/** Campaign settings (management.md 9): seconds, each from its list of options. */
export const MESSAGE_INTERVAL_OPTIONS = [0, 5, 10, 15, 20] as const;
export const LONGER_INTERVAL_OPTIONS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;
export const CAMPAIGN_SETTINGS_DEFAULTS = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [] as { key: string; value: string }[],
};
export type CampaignSettings = typeof CAMPAIGN_SETTINGS_DEFAULTS;

const oneOf = (options: readonly number[]) => z.coerce.number().refine((v) => options.includes(v), MSG.invalid);

export const CampaignVariable = z.object({
  key: z.string().trim().min(1, MSG.required).max(50, MSG.long).regex(/^\w+$/, MSG.invalid),
  value: z.string().max(1000, MSG.long),
});

/** POST /campaign-settings `{ settings }`: a shortcut key already in use is refused (section 5). */
export const CampaignSettingsBody = z.object({
  settings: z
    .object({
      messageInterval: oneOf(MESSAGE_INTERVAL_OPTIONS),
      longerIntervalAfter: oneOf(LONGER_INTERVAL_OPTIONS),
      greaterInterval: oneOf(LONGER_INTERVAL_OPTIONS),
      variables: z
        .array(CampaignVariable)
        .max(50, MSG.long)
        .refine((vs) => new Set(vs.map((v) => v.key.toLowerCase())).size === vs.length, MSG.invalid),
    })
    .partial(),
});

/** GET /campaign-settings: a list of key and JSON-encoded value (section 7). */
export type CampaignSettingsList = { key: keyof CampaignSettings; value: string }[];

/**
 * One contact's send (the campaign's `shipping` entries). `skipped`: the contact was left out, never
 * sent to; `error` says why (SHIPPING_SKIP_REASONS).
 */
export type ShippingStatus = 'pending' | 'sending' | 'sent' | 'failed' | 'skipped';
/** Why a contact of the audience was left out: `noNumber`, WhatsApp knows it only by a `@lid` id or username. */
export const SHIPPING_SKIP_REASONS = ['noNumber'] as const;
export interface Shipping {
  number: string;
  name: string;
  status: ShippingStatus;
  /** the message variant chosen for this contact (1-5) */
  variant: number;
  messageId: string | null;
  sentAt: string | null;
  deliveredAt: string | null;
  readAt: string | null;
  error: string | null;
}

/** GET /campaigns/{id}/report: progress = delivered / valid contacts, as a percentage. */
export interface CampaignReport extends CampaignCounters {
  campaign: Campaign;
  progress: number;
  shipping: Shipping[];
  hasMore: boolean;
  cursor?: string;
}

/** The ban-risk limiter's state of one connection (GET /campaigns/limits). */
export interface ConnectionLimit {
  whatsappId: number;
  name: string;
  /**
   * sends allowed today: the daily cap, lower while the number warms up; on a Cloud API number its
   * business portfolio's messaging limit, null when Meta set none
   */
  dailyCap: number | null;
  sentToday: number;
  warmingUp: boolean;
  /** days since the connection was created */
  ageDays: number;
  pausedReason: PauseReason | null;
  pausedAt: string | null;
  /** number checks ("is this number on WhatsApp?") left today: 0 while restricted; null on a Cloud API number (it makes none) */
  checksLeftToday: number | null;
}
