import {
  CAMPAIGN_EDIT_WINDOW_MS,
  CAMPAIGN_SETTINGS_DEFAULTS,
  type Campaign,
  type CampaignSettings,
  type CampaignSettingsList,
  type CampaignStatus,
} from '#shared/schemas/campaigns';
import {
  isSendableTemplate,
  type MessageTemplate,
  type TemplateComponent,
  type WhatsappTemplate,
} from '#shared/schemas/whatsapp-templates';
import { allFilled, parameterKey, type ParameterValues } from '../templates/template-rules';

/**
 * Editable only while INATIVA, or PROGRAMADA with more than 1 hour until scheduledAt; a canceled
 * campaign still allows saving (management.md 4). Otherwise the dialog is read-only.
 */
export function isEditable(c: Pick<Campaign, 'status' | 'scheduledAt'> | null | undefined, now = Date.now()) {
  if (!c) return true;
  if (c.status === 'INATIVA' || c.status === 'CANCELADA') return true;
  return c.status === 'PROGRAMADA' && !!c.scheduledAt && Date.parse(c.scheduledAt) - now > CAMPAIGN_EDIT_WINDOW_MS;
}

/** A scheduled, running or paused campaign can be canceled; a canceled or paused one restarted. */
export const canCancel = (s: CampaignStatus) => s === 'EM_ANDAMENTO' || s === 'PROGRAMADA' || s === 'PAUSADA';
export const canRestart = (s: CampaignStatus) => s === 'CANCELADA' || s === 'PAUSADA';
/** A running campaign is canceled first, then deleted. */
export const canDelete = (s: CampaignStatus) => s !== 'EM_ANDAMENTO';

/** Report progress: delivered over valid WhatsApp contacts, as a whole percentage (management.md 4). */
export const progressPercent = (delivered: number, validContacts: number) =>
  validContacts > 0 ? Math.min(100, Math.round((delivered / validContacts) * 100)) : 0;

/** After a live FINALIZADA the report reloads this much later (management.md 4). */
export const REPORT_RELOAD_AFTER_FINISH_MS = 5_000;

export const STATUS_COLOR: Record<CampaignStatus, 'default' | 'info' | 'primary' | 'warning' | 'success' | 'error'> = {
  INATIVA: 'default',
  PROGRAMADA: 'info',
  EM_ANDAMENTO: 'primary',
  CANCELADA: 'warning',
  FINALIZADA: 'success',
  PAUSADA: 'error',
};

/** GET /campaign-settings answers key and JSON-encoded value; missing or broken values keep the defaults. */
export function parseSettings(list: CampaignSettingsList | undefined): CampaignSettings {
  const out: CampaignSettings = { ...CAMPAIGN_SETTINGS_DEFAULTS, variables: [] };
  for (const { key, value } of list ?? []) {
    if (!(key in out)) continue;
    try {
      (out as Record<string, unknown>)[key] = JSON.parse(value);
    } catch {
      // a value that is not JSON keeps the default
    }
  }
  return out;
}

/** A shortcut key already in use is not added again (management.md 5); keys are single words. */
export function addVariable(
  list: { key: string; value: string }[],
  v: { key: string; value: string },
): { ok: true; list: { key: string; value: string }[] } | { ok: false; reason: 'inUse' | 'invalid' } {
  const key = v.key.trim();
  if (!/^\w+$/.test(key)) return { ok: false, reason: 'invalid' };
  if (list.some((x) => x.key.toLowerCase() === key.toLowerCase())) return { ok: false, reason: 'inUse' };
  return { ok: true, list: [...list, { key, value: v.value }] };
}

/** The message variables of section 9 as they are written in a message. */
export const MESSAGE_VARIABLES = ['firstName', 'name', 'ms', 'protocol', 'date', 'hora'] as const;
export const variableToken = (key: string) => `{{${key}}}`;

/** Puts `token` into `text` at the caret (or the end), returning the text and the caret after it. */
export function insertAt(text: string, token: string, start = text.length, end = start) {
  return { text: text.slice(0, start) + token + text.slice(end), caret: start + token.length };
}

/** The campaign form's audience: a contact list or a tag (`tagListId` on the wire). */
export type Audience = 'list' | 'segment' | 'tag';

/** The audience a saved campaign names: a contact list wins over a segment, a segment over a tag (as the server keeps it). */
export const audienceOf = (
  c: (Pick<Campaign, 'contactListId' | 'tagId'> & { segmentId?: number | null }) | null | undefined,
): Audience => (c?.contactListId ? 'list' : c?.segmentId ? 'segment' : c?.tagId ? 'tag' : 'list');

/** A campaign keeps its template by name and language (Meta's key), not by id. */
export type TemplateChoice = Pick<MessageTemplate, 'name' | 'language'>;

/** The chosen template in a connection's list, whatever its status (null: not there, or none chosen). */
export const findTemplate = (list: WhatsappTemplate[] | undefined, chosen: TemplateChoice | null) =>
  (chosen && list?.find((t) => t.name === chosen.name && t.language === chosen.language)) || null;

/** A saved campaign's template values as the form's fields hold them (`header:1`, `body:first_name`). */
export function templateFieldValues(template: MessageTemplate | null | undefined): ParameterValues {
  const out: ParameterValues = {};
  for (const component of ['header', 'body'] as const satisfies TemplateComponent[])
    for (const [name, value] of Object.entries(template?.[component] ?? {}))
      out[parameterKey({ component, name })] = value;
  return out;
}

export type TemplateError = 'required' | 'unavailable' | 'variable' | 'media';

/**
 * A Cloud API connection's campaign sends one approved template and nothing else: one must be
 * chosen and still be sendable on the connection (`unavailable`: paused, rejected or gone since), every
 * variable filled (Meta refuses a blank one), and no attachment. Errors by field: `template`, the
 * variables' `parameterKey`, `media`.
 */
export function templateErrors(
  chosen: TemplateChoice | null,
  template: WhatsappTemplate | null,
  values: ParameterValues,
  hasMedia: boolean,
): Record<string, TemplateError> {
  const out: Record<string, TemplateError> = {};
  if (!chosen) out.template = 'required';
  else if (!template || !isSendableTemplate(template)) out.template = 'unavailable';
  for (const p of template?.parameters ?? []) if (!allFilled([p], values)) out[parameterKey(p)] = 'variable';
  if (hasMedia) out.media = 'media';
  return out;
}
