import type { TemplateParameter, TemplateSendInput, WhatsappTemplate } from '#shared/schemas/whatsapp-templates';
import { removeById, upsertById } from '../realtime/cache';

/** The message variables the server fills in every message, from the contact and the ticket. */
export const MESSAGE_VARIABLES = ['{{name}}', '{{firstName}}', '{{protocol}}', '{{date}}', '{{hora}}'];

/** Named template parameters whose name says which message variable fills them. */
const PREFILL: Record<string, string> = {
  name: '{{name}}',
  nome: '{{name}}',
  customer_name: '{{name}}',
  first_name: '{{firstName}}',
  firstname: '{{firstName}}',
  primeiro_nome: '{{firstName}}',
  protocol: '{{protocol}}',
  protocolo: '{{protocol}}',
  ticket: '{{protocol}}',
};

/** What the picker's fields hold, by `parameterKey` (a header and the body may both have a `{{1}}`). */
export type ParameterValues = Record<string, string>;

export const parameterKey = (p: TemplateParameter) => `${p.component}:${p.name}`;

/** The picker's first values: a message variable where the parameter's name says which, else empty. */
export const prefillValues = (parameters: TemplateParameter[]): ParameterValues =>
  Object.fromEntries(parameters.map((p) => [parameterKey(p), PREFILL[p.name.toLowerCase()] ?? '']));

/** A template goes out only with every variable filled: Meta rejects a blank parameter. */
export const allFilled = (parameters: TemplateParameter[], values: ParameterValues) =>
  parameters.every((p) => (values[parameterKey(p)] ?? '').trim() !== '');

/**
 * The filled values by component and name, as the API and `renderTemplate` take them: a blank
 * value is left out (the preview then shows its variable as written), and so is an empty component.
 */
export function valuesByComponent(parameters: TemplateParameter[], values: ParameterValues) {
  const out: Pick<TemplateSendInput, 'header' | 'body'> = {};
  for (const p of parameters) {
    const value = (values[parameterKey(p)] ?? '').trim();
    if (value) out[p.component] = { ...out[p.component], [p.name]: value };
  }
  return out;
}

/** The `template` of `POST /messages/{ticketId}`. */
export const templateSendInput = (t: WhatsappTemplate, values: ParameterValues): TemplateSendInput => ({
  name: t.name,
  language: t.language,
  ...valuesByComponent(t.parameters, values),
});

/** A search over the templates' names and texts, ignoring case. */
export function matchTemplates<T extends Pick<WhatsappTemplate, 'name' | 'body'>>(list: T[], query: string): T[] {
  const q = query.trim().toLowerCase();
  return q ? list.filter((t) => t.name.toLowerCase().includes(q) || t.body.toLowerCase().includes(q)) : list;
}

/** Meta's status as a chip colour: approved green, in review amber, refused or stopped red, others grey. */
export function statusColor(status: string): 'success' | 'warning' | 'error' | 'default' {
  if (status === 'APPROVED') return 'success';
  if (status === 'PENDING' || status === 'IN_APPEAL') return 'warning';
  if (status === 'REJECTED' || status === 'PAUSED' || status === 'DISABLED') return 'error';
  return 'default';
}

/** The `whatsappTemplate` event: all of a connection's templates synced, or one changed or gone. */
export type TemplateEvent =
  | { action: 'reload'; whatsappId: number }
  | { action: 'update'; template: WhatsappTemplate }
  | { action: 'delete'; whatsappId: number; id: string };

/** The connection an event is about. */
export const eventConnection = (ev: TemplateEvent) =>
  Number(ev.action === 'update' ? ev.template.whatsappId : ev.whatsappId);

/** A connection's cached templates after an `update` or a `delete` (a `reload` fetches them again). */
export function applyTemplateEvent(list: WhatsappTemplate[] | undefined, ev: TemplateEvent): WhatsappTemplate[] {
  if (ev.action === 'delete') return removeById(list, ev.id);
  if (ev.action === 'update') return upsertById(list, ev.template, 'end');
  return list ?? [];
}
