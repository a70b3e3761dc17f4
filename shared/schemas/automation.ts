import { z } from 'zod';
import { TICKET_STATUSES } from '../constants';
import { CUSTOM_FIELD_ENTITIES, CUSTOM_FIELD_KEY } from './custom-fields';
import { MSG } from './common';

/**
 * Automation rules and macros (issue 40, items 2-4): what the inbox does by itself when something
 * happens to a ticket, and the action lists an attendant runs in one click. One shape for the server
 * (validation, the engine) and the web app (the rule editor, the macro menu).
 */

/** What starts a rule. The two `no_*_reply` events carry `minutes`. */
export const AUTOMATION_EVENTS = [
  'ticket_created',
  'message_received',
  'ticket_assigned',
  'ticket_transferred',
  'ticket_closed',
  'tag_added',
  'sla_breached',
  'no_customer_reply',
  'no_agent_reply',
] as const;
export type AutomationEventType = (typeof AUTOMATION_EVENTS)[number];
export const TIMED_EVENTS: readonly AutomationEventType[] = ['no_customer_reply', 'no_agent_reply'];

export const AUTOMATION_ACTIONS = [
  'assign_user',
  'assign_queue',
  'add_tag',
  'remove_tag',
  'set_field',
  'send_message',
  'send_quick_message',
  'add_note',
  'set_status',
  'webhook',
  'wait',
] as const;
export type AutomationActionType = (typeof AUTOMATION_ACTIONS)[number];

/** Bounds: a company's rules (the benchmark runs 100 active ones), and the size of one rule. */
export const MAX_AUTOMATION_RULES = 200;
export const MAX_RULE_CONDITIONS = 20;
export const MAX_RULE_ACTIONS = 20;
export const MAX_MACROS_PER_OWNER = 100;
/** Actions all rules together may run on one ticket in one hour; the rest are logged as skipped. */
export const AUTOMATION_ACTIONS_PER_TICKET_HOUR = 30;
/**
 * Loop guard: an event caused by a rule's action carries the chain of rules behind it. A rule never
 * runs on an event its own chain caused, and an event deeper than this is not evaluated at all.
 */
export const MAX_AUTOMATION_CHAIN = 3;
/** The longest wait between two actions, and the longest "no reply for N minutes". */
export const MAX_WAIT_MINUTES = 30 * 24 * 60;
/** Dry run: the tickets of this many days back, at most this many tickets read. */
export const DRY_RUN_DAYS = 7;
export const DRY_RUN_MAX_TICKETS = 2000;
export const MAX_PATTERN_LENGTH = 200;

const id = z.number().int().positive();
const minutes = z.number().int().min(1).max(MAX_WAIT_MINUTES);
const text = (max: number) => z.string({ error: MSG.required }).trim().min(1, MSG.required).max(max, MSG.long);

export const AutomationEvent = z
  .object({ type: z.enum(AUTOMATION_EVENTS), minutes: minutes.optional() })
  .strict()
  .superRefine((v, ctx) => {
    const timed = TIMED_EVENTS.includes(v.type);
    if (timed && v.minutes === undefined) ctx.addIssue({ code: 'custom', path: ['minutes'], message: MSG.required });
    if (!timed && v.minutes !== undefined) ctx.addIssue({ code: 'custom', path: ['minutes'], message: MSG.invalid });
  });
export type AutomationEvent = z.infer<typeof AutomationEvent>;

/** `in`/`not_in` need ids; `empty`/`not_empty` (no queue, nobody assigned, no tag) take none. */
const refOp = z.enum(['in', 'not_in', 'empty', 'not_empty']);
const refCondition = <T extends string>(type: T) =>
  z.object({ type: z.literal(type), op: refOp, ids: z.array(id).max(100).default([]) }).strict();

export const AutomationCondition = z.discriminatedUnion('type', [
  refCondition('queue'),
  refCondition('connection'),
  refCondition('tag'),
  refCondition('assignee'),
  z
    .object({
      type: z.literal('status'),
      op: z.enum(['in', 'not_in']),
      values: z.array(z.enum(TICKET_STATUSES)).min(1),
    })
    .strict(),
  /** the company's business hours (the out-of-hours settings) */
  z.object({ type: z.literal('business_hours'), within: z.boolean() }).strict(),
  /**
   * The customer's message that started the event (message_received; on other events the ticket's
   * last customer message). `contains`: accent- and case-insensitive; `matches`: a safe regular
   * expression (refused when it could backtrack without bound).
   */
  z
    .object({
      type: z.literal('message'),
      op: z.enum(['contains', 'not_contains', 'matches']),
      value: text(MAX_PATTERN_LENGTH),
    })
    .strict(),
  z
    .object({
      type: z.literal('field'),
      entity: z.enum(CUSTOM_FIELD_ENTITIES),
      key: z.string().regex(CUSTOM_FIELD_KEY, MSG.invalid),
      op: z.enum(['eq', 'neq', 'contains', 'gt', 'lt', 'empty', 'not_empty']),
      value: z.union([z.string().max(1000), z.number(), z.boolean()]).optional(),
    })
    .strict(),
]);
export type AutomationCondition = z.infer<typeof AutomationCondition>;

