import {
  QueueIntegrationBody,
  TYPEBOT_DEFAULTS,
  type IntegrationType,
  type QueueIntegration,
} from '#shared/schemas/integrations';
import { fieldErrors } from '../lib/zod-errors';

export interface IntegrationForm {
  type: IntegrationType;
  name: string;
  projectName: string;
  jsonContent: string;
  language: string;
  urlN8N: string;
  typebotSlug: string;
  typebotExpires: number | '';
  typebotDelayMessage: number | '';
  typebotKeywordFinish: string;
  typebotKeywordRestart: string;
  typebotUnknownMessage: string;
  typebotRestartMessage: string;
}

export type IntegrationField = Exclude<keyof IntegrationForm, 'type'>;

/** The dialog's fields per type (management.md "Queue integrations"), in display order. */
export const FIELDS_BY_TYPE: Record<IntegrationType, IntegrationField[]> = {
  dialogflow: ['name', 'language', 'projectName', 'jsonContent'],
  n8n: ['name', 'urlN8N'],
  webhook: ['name', 'urlN8N'],
  typebot: [
    'name',
    'urlN8N',
    'typebotSlug',
    'typebotExpires',
    'typebotDelayMessage',
    'typebotKeywordFinish',
    'typebotKeywordRestart',
    'typebotUnknownMessage',
    'typebotRestartMessage',
  ],
};

/** Required per type (section 5). */
export const REQUIRED_BY_TYPE: Record<IntegrationType, IntegrationField[]> = {
  dialogflow: ['name'],
  n8n: ['name', 'urlN8N'],
  webhook: ['name', 'urlN8N'],
  typebot: ['name', 'urlN8N', 'typebotSlug'],
};

/** A new integration: typebot defaults of section 9 and the dialogflow language pt-BR. */
export const emptyIntegration = (type: IntegrationType = 'typebot'): IntegrationForm => ({
  type,
  name: '',
  projectName: '',
  jsonContent: '',
  language: 'pt-BR',
  urlN8N: '',
  typebotSlug: '',
  typebotExpires: TYPEBOT_DEFAULTS.typebotExpires,
  typebotDelayMessage: TYPEBOT_DEFAULTS.typebotDelayMessage,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotUnknownMessage: '',
  typebotRestartMessage: '',
});

export const integrationToForm = (i: QueueIntegration): IntegrationForm => ({
  type: i.type,
  name: i.name,
  projectName: i.projectName ?? '',
  jsonContent: i.jsonContent ?? '',
  language: i.language || 'pt-BR',
  urlN8N: i.urlN8N ?? '',
  typebotSlug: i.typebotSlug ?? '',
  typebotExpires: i.typebotExpires ?? TYPEBOT_DEFAULTS.typebotExpires,
  typebotDelayMessage: i.typebotDelayMessage ?? TYPEBOT_DEFAULTS.typebotDelayMessage,
  typebotKeywordFinish: i.typebotKeywordFinish ?? '',
  typebotKeywordRestart: i.typebotKeywordRestart ?? '',
  typebotUnknownMessage: i.typebotUnknownMessage ?? '',
  typebotRestartMessage: i.typebotRestartMessage ?? '',
});

const NUMERIC = new Set<IntegrationField>(['typebotExpires', 'typebotDelayMessage']);

export type IntegrationCheck =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; errors: Record<string, string> };

/**
 * Section 5 on the dialog, by the server's schema: name 2-50 and the type's required fields. Only the
 * type's own fields are sent; n8n, webhook and typebot save projectName = name.
 */
export function checkIntegration(form: IntegrationForm): IntegrationCheck {
  const body: Record<string, unknown> = { type: form.type };
  // an emptied number falls back to its section 9 default
  for (const key of FIELDS_BY_TYPE[form.type]) body[key] = form[key] === '' && NUMERIC.has(key) ? undefined : form[key];
  if (form.type !== 'dialogflow') body.projectName = form.name.trim();
  const parsed = QueueIntegrationBody.safeParse(body);
  if (parsed.success) return { ok: true, body: parsed.data as Record<string, unknown> };
  const errors = fieldErrors(parsed.error);
  // an empty name is missing ('Required'), not short
  if (!form.name.trim()) errors.name = 'required';
  return { ok: false, errors };
}
