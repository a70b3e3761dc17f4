import { hasCloudTransport } from '#shared/transports';
import type { CloudTemplate, CloudTemplateStatusValue } from '#shared/schemas/whatsapp-cloud';
import {
  isSendableTemplate,
  renderTemplate,
  templateVariables,
  type MessageTemplate,
  type TemplateParameter,
  type TemplateSendInput,
  type TemplateUnsupported,
  type WhatsappTemplate,
} from '#shared/schemas/whatsapp-templates';
import { fillVariables, type VariableContext } from '#shared/message-variables';
import { batchWrite, getItem, putItem, queryAll, stripKeys, updateItem, deleteItem, type Item } from '../db';
import { AppError } from '../errors';
import { nowIso, pad } from '../keys';
import { log } from '../log';
import { publish } from '../realtime';
import { getWhatsapp, wabaGuardKeys, whatsappKeys } from '../whatsapp/repo';
import { cloudClientFor } from './connection';
import { GraphError, isTokenError, type TemplateMessage } from './graph';

/**
 * A Cloud API connection's message templates, kept as `C#<cid>` / `WTPL#<pad(id)>#<name>#<language>`:
 * read from the WhatsApp Business Account (`syncTemplates`: when the connection is created, hourly
 * by the `cloud-status` timer, and on an admin's request), then kept current by Meta's
 * `message_template_status_update` webhook (`applyTemplateStatus`). The composer offers the approved
 * ones the product can fill; a template send is checked against the stored template first.
 */

const prefix = (whatsappId: number) => `WTPL#${pad(whatsappId)}#`;
export const templateKeys = (companyId: number, whatsappId: number, name: string, language: string) => ({
  pk: `C#${companyId}`,
  sk: `${prefix(whatsappId)}${name}#${language}`,
});

type StoredTemplate = WhatsappTemplate & { statusAt?: number };

const toTemplate = (item: Item): WhatsappTemplate => {
  const { statusAt: _at, ...template } = stripKeys(item) as StoredTemplate & Item;
  return template as WhatsappTemplate;
};

