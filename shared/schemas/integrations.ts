import { z } from 'zod';
import { MSG, cursorQuery } from './common';

/** Queue integration kinds (management.md "Queue integrations"). */
export const INTEGRATION_TYPES = ['dialogflow', 'n8n', 'webhook', 'typebot'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/** The dialogflow language selector: value and label. */
export const DIALOGFLOW_LANGUAGES = [
  { value: 'pt-BR', label: 'Portuguese' },
  { value: 'en', label: 'English' },
  { value: 'es', label: 'Spanish' },
] as const;

/** Section 9 defaults: typebot delay between messages (ms) and session expiry (minutes). */
export const TYPEBOT_DEFAULTS = { typebotDelayMessage: 1000, typebotExpires: 1 } as const;

/**
 * Headers on every n8n/webhook POST: `X-Inbox-Timestamp` (epoch seconds) and
 * `X-Inbox-Signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>" with the integration's secret>`.
 */
export const WEBHOOK_SIGNATURE_HEADER = 'x-inbox-signature';
export const WEBHOOK_TIMESTAMP_HEADER = 'x-inbox-timestamp';

const optionalText = (max: number) =>
  z
    .union([z.string().trim().max(max, MSG.long), z.null().transform(() => '')])
    .optional()
    .transform((v) => v ?? '');

const httpUrl = z
  .string()
  .trim()
  .max(2000, MSG.long)
  .refine((v) => v === '' || /^https?:\/\/[^\s/]+/i.test(v), MSG.invalid);

const wholeNumber = (min: number, max: number) =>
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/, MSG.invalid).transform(Number)], { error: MSG.invalid })
    .pipe(z.number().int(MSG.invalid).min(min, MSG.invalid).max(max, MSG.invalid));

/** A Google service-account key as Dialogflow's "JSON credentials" holds it. */
export const ServiceAccount = z.object({
  client_email: z.string().min(3),
  private_key: z.string().min(1),
  project_id: z.string().optional(),
  private_key_id: z.string().optional(),
});
export type ServiceAccount = z.infer<typeof ServiceAccount>;

/** The fields of the dialog; the type decides which are required (management.md 5). */
const integrationFields = {
  type: z.enum(INTEGRATION_TYPES, { error: MSG.required }),
  name: z.string({ error: MSG.required }).trim().min(2, MSG.short).max(50, MSG.long),
  projectName: optionalText(100),
  jsonContent: optionalText(20000),
  language: z.union([z.enum(['pt-BR', 'en', 'es']), z.literal('')]).optional(),
  urlN8N: httpUrl.optional().transform((v) => v ?? ''),
  typebotSlug: optionalText(200),
  typebotExpires: wholeNumber(0, 60 * 24 * 30).default(TYPEBOT_DEFAULTS.typebotExpires),
  typebotDelayMessage: wholeNumber(0, 60_000).default(TYPEBOT_DEFAULTS.typebotDelayMessage),
  typebotKeywordFinish: optionalText(100),
  typebotKeywordRestart: optionalText(100),
  typebotUnknownMessage: optionalText(4096),
  typebotRestartMessage: optionalText(4096),
};

type Fields = { type: IntegrationType; urlN8N: string; typebotSlug: string; jsonContent: string };

/** Type rules: n8n and webhook need urlN8N; typebot needs urlN8N and typebotSlug; dialogflow credentials parse. */
function typeRules(v: Fields, ctx: z.RefinementCtx) {
  if (v.type !== 'dialogflow' && !v.urlN8N) ctx.addIssue({ code: 'custom', path: ['urlN8N'], message: MSG.required });
  if (v.type === 'typebot' && !v.typebotSlug)
    ctx.addIssue({ code: 'custom', path: ['typebotSlug'], message: MSG.required });
  if (v.type === 'dialogflow' && v.jsonContent && !parseServiceAccount(v.jsonContent))
    ctx.addIssue({ code: 'custom', path: ['jsonContent'], message: MSG.invalid });
}

/** POST /queueIntegration (and the merged result of a PUT). projectName = name for n8n, webhook and typebot. */
export const QueueIntegrationBody = z.object(integrationFields).superRefine(typeRules);
export type QueueIntegrationBody = z.input<typeof QueueIntegrationBody>;

/** PUT /queueIntegration/{id}: any of the fields; the stored ones fill the rest, then the type rules apply. */
export const QueueIntegrationUpdateBody = z.object({
  type: integrationFields.type.optional(),
  name: integrationFields.name.optional(),
  projectName: integrationFields.projectName,
  jsonContent: integrationFields.jsonContent,
  language: integrationFields.language,
  urlN8N: httpUrl.optional(),
  typebotSlug: z.string().trim().max(200, MSG.long).optional(),
  typebotExpires: wholeNumber(0, 60 * 24 * 30).optional(),
  typebotDelayMessage: wholeNumber(0, 60_000).optional(),
  typebotKeywordFinish: z.string().trim().max(100, MSG.long).optional(),
  typebotKeywordRestart: z.string().trim().max(100, MSG.long).optional(),
  typebotUnknownMessage: z.string().trim().max(4096, MSG.long).optional(),
  typebotRestartMessage: z.string().trim().max(4096, MSG.long).optional(),
  /** true: a new webhook signing secret replaces the old one */
  rotateSecret: z.boolean().optional(),
});
export type QueueIntegrationUpdateBody = z.input<typeof QueueIntegrationUpdateBody>;

export const QueueIntegrationsQuery = cursorQuery.extend({ searchParam: z.string().max(100).optional() });

/** POST /queueIntegration/testSession: one detect-intent call; `id` lets a masked key use the stored one. */
export const TestSessionBody = z.object({
  projectName: z.string().trim().max(100, MSG.long).optional(),
  jsonContent: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(20000, MSG.long),
  language: z.enum(['pt-BR', 'en', 'es']).optional().default('pt-BR'),
  id: z.union([z.number().int().positive(), z.null()]).optional(),
  text: z.string().trim().min(1).max(1000).optional(),
});
export type TestSessionBody = z.input<typeof TestSessionBody>;

export interface TestSessionResponse {
  /** the fulfillment text Dialogflow answered */
  answer: string;
  intent: string | null;
}

/**
 * A queue integration as answers show it. For dialogflow, `jsonContent` carries the credentials
 * with `private_key` masked (`********`); `webhookSecret` signs n8n/webhook calls (admins copy it
 * into the receiver).
 */
export interface QueueIntegration {
  id: number;
  companyId: number;
  type: IntegrationType;
  name: string;
  projectName: string;
  jsonContent: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number;
  typebotDelayMessage: number;
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
  webhookSecret: string;
  createdAt: string;
  updatedAt: string;
}

/** GET /queueIntegration */
export interface QueueIntegrationsResponse {
  queueIntegrations: QueueIntegration[];
  hasMore: boolean;
  cursor?: string;
}

/** The service account inside a jsonContent, or undefined when it is not one. */
export function parseServiceAccount(jsonContent: string): ServiceAccount | undefined {
  try {
    const parsed = ServiceAccount.safeParse(JSON.parse(jsonContent));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
