import { z } from 'zod';

/**
 * Meta's WhatsApp Business Cloud API as this product reads it: the webhook's JSON (`messages`
 * field) and the Graph API answers of the few endpoints used. Lenient where Meta adds fields
 * (unknown keys pass), strict where we depend on a value.
 * Reference: developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/
 */

const MediaRef = z.object({
  id: z.string(),
  mime_type: z.string().optional(),
  sha256: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
  voice: z.boolean().optional(),
});

export const CloudWebhookMessage = z.object({
  from: z.string(),
  id: z.string(),
  timestamp: z.string(),
  type: z.string(),
  text: z.object({ body: z.string() }).optional(),
  image: MediaRef.optional(),
  audio: MediaRef.optional(),
  video: MediaRef.optional(),
  document: MediaRef.optional(),
  sticker: MediaRef.optional(),
  location: z
    .object({
      latitude: z.number(),
      longitude: z.number(),
      name: z.string().optional(),
      address: z.string().optional(),
    })
    .optional(),
  reaction: z.object({ message_id: z.string(), emoji: z.string().optional() }).optional(),
  /** `type: contacts`: the cards a customer shared (many fields may be left out) */
  contacts: z
    .array(
      z.object({
        name: z
          .object({
            formatted_name: z.string().optional(),
            first_name: z.string().optional(),
            last_name: z.string().optional(),
          })
          .partial()
          .optional(),
        phones: z
          .array(z.object({ phone: z.string().optional(), wa_id: z.string().optional(), type: z.string().optional() }))
          .optional(),
        emails: z.array(z.object({ email: z.string().optional(), type: z.string().optional() })).optional(),
        org: z.object({ company: z.string().optional(), title: z.string().optional() }).optional(),
      }),
    )
    .max(300)
    .optional(),
  button: z.object({ text: z.string(), payload: z.string().optional() }).optional(),
  interactive: z
    .object({
      type: z.string(),
      button_reply: z.object({ id: z.string(), title: z.string() }).optional(),
      list_reply: z.object({ id: z.string(), title: z.string(), description: z.string().optional() }).optional(),
    })
    .optional(),
  context: z.object({ id: z.string().optional(), from: z.string().optional() }).optional(),
});
export type CloudWebhookMessage = z.infer<typeof CloudWebhookMessage>;

export const CLOUD_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;

export const CloudError = z.object({
  code: z.number(),
  title: z.string().optional(),
  message: z.string().optional(),
  error_data: z.object({ details: z.string().optional() }).optional(),
});

export const CloudWebhookStatus = z.object({
  id: z.string(),
  /** other values (`deleted`, `warning`, newer ones) are ignored */
  status: z.string(),
  timestamp: z.string(),
  recipient_id: z.string(),
  errors: z.array(CloudError).optional(),
  /**
   * Per-message pricing (`pricing_model` PMP): `category` marketing, utility, authentication,
   * service ...; `type` `regular` is charged, `free_customer_service` and `free_entry_point` are not
   * (`billable`, deprecated, said the same before `type`).
   */
  pricing: z
    .object({
      category: z.string().optional(),
      type: z.string().optional(),
      billable: z.boolean().optional(),
      pricing_model: z.string().optional(),
    })
    .optional(),
});
export type CloudWebhookStatus = z.infer<typeof CloudWebhookStatus>;

export const CloudWebhookValue = z.object({
  messaging_product: z.literal('whatsapp').optional(),
  metadata: z.object({ display_phone_number: z.string().optional(), phone_number_id: z.string() }),
  contacts: z
    .array(z.object({ wa_id: z.string(), profile: z.object({ name: z.string().optional() }).optional() }))
    .optional(),
  messages: z.array(CloudWebhookMessage).optional(),
  /** Coexistence (field `smb_message_echoes`): what the business sent from the WhatsApp Business app */
  message_echoes: z.array(CloudWebhookMessage.extend({ to: z.string() })).optional(),
  statuses: z.array(CloudWebhookStatus).optional(),
});
export type CloudWebhookValue = z.infer<typeof CloudWebhookValue>;

export const CloudWebhook = z.object({
  object: z.string(),
  entry: z.array(
    z.object({
      id: z.string(),
      changes: z.array(z.object({ field: z.string(), value: z.unknown() })),
    }),
  ),
});
export type CloudWebhook = z.infer<typeof CloudWebhook>;

/** `GET /{phone-number-id}?fields=...`: the number as the Graph API reports it. */
export const CloudPhoneNumber = z.object({
  id: z.string(),
  display_phone_number: z.string().optional(),
  verified_name: z.string().optional(),
  /** CONNECTED, FLAGGED, RATE_LIMITED (usable); PENDING, UNVERIFIED, OFFLINE, RESTRICTED, BANNED, DISABLED ... */
  status: z.string().optional(),
  quality_rating: z.string().optional(),
  code_verification_status: z.string().optional(),
  /** the business portfolio's messaging limit: TIER_250, TIER_2K, TIER_10K, TIER_100K, TIER_UNLIMITED ... */
  whatsapp_business_manager_messaging_limit: z.string().optional(),
});
export type CloudPhoneNumber = z.infer<typeof CloudPhoneNumber>;