/** Meta's template as the product keeps it: its texts, its variables in order, what cannot be filled. */
export function templateFromGraph(t: CloudTemplate, whatsappId: number, now = nowIso()): WhatsappTemplate {
  const of = (type: string) => t.components.find((c) => c.type.toUpperCase() === type);
  const header = of('HEADER');
  const body = of('BODY');
  const footer = of('FOOTER');
  const buttons = of('BUTTONS')?.buttons ?? [];
  const headerFormat = header?.format?.toUpperCase();
  const headerText = headerFormat === 'TEXT' || (header && !headerFormat) ? header?.text : undefined;
  const named = t.parameter_format?.toUpperCase() === 'NAMED';
  const examples = (component: 'header' | 'body'): Map<string, string> => {
    const ex = (component === 'header' ? header : body)?.example;
    if (named) {
      const list = component === 'header' ? ex?.header_text_named_params : ex?.body_text_named_params;
      return new Map((list ?? []).map((p) => [p.param_name, p.example]));
    }
    const list = component === 'header' ? ex?.header_text : ex?.body_text?.[0];
    return new Map((list ?? []).map((value, i) => [String(i + 1), value]));
  };
  const parameters: TemplateParameter[] = [];
  for (const [component, text] of [
    ['header', headerText],
    ['body', body?.text],
  ] as const) {
    const known = examples(component);
    for (const name of templateVariables(text))
      parameters.push({ component, name, ...(known.has(name) ? { example: known.get(name)! } : {}) });
  }
  const KNOWN = new Set(['HEADER', 'BODY', 'FOOTER', 'BUTTONS']);
  let unsupported: TemplateUnsupported | undefined;
  if (headerFormat && headerFormat !== 'TEXT') unsupported = 'mediaHeader';
  // a button that needs a value at send time (a URL with a variable, a code to copy, a one-time password)
  else if (buttons.some((b) => /\{\{/.test(b.url ?? '') || ['COPY_CODE', 'OTP', 'FLOW'].includes(b.type.toUpperCase())))
    unsupported = 'buttonParameters';
  else if (t.components.some((c) => !KNOWN.has(c.type.toUpperCase())) || !body?.text) unsupported = 'components';
  return {
    id: t.id,
    whatsappId,
    name: t.name,
    language: t.language,
    category: t.category ?? '',
    status: t.status.toUpperCase(),
    ...(t.rejected_reason && t.rejected_reason !== 'NONE' ? { reason: t.rejected_reason } : {}),
    ...(headerFormat || header ? { headerFormat: headerFormat ?? 'TEXT' } : {}),
    ...(headerText ? { header: headerText } : {}),
    body: body?.text ?? '',
    ...(footer?.text ? { footer: footer.text } : {}),
    buttons: buttons.map((b) => b.text ?? '').filter(Boolean),
    parameterFormat: named ? 'named' : 'positional',
    parameters,
    ...(unsupported ? { unsupported } : {}),
    updatedAt: now,
  };
}

/** The connection's templates by name and language ([] for a WhatsApp Web connection). */
export async function listTemplates(companyId: number, whatsappId: number): Promise<WhatsappTemplate[]> {
  const items = await queryAll({ pk: `C#${companyId}`, sk: { beginsWith: prefix(whatsappId) } });
  return items.map(toTemplate);
}

/** A deleted connection's templates go with it. */
export async function dropTemplates(companyId: number, whatsappId: number) {
  const stored = await listTemplates(companyId, whatsappId);
  await batchWrite(
    [],
    stored.map((t) => templateKeys(companyId, whatsappId, t.name, t.language)),
  );
}

/** Fields whose change is worth a write (a sync that finds nothing new writes nothing). */
const same = (a: WhatsappTemplate, b: WhatsappTemplate) => {
  const { updatedAt: _a, ...left } = a;
  const { updatedAt: _b, ...right } = b;
  return JSON.stringify(left) === JSON.stringify(right);
};

/**
 * Reads every template of the connection's WhatsApp Business Account and stores what changed;
 * templates gone from the account are removed. ERR_TEMPLATES_NEED_CLOUD for a WhatsApp Web
 * connection, ERR_TEMPLATE_SYNC_FAILED (`details.reason`) when the Graph API refuses or is away.
 */
export async function syncTemplates(companyId: number, whatsappId: number) {
  const whatsapp = await getWhatsapp(companyId, whatsappId);
  if (!whatsapp) throw new AppError('ERR_NO_WAPP_FOUND');
  if (!hasCloudTransport(whatsapp) || !whatsapp.wabaId) throw new AppError('ERR_TEMPLATES_NEED_CLOUD');
  let fetched: CloudTemplate[];
  try {
    fetched = await (await cloudClientFor(companyId, whatsappId)).templates(whatsapp.wabaId);
  } catch (err) {
    if (!(err instanceof GraphError)) throw err;
    log.warn('template sync refused', { companyId, whatsappId, status: err.status, code: err.code });
    throw new AppError('ERR_TEMPLATE_SYNC_FAILED', undefined, {
      reason: isTokenError(err) ? 'tokenExpired' : err.outcomeUnknown ? 'graphUnavailable' : 'refused',
      code: err.code,
    });
  }
  const now = nowIso();
  const stored = new Map((await listTemplates(companyId, whatsappId)).map((t) => [`${t.name}#${t.language}`, t]));
  const puts: Item[] = [];
  const kept = new Set<string>();
  for (const graph of fetched) {
    const template = templateFromGraph(graph, whatsappId, now);
    const key = `${template.name}#${template.language}`;
    kept.add(key);
    const before = stored.get(key);
    if (!before || !same(before, template))
      puts.push({ ...templateKeys(companyId, whatsappId, template.name, template.language), ...template });
  }
  const gone = [...stored.values()].filter((t) => !kept.has(`${t.name}#${t.language}`));
  await batchWrite(
    puts,
    gone.map((t) => templateKeys(companyId, whatsappId, t.name, t.language)),
  );
  // the account's guard is put again: connections made before it existed get theirs here
  await putItem({ ...wabaGuardKeys(whatsapp.wabaId, companyId, whatsappId), companyId, whatsappId });
  await updateItem(whatsappKeys(companyId, whatsappId), {
    set: { templatesSyncedAt: now },
    condition: 'attribute_exists(pk)',
  });
  await publish(companyId, 'whatsappTemplate', { action: 'reload', whatsappId });
  log.info('templates synced', {
    companyId,
    whatsappId,
    templates: fetched.length,
    written: puts.length,
    removed: gone.length,
  });
  return { templates: await listTemplates(companyId, whatsappId), syncedAt: now };
}

/** A sync whose failure is only logged (on creation, hourly): the connection works without templates. */
export async function syncTemplatesQuietly(companyId: number, whatsappId: number) {
  try {
    await syncTemplates(companyId, whatsappId);
  } catch (err) {
    log.warn('template sync failed', { companyId, whatsappId, error: (err as Error).message });
  }
}

/** Meta's events that are the template's new status; the others (UNARCHIVED, FLAGGED ...) are read again. */
const STATUS_EVENTS = new Set([
  'APPROVED',
  'REJECTED',
  'PENDING',
  'PAUSED',
  'DISABLED',
  'IN_APPEAL',
  'PENDING_DELETION',
  'ARCHIVED',
  'LIMIT_EXCEEDED',
]);

/**
 * Meta's `message_template_status_update` for one connection: the stored template takes the new
 * status (and reason) unless a later event already set it; a deleted template is removed; an event
 * that is no status, or names a template not stored yet, reads the account's templates again.
 */
export async function applyTemplateStatus(ev: {
  companyId: number;
  whatsappId: number;
  name: string;
  language: string;
  event: string;
  reason?: string;
  at: number;
}) {
  const { companyId, whatsappId } = ev;
  const key = templateKeys(companyId, whatsappId, ev.name, ev.language);
  const event = ev.event.toUpperCase();
  if (event === 'DELETED') {
    const old = await deleteItem<StoredTemplate>(key, { returnOld: true });
    if (old) await publish(companyId, 'whatsappTemplate', { action: 'delete', whatsappId, id: old.id });
    return;
  }
  if (!STATUS_EVENTS.has(event)) return syncTemplatesQuietly(companyId, whatsappId);
  const reason = ev.reason && ev.reason !== 'NONE' ? ev.reason : undefined;
  const updated = await updateItem<StoredTemplate & Item>(key, {
    set: { status: event, statusAt: ev.at, updatedAt: nowIso(), ...(reason ? { reason } : {}) },
    ...(reason ? {} : { remove: ['reason'] }),
    condition: 'attribute_exists(pk) AND (attribute_not_exists(statusAt) OR statusAt <= :at)',
    conditionValues: { ':at': ev.at },
  });
  if (updated) {
    await publish(companyId, 'whatsappTemplate', { action: 'update', template: toTemplate(updated) });
    return;
  }
  // not stored yet (made in Meta's manager since the last sync), or a later event already applied
  if (!(await getItem(key))) await syncTemplatesQuietly(companyId, whatsappId);
}

/** The Graph webhook's template change as the event the `inbound` queue carries for one connection. */
export const templateStatusEvent = (
  value: CloudTemplateStatusValue,
  conn: { companyId: number; whatsappId: number },
  at: number,
) => ({
  type: 'templateStatus' as const,
  ...conn,
  templateId: value.message_template_id,
  name: value.message_template_name,
  language: value.message_template_language,
  event: value.event,
  ...(value.reason ? { reason: value.reason } : {}),
  at,
});

/**
 * The stored template `input` names, sendable (approved, nothing the product cannot fill) and given
 * a value for each of its variables: ERR_TEMPLATE_NOT_FOUND, ERR_TEMPLATE_NOT_SENDABLE or
 * ERR_VALIDATION (`template.<component>.<variable>`) otherwise. Checked on a send and when a
 * campaign is saved (its values are filled per contact later, so a value only has to be there).
 */
export async function checkTemplateInput(companyId: number, whatsappId: number, input: TemplateSendInput) {
  const item = await getItem(templateKeys(companyId, whatsappId, input.name, input.language));
  if (!item) throw new AppError('ERR_TEMPLATE_NOT_FOUND');
  const template = toTemplate(item);
  if (!isSendableTemplate(template))
    throw new AppError('ERR_TEMPLATE_NOT_SENDABLE', undefined, {
      status: template.status,
      ...(template.unsupported ? { unsupported: template.unsupported } : {}),
    });
  const missing = template.parameters.filter((p) => !input[p.component]?.[p.name]?.trim());
  if (missing.length)
    throw new AppError(
      'ERR_VALIDATION',
      400,
      missing.map((p) => ({ path: ['template', p.component, p.name], message: 'required' })),
    );
  return template;
}

/**
 * A template the composer chose, ready to store and send: the stored template must be approved and
 * fillable, every variable given a value (message variables such as `{{firstName}}` filled from
 * the contact and the ticket). Answers the message's text, what the message keeps, and the Graph call.
 */
export async function prepareTemplateSend(
  companyId: number,
  whatsappId: number,
  input: TemplateSendInput,
  context: VariableContext,
): Promise<{ text: string; kept: MessageTemplate; graph: TemplateMessage }> {
  const template = await checkTemplateInput(companyId, whatsappId, input);
  const values: { header: Record<string, string>; body: Record<string, string> } = { header: {}, body: {} };
  const graph: TemplateMessage = {
    name: template.name,
    language: template.language,
    named: template.parameterFormat === 'named',
    header: [],
    body: [],
  };
  for (const p of template.parameters) {
    const given = input[p.component]?.[p.name];
    const value = given === undefined ? '' : fillVariables(given, context).trim();
    if (!value)
      throw new AppError('ERR_VALIDATION', 400, [{ path: ['template', p.component, p.name], message: 'required' }]);
    values[p.component][p.name] = value;
    graph[p.component].push({ name: p.name, value });
  }
  const kept: MessageTemplate = {
    name: template.name,
    language: template.language,
    ...(graph.header.length ? { header: values.header } : {}),
    ...(graph.body.length ? { body: values.body } : {}),
  };
  return { text: renderTemplate(template, values), kept, graph };
}
