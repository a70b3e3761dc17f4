import { z } from 'zod';

/**
 * Message templates of a Cloud API connection (issue 36, item 5): Meta's approved messages, the only
 * ones it delivers outside the 24-hour customer service window. They belong to the connection's
 * WhatsApp Business Account, are synced from it (`POST /whatsapp/{id}/templates/sync`, and hourly)
 * and follow Meta's `message_template_status_update` webhook. Variables are `{{1}}`, `{{2}}` ...
 * (positional) or `{{first_name}}` ... (named), in the header (text headers only) and the body.
 */

export type TemplateComponent = 'header' | 'body';

export interface TemplateParameter {
  component: TemplateComponent;
  /** `1`, `2` ... or the named parameter's name */
  name: string;
  /** Meta's example value, when the template has one */
  example?: string;
}

/** Why a template cannot be sent from the product (even when approved). */
export type TemplateUnsupported = 'mediaHeader' | 'buttonParameters' | 'components';

export interface WhatsappTemplate {
  /** Meta's template id */
  id: string;
  whatsappId: number;
  name: string;
  /** Meta's language and locale code: `pt_BR`, `en_US`, `es` ... */
  language: string;
  /** MARKETING, UTILITY or AUTHENTICATION */
  category: string;
  /** Meta's status: APPROVED, PENDING, REJECTED, PAUSED, DISABLED, IN_APPEAL, ARCHIVED ... */
  status: string;
  /** Meta's reason for a rejection or pause, when it gave one */
  reason?: string;
  /** TEXT, IMAGE, VIDEO, DOCUMENT or LOCATION, when the template has a header */
  headerFormat?: string;
  /** a text header's text, variables as written */
  header?: string;
  body: string;
  footer?: string;
  /** the buttons' labels, in order */
  buttons: string[];
  parameterFormat: 'positional' | 'named';
  parameters: TemplateParameter[];
  /** set when the product cannot fill this template (it is then never offered) */
  unsupported?: TemplateUnsupported;
  updatedAt: string;
}

/** Approved and fillable: what the composer offers. */
export const isSendableTemplate = (t: Pick<WhatsappTemplate, 'status' | 'unsupported'>) =>
  t.status === 'APPROVED' && !t.unsupported;

const TemplateValues = z.record(z.string().regex(/^\w{1,64}$/), z.string().max(1024));

/**
 * A template chosen in the composer (`POST /messages/{ticketId}` with `template`): the values of
 * its header and body variables by name, which may use the message variables (`{{firstName}}` ...,
 * filled from the contact and the ticket as in every message).
 */
export const TemplateSendInput = z.object({
  name: z.string().trim().min(1).max(512),
  language: z.string().trim().min(2).max(15),
  header: TemplateValues.optional(),
  body: TemplateValues.optional(),
});
export type TemplateSendInput = z.infer<typeof TemplateSendInput>;

/** `{{1}}` or `{{first_name}}`: Meta's variables in a template's text. */
const VARIABLE = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The variables of a template's text, each once, in order of appearance. */
export function templateVariables(text: string | undefined): string[] {
  const names: string[] = [];
  for (const m of (text ?? '').matchAll(VARIABLE)) if (!names.includes(m[1]!)) names.push(m[1]!);
  return names;
}

/** A text with its variables replaced by the given values (a missing value stays as written). */
export const fillTemplateText = (text: string, values: Record<string, string> | undefined) =>
  text.replace(VARIABLE, (whole, name: string) => values?.[name] ?? whole);

/**
 * The message as the customer reads it (and as the ticket shows it): the header in bold, the body,
 * the footer in italics, one paragraph each.
 */
export function renderTemplate(
  t: Pick<WhatsappTemplate, 'header' | 'body' | 'footer'>,
  values: { header?: Record<string, string>; body?: Record<string, string> },
): string {
  const header = t.header ? fillTemplateText(t.header, values.header).trim() : '';
  const footer = t.footer?.trim() ?? '';
  return [header && `*${header}*`, fillTemplateText(t.body, values.body).trim(), footer && `_${footer}_`]
    .filter(Boolean)
    .join('\n\n');
}

/** What a sent template message keeps (so a resend sends the same template with the same values). */
export interface MessageTemplate {
  name: string;
  language: string;
  header?: Record<string, string>;
  body?: Record<string, string>;
}
