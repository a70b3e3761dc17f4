import {
  DRY_RUN_DAYS,
  DRY_RUN_MAX_TICKETS,
  type AutomationAction,
  type AutomationRule,
  type AutomationRuleBody,
  type DryRunResult,
} from '#shared/schemas/automation';
import { fieldValueOf } from '#shared/schemas/custom-fields';
import { userKeys } from '../accounts/users';
import { changesOf, auditBy, type AuditActor } from '../audit/actor';
import { batchGet, getItem, query, type Item, type Key } from '../db';
import { AppError } from '../errors';
import { queueKeys } from '../queues/repo';
import { quickMessageKeys } from '../quick-messages/service';
import { publish } from '../realtime';
import { tagKeys } from '../tags/repo';
import { whatsappKeys } from '../whatsapp/repo';
import { loadFields } from '../custom-fields/repo';
import { ticketIndex, toStored, type StoredTicket } from '../tickets/repo';
import { conditionsHold, isSafePattern } from './conditions';
import { factsOf, fillFor } from './engine';
import { insertRule, listRules, removeRule, replaceRule, requireRule } from './rules';
import { forgetActiveEvents } from './emit';

const announce = (
  companyId: number,
  data: { action: 'create' | 'update'; rule: AutomationRule } | { action: 'delete'; ruleId: number },
) => publish(companyId, 'automationRule', data, { kind: 'admins' });

const refused = (path: (string | number)[]) => new AppError('ERR_AUTOMATION_REFERENCE', undefined, { path });

/**
 * A rule names only what its company has: queues, connections, users, tags, quick messages and
 * custom fields (a `set_field` value of the field's type), ERR_AUTOMATION_REFERENCE naming the first
 * path that does not; a `matches` pattern must be safe (ERR_AUTOMATION_UNSAFE_PATTERN). One BatchGet
 * for the references, one Query for the fields when the rule names any.
 */
export async function checkRule(companyId: number, body: AutomationRuleBody) {
  const wanted: { key: Key; path: (string | number)[] }[] = [];
  const keyOf = {
    queue: queueKeys,
    connection: whatsappKeys,
    tag: tagKeys,
    assignee: userKeys,
  } as const;
  body.conditions.forEach((c, i) => {
    if (c.type === 'message' && c.op === 'matches' && !isSafePattern(c.value))
      throw new AppError('ERR_AUTOMATION_UNSAFE_PATTERN', undefined, { path: ['conditions', i, 'value'] });
    if (c.type in keyOf && 'ids' in c)
      c.ids.forEach((id, j) => {
        wanted.push({ key: keyOf[c.type as keyof typeof keyOf](companyId, id), path: ['conditions', i, 'ids', j] });
      });
  });
  body.actions.forEach((a, i) => {
    const path = ['actions', i];
    if (a.type === 'assign_user') wanted.push({ key: userKeys(companyId, a.userId), path: [...path, 'userId'] });
    if (a.type === 'assign_queue') wanted.push({ key: queueKeys(companyId, a.queueId), path: [...path, 'queueId'] });
    if (a.type === 'add_tag' || a.type === 'remove_tag')
      wanted.push({ key: tagKeys(companyId, a.tagId), path: [...path, 'tagId'] });
    if (a.type === 'send_quick_message')
      wanted.push({ key: quickMessageKeys(companyId, a.quickMessageId), path: [...path, 'quickMessageId'] });
  });
  if (wanted.length) {
    const found = new Set((await batchGet(wanted.map((w) => w.key))).map((i) => `${i.pk}|${i.sk}`));
    const missing = wanted.find((w) => !found.has(`${w.key.pk}|${w.key.sk}`));
    if (missing) throw refused(missing.path);
  }
  const named = [
    ...body.conditions.map((c, i) => ({ c, path: ['conditions', i] })).filter((x) => x.c.type === 'field'),
    ...body.actions.map((c, i) => ({ c, path: ['actions', i] })).filter((x) => x.c.type === 'set_field'),
  ];
  if (named.length) {
    const fields = await loadFields(companyId);
    for (const { c, path } of named) {
      if (c.type !== 'field' && c.type !== 'set_field') continue;
      const field = fields.find((f) => f.entity === c.entity && f.key === c.key);
      if (!field) throw refused([...path, 'key']);
      const value = c.value;
      const needsValue = c.type === 'set_field' ? value !== null : !['empty', 'not_empty'].includes(c.op);
      if (needsValue && (value === undefined || 'error' in fieldValueOf(field, value))) {
        // `contains` compares text, whatever the field's type
        if (!(c.type === 'field' && c.op === 'contains' && typeof value === 'string'))
          throw refused([...path, 'value']);
      }
    }
  }
}

export const listAutomationRules = (companyId: number) => listRules(companyId);
export const getAutomationRule = (companyId: number, id: number) => requireRule(companyId, id);