/** `POST /{phone-number-id}/messages`: the wamid Meta gives the message. */
export const CloudSendAnswer = z.object({
  messaging_product: z.literal('whatsapp').optional(),
  contacts: z.array(z.object({ input: z.string().optional(), wa_id: z.string() })).optional(),
  messages: z.array(z.object({ id: z.string() })).min(1),
});

/** `POST /{phone-number-id}/media`: the uploaded file's media id. */
export const CloudUploadAnswer = z.object({ id: z.string().min(1) });

/** `GET /{media-id}`: a download URL that lives 5 minutes (fetched with the same token). */
export const CloudMediaInfo = z.object({
  id: z.string(),
  url: z.string().url(),
  mime_type: z.string(),
  sha256: z.string().optional(),
  file_size: z.union([z.number(), z.string()]).optional(),
});

/** Every Graph API refusal. */
export const GraphErrorBody = z.object({
  error: z.object({
    message: z.string().optional(),
    type: z.string().optional(),
    code: z.number(),
    error_subcode: z.number().optional(),
    error_data: z.object({ details: z.string().optional() }).optional(),
    fbtrace_id: z.string().optional(),
  }),
});

/** Meta's webhook verification request (`GET` with `hub.mode`, `hub.verify_token`, `hub.challenge`). */
export const CloudVerifyQuery = z.object({
  'hub.mode': z.string().optional(),
  'hub.verify_token': z.string().optional(),
  'hub.challenge': z.string().max(1000).optional(),
});
export type CloudVerifyQuery = z.infer<typeof CloudVerifyQuery>;

const GraphTemplateComponent = z
  .object({
    /** HEADER, BODY, FOOTER, BUTTONS (others: carousels, limited-time offers ...) */
    type: z.string(),
    /** a header's: TEXT, IMAGE, VIDEO, DOCUMENT, LOCATION */
    format: z.string().optional(),
    text: z.string().optional(),
    buttons: z
      .array(
        z
          .object({
            type: z.string(),
            text: z.string().optional(),
            url: z.string().optional(),
            example: z.unknown().optional(),
          })
          .passthrough(),
      )
      .optional(),
    example: z
      .object({
        header_text: z.array(z.string()).optional(),
        body_text: z.array(z.array(z.string())).optional(),
        header_text_named_params: z.array(z.object({ param_name: z.string(), example: z.string() })).optional(),
        body_text_named_params: z.array(z.object({ param_name: z.string(), example: z.string() })).optional(),
      })
      .passthrough()
      .optional(),
  })
  .passthrough();

/** `GET /{waba-id}/message_templates`: one template in one language. */
export const CloudTemplate = z.object({
  id: z.string(),
  name: z.string(),
  language: z.string(),
  status: z.string(),
  category: z.string().optional(),
  parameter_format: z.string().optional(),
  rejected_reason: z.string().optional(),
  components: z.array(GraphTemplateComponent).default([]),
});
export type CloudTemplate = z.infer<typeof CloudTemplate>;

/** A page of templates; `paging.next` is present while more follow (asked for with `after`). */
export const CloudTemplatesPage = z.object({
  data: z.array(CloudTemplate),
  paging: z
    .object({
      cursors: z.object({ before: z.string().optional(), after: z.string().optional() }).optional(),
      next: z.string().optional(),
    })
    .optional(),
});

/**
 * The `message_template_status_update` webhook (its entry's id is the WhatsApp Business Account):
 * `event` is the new status (APPROVED, REJECTED, PAUSED, DISABLED, PENDING_DELETION ...) or what
 * happened (ARCHIVED, UNARCHIVED, REINSTATED, FLAGGED, DELETED ...).
 * Reference: developers.facebook.com/documentation/business-messaging/whatsapp/webhooks/reference/message_template_status_update
 */
export const CloudTemplateStatusValue = z.object({
  event: z.string().min(1),
  message_template_id: z.union([z.number(), z.string()]).transform(String),
  message_template_name: z.string(),
  message_template_language: z.string(),
  reason: z.string().nullable().optional(),
});
export type CloudTemplateStatusValue = z.infer<typeof CloudTemplateStatusValue>;

/**
 * Webhook field `phone_number_quality_update` (the entry's id is the business account): one number
 * (by its display number) was flagged or unflagged, or its portfolio's messaging limit moved
 * (`max_daily_conversations_per_business`, a tier such as TIER_2K; `current_limit` before 2026).
 */
export const CloudNumberQualityValue = z.object({
  display_phone_number: z.string(),
  event: z.string().min(1),
  max_daily_conversations_per_business: z.union([z.string(), z.number()]).optional(),
  current_limit: z.string().optional(),
});
export type CloudNumberQualityValue = z.infer<typeof CloudNumberQualityValue>;

/** GET /whatsapp/{id}/usage: one month of a Cloud API connection's messages Meta priced, by category. */
export interface CloudUsageMonth {
  /** YYYY-MM (UTC) */
  month: string;
  /** messages Meta charges for, by category (marketing, utility, authentication ...) */
  charged: Record<string, number>;
  /** messages Meta priced as free (in the customer service window, free entry points), by category */
  free: Record<string, number>;
  totalCharged: number;
  totalFree: number;
}