/** Message bodies take the message variables (`{{name}}`, `{{contact.<key>}}`, shared/message-variables.ts). */
export const AutomationAction = z.discriminatedUnion('type', [
  z.object({ type: z.literal('assign_user'), userId: id }).strict(),
  /** to a queue; `roundRobin` then picks its attendant by capacity (tickets/round-robin.ts) */
  z.object({ type: z.literal('assign_queue'), queueId: id, roundRobin: z.boolean().default(false) }).strict(),
  z.object({ type: z.literal('add_tag'), tagId: id }).strict(),
  z.object({ type: z.literal('remove_tag'), tagId: id }).strict(),
  z
    .object({
      type: z.literal('set_field'),
      entity: z.enum(CUSTOM_FIELD_ENTITIES),
      key: z.string().regex(CUSTOM_FIELD_KEY, MSG.invalid),
      /** null clears it; checked against the field's type when the rule is saved and when it runs */
      value: z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]),
    })
    .strict(),
  z.object({ type: z.literal('send_message'), body: text(4096) }).strict(),
  z.object({ type: z.literal('send_quick_message'), quickMessageId: id }).strict(),
  z.object({ type: z.literal('add_note'), body: text(4096) }).strict(),
  /** `message`: sent to the customer before the change (closing with a goodbye) */
  z.object({ type: z.literal('set_status'), status: z.enum(TICKET_STATUSES), message: text(4096).optional() }).strict(),
  /** POSTs the ticket as JSON through the outbound guard (integrations/call.ts): public https hosts only */
  z.object({ type: z.literal('webhook'), url: z.string().trim().url(MSG.invalid).max(2000, MSG.long) }).strict(),
  z.object({ type: z.literal('wait'), minutes }).strict(),
]);
export type AutomationAction = z.infer<typeof AutomationAction>;

const ruleName = text(80);

export const AutomationRuleBody = z
  .object({
    name: ruleName,
    active: z.boolean().default(true),
    event: AutomationEvent,
    conditions: z.array(AutomationCondition).max(MAX_RULE_CONDITIONS, MSG.long).default([]),
    actions: z.array(AutomationAction).min(1, MSG.required).max(MAX_RULE_ACTIONS, MSG.long),
  })
  .strict()
  .superRefine((v, ctx) => {
    // a trailing wait would resume to do nothing
    if (v.actions.at(-1)?.type === 'wait')
      ctx.addIssue({ code: 'custom', path: ['actions', v.actions.length - 1], message: MSG.invalid });
  });
export type AutomationRuleBody = z.infer<typeof AutomationRuleBody>;
/** PUT /automation-rules/{id}: the whole rule, as POST */
export const AutomationRuleUpdateBody = AutomationRuleBody;

export const AutomationRule = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  active: z.boolean(),
  event: AutomationEvent,
  conditions: z.array(AutomationCondition),
  actions: z.array(AutomationAction),
  /** evaluation order (lowest first; ties by id); the list's order on the rules page */
  order: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AutomationRule = z.infer<typeof AutomationRule>;

/** What happened to one action of a run. */
export const ACTION_OUTCOMES = ['done', 'failed', 'skipped', 'waiting'] as const;
export const AutomationActionResult = z.object({
  type: z.enum(AUTOMATION_ACTIONS),
  outcome: z.enum(ACTION_OUTCOMES),
  /** an ERR_* code or a short reason (`capped`, `loop`, `ticket_closed` ...) */
  reason: z.string().optional(),
});
export type AutomationActionResult = z.infer<typeof AutomationActionResult>;

/** One run of a rule (or a macro) on a ticket: logged per rule and per ticket. */
export const AutomationRun = z.object({
  id: z.string(),
  companyId: z.number(),
  ruleId: z.number().nullable(),
  macroId: z.number().nullable(),
  name: z.string(),
  ticketId: z.number(),
  event: z.enum([...AUTOMATION_EVENTS, 'macro']),
  /** the conditions that held, as the editor words them (for the log) */
  matched: z.array(z.string()),
  actions: z.array(AutomationActionResult),
  /** who ran a macro */
  userId: z.number().nullable(),
  at: z.string(),
});
export type AutomationRun = z.infer<typeof AutomationRun>;

/** POST /automation-rules/dry-run: a rule as the editor holds it (saved or not). */
export const DryRunBody = AutomationRuleBody;
export const DryRunMatch = z.object({
  ticketId: z.number(),
  contactName: z.string(),
  /** when the event would have happened */
  at: z.string(),
  /** each action as it would have run, with message variables filled ("Enviaria: Olá Maria") */
  actions: z.array(z.object({ type: z.enum(AUTOMATION_ACTIONS), preview: z.string() })),
});
export const DryRunResult = z.object({
  from: z.string(),
  to: z.string(),
  /** tickets looked at; `truncated` when DRY_RUN_MAX_TICKETS cut the look-back short */
  scanned: z.number(),
  truncated: z.boolean(),
  matches: z.array(DryRunMatch),
});
export type DryRunResult = z.infer<typeof DryRunResult>;

/** Macros: the rules' actions without waits, personal (`shared` false) or for everyone (admins). */
export const MacroAction = AutomationAction.refine((a) => a.type !== 'wait', { message: MSG.invalid });
/** `alt+1` .. `alt+9`: the macro's keyboard shortcut on the ticket page */
export const MACRO_SHORTCUT = /^alt\+[1-9]$/;
export const MacroBody = z
  .object({
    name: text(60),
    shared: z.boolean().default(false),
    actions: z.array(MacroAction).min(1, MSG.required).max(MAX_RULE_ACTIONS, MSG.long),
    shortcut: z.string().regex(MACRO_SHORTCUT, MSG.invalid).nullable().default(null),
  })
  .strict();
export type MacroBody = z.infer<typeof MacroBody>;

export const Macro = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  /** the owner of a personal macro; null for a shared one */
  userId: z.number().nullable(),
  shared: z.boolean(),
  actions: z.array(AutomationAction),
  shortcut: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Macro = z.infer<typeof Macro>;

export const MacroRunBody = z.object({ ticketId: z.number().int().positive() }).strict();