/** POST /automation-rules: checked, stored, at most MAX_AUTOMATION_RULES (ERR_LIST_LIMIT_REACHED). */
export async function createAutomationRule(companyId: number, body: AutomationRuleBody, actor: AuditActor) {
  await checkRule(companyId, body);
  const rule = await insertRule(companyId, body);
  forgetActiveEvents(companyId);
  await announce(companyId, { action: 'create', rule });
  await auditBy(actor, {
    action: 'automation_rule.created',
    target: { type: 'automationRule', id: rule.id, name: rule.name },
    changes: { event: rule.event.type, active: rule.active },
  });
  return rule;
}

export async function updateAutomationRule(companyId: number, id: number, body: AutomationRuleBody, actor: AuditActor) {
  const before = await requireRule(companyId, id);
  await checkRule(companyId, body);
  const rule = await replaceRule(companyId, before, body);
  forgetActiveEvents(companyId);
  await announce(companyId, { action: 'update', rule });
  await auditBy(actor, {
    action: 'automation_rule.updated',
    target: { type: 'automationRule', id: rule.id, name: rule.name },
    changes: changesOf(before, rule, ['name', 'active', 'event', 'conditions', 'actions']),
  });
  return rule;
}

export async function deleteAutomationRule(companyId: number, id: number, actor: AuditActor) {
  const before = await requireRule(companyId, id);
  await removeRule(companyId, id);
  forgetActiveEvents(companyId);
  await announce(companyId, { action: 'delete', ruleId: id });
  await auditBy(actor, {
    action: 'automation_rule.deleted',
    target: { type: 'automationRule', id, name: before.name },
  });
}

const DAY_MS = 86_400_000;
/** The ticket lists a dry run reads (each by its last activity, newest first: gsi1 `TS#<status>`). */
const DRY_RUN_LISTS = ['open', 'pending', 'snoozed', 'closed'] as const;

/** What an action would do, as the log words it, with message texts filled for the ticket. */
async function previewOf(companyId: number, ticket: StoredTicket, a: AutomationAction): Promise<string> {
  switch (a.type) {
    case 'send_message':
    case 'add_note':
      return fillFor(companyId, ticket, a.body);
    case 'set_status':
      return a.message ? `${a.status}: ${await fillFor(companyId, ticket, a.message)}` : a.status;
    case 'send_quick_message': {
      const q = await getItem(quickMessageKeys(companyId, a.quickMessageId));
      return fillFor(companyId, ticket, String(q?.message ?? ''));
    }
    case 'assign_user':
      return `user ${a.userId}`;
    case 'assign_queue':
      return `queue ${a.queueId}${a.roundRobin ? ' (round robin)' : ''}`;
    case 'add_tag':
    case 'remove_tag':
      return `tag ${a.tagId}`;
    case 'set_field':
      return `${a.entity}.${a.key} = ${JSON.stringify(a.value)}`;
    case 'webhook':
      return a.url;
    case 'wait':
      return `${a.minutes} min`;
  }
}

/**
 * POST /automation-rules/dry-run: the rule (saved or not) judged on the tickets active in the last
 * DRY_RUN_DAYS days (one paged Query per ticket list, at most DRY_RUN_MAX_TICKETS read), listing what
 * its actions would do on each ticket whose conditions hold. Nothing is written or sent.
 */
export async function dryRunRule(companyId: number, body: AutomationRuleBody, now = new Date()): Promise<DryRunResult> {
  await checkRule(companyId, body);
  const from = new Date(now.getTime() - DRY_RUN_DAYS * DAY_MS).toISOString();
  const tickets: StoredTicket[] = [];
  let truncated = false;
  for (const status of DRY_RUN_LISTS) {
    let startKey: Item | undefined;
    do {
      const left = DRY_RUN_MAX_TICKETS - tickets.length;
      if (left <= 0) {
        truncated = true;
        break;
      }
      const page = await query<Item>({
        index: 'gsi1',
        pk: ticketIndex.status(companyId, status),
        sk: { gte: from },
        forward: false,
        limit: Math.min(left, 500),
        startKey,
      });
      tickets.push(...page.items.map(toStored));
      startKey = page.lastKey;
    } while (startKey);
  }
  const needHours = body.conditions.some((c) => c.type === 'business_hours');
  const needContact = body.conditions.some((c) => c.type === 'field' && c.entity === 'contact');
  const matches: DryRunResult['matches'] = [];
  for (const ticket of tickets) {
    const facts = await factsOf(companyId, ticket, { needHours, needContact, now });
    if (!conditionsHold(body.conditions, facts)) continue;
    const actions = [];
    for (const a of body.actions) actions.push({ type: a.type, preview: await previewOf(companyId, ticket, a) });
    matches.push({ ticketId: ticket.id, contactName: ticket.contact?.name ?? '', at: ticket.updatedAt, actions });
  }
  return { from, to: now.toISOString(), scanned: tickets.length, truncated, matches };
}
