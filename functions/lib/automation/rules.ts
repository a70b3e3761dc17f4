/**
 * Automation rules (issue 40 item 2): a company's rules live in one small partition, read whole:
 * - `C#<cid>#RULES` / `RULE#<pad(id)>`: a rule (AutomationRule);
 * - `C#<cid>#RULES` / `VERSION` {v, events, timed}: ADDed 1 by every rule write, in the rule's own
 *   transaction (conditioned on the version the write read, so two concurrent writes never leave a
 *   stale summary); `events` lists the event types that have an active rule and `timed` the minutes
 *   of the active `no_*_reply` rules, so emitting an event (emit.ts) knows from this one small item
 *   whether anything listens.
 * The count is the counter item `C#<cid>` / `COUNTER#automationRules` (at most MAX_AUTOMATION_RULES).
 * The engine keeps each company's parsed rule set per instance by version (`loadRuleSet`): an event
 * costs the version read (folded into the BatchGet that reads the ticket) and a Query only when the
 * version moved, whatever the number of rules.
 */
import {
  AUTOMATION_EVENTS,
  MAX_AUTOMATION_RULES,
  TIMED_EVENTS,
  type AutomationEventType,
  type AutomationRule,
  type AutomationRuleBody,
} from '#shared/schemas/automation';
import { deleteTx, getItem, putTx, queryAll, stripKeys, transact, updateTx, type Item, type Key } from '../db';
import { AppError } from '../errors';
import { companyScope, counterTx, nextId } from '../ids';
import { nowIso, pad } from '../keys';
import { remember } from '../lru';

export const rulesPk = (companyId: number) => `C#${companyId}#RULES`;
export const ruleKeys = (companyId: number, id: number): Key => ({ pk: rulesPk(companyId), sk: `RULE#${pad(id)}` });
export const rulesVersionKeys = (companyId: number): Key => ({ pk: rulesPk(companyId), sk: 'VERSION' });
const RULES_COUNTER = 'automationRules';

/** What the version item says about the company's active rules. */
export interface RulesSummary {
  v: number;
  events: AutomationEventType[];
  timed: Partial<Record<AutomationEventType, number[]>>;
}
export const NO_RULES: RulesSummary = { v: 0, events: [], timed: {} };
export const summaryOf = (item: Item | undefined): RulesSummary =>
  item ? { v: Number(item.v ?? 0), events: item.events ?? [], timed: item.timed ?? {} } : NO_RULES;

const toRule = (item: Item) => stripKeys(item) as AutomationRule;
const byOrder = (a: AutomationRule, b: AutomationRule) => a.order - b.order || a.id - b.id;

/** Every rule of the company, by evaluation order. */
export async function listRules(companyId: number, consistent = false): Promise<AutomationRule[]> {
  const items = await queryAll({ pk: rulesPk(companyId), sk: { beginsWith: 'RULE#' }, consistent });
  return items.map(toRule).sort(byOrder);
}

export async function requireRule(companyId: number, id: number): Promise<AutomationRule> {
  const item = await getItem(ruleKeys(companyId, id));
  if (!item) throw new AppError('ERR_NOT_FOUND');
  return toRule(item);
}

function summarize(rules: AutomationRule[]): Omit<RulesSummary, 'v'> {
  const active = rules.filter((r) => r.active);
  const events = AUTOMATION_EVENTS.filter((e) => active.some((r) => r.event.type === e));
  const timed: RulesSummary['timed'] = {};
  for (const e of TIMED_EVENTS) {
    const minutes = [...new Set(active.filter((r) => r.event.type === e).map((r) => r.event.minutes!))];
    if (minutes.length) timed[e] = minutes.sort((a, b) => a - b);
  }
  return { events, timed };
}

/**
 * Writes one rule change with the version bump and the new summary in one transaction, conditioned
 * on the version read: a concurrent write makes it retry on the fresh list.
 */
async function commit(
  companyId: number,
  change: (rules: AutomationRule[]) => { rules: AutomationRule[]; items: ReturnType<typeof putTx>[] },
) {
  for (let attempt = 0; attempt < 4; attempt++) {
    const [versionItem, current] = await Promise.all([
      getItem(rulesVersionKeys(companyId), { consistent: true }),
      listRules(companyId, true),
    ]);
    const version = summaryOf(versionItem).v;
    const { rules, items } = change(current);
    const summary = summarize(rules);
    try {
      await transact(
        [
          updateTx(rulesVersionKeys(companyId), {
            set: { events: summary.events, timed: summary.timed, companyId },
            add: { v: 1 },
            condition: versionItem ? '#v = :v' : 'attribute_not_exists(pk)',
            ...(versionItem ? { conditionNames: { '#v': 'v' }, conditionValues: { ':v': version } } : {}),
          }),
          ...items,
        ],
        (index) =>
          index === 0
            ? new AppError('ERR_CONFLICT')
            : index === items.length
              ? new AppError('ERR_LIST_LIMIT_REACHED', undefined, {
                  limit: 'automationRules',
                  max: MAX_AUTOMATION_RULES,
                })
              : new AppError('ERR_NOT_FOUND'),
      );
      forgetRuleSet(companyId);
      return { ...summary, v: version + 1 };
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'ERR_CONFLICT') throw err;
    }
  }
  throw new AppError('ERR_CONFLICT');
}

export async function insertRule(companyId: number, body: AutomationRuleBody): Promise<AutomationRule> {
  const id = await nextId(companyScope(companyId), 'automationRule');
  const now = nowIso();
  const rule: AutomationRule = { id, companyId, ...body, order: id, createdAt: now, updatedAt: now };
  await commit(companyId, (rules) => ({
    rules: [...rules, rule],
    // the counter last: its refusal is the limit
    items: [
      putTx({ ...ruleKeys(companyId, id), ...rule }, true),
      counterTx(companyScope(companyId), RULES_COUNTER, 1, MAX_AUTOMATION_RULES),
    ],
  }));
  return rule;
}

export async function replaceRule(companyId: number, before: AutomationRule, body: AutomationRuleBody) {
  const rule: AutomationRule = { ...before, ...body, updatedAt: nowIso() };
  await commit(companyId, (rules) => ({
    rules: rules.map((r) => (r.id === rule.id ? rule : r)),
    items: [
      {
        Put: {
          ...putTx({ ...ruleKeys(companyId, rule.id), ...rule }).Put!,
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    ],
  }));
  return rule;
}

export async function removeRule(companyId: number, id: number) {
  await commit(companyId, (rules) => ({
    rules: rules.filter((r) => r.id !== id),
    items: [
      deleteTx(ruleKeys(companyId, id), 'attribute_exists(pk)'),
      counterTx(companyScope(companyId), RULES_COUNTER, -1),
    ],
  }));
}

/**
 * The company's active rules by event type, parsed, kept per instance under the version they were
 * read at: a caller that read the version (with the ticket) pays a Query only when it moved.
 */
export interface RuleSet {
  v: number;
  byEvent: Map<AutomationEventType, AutomationRule[]>;
}
const MAX_KEPT_SETS = 2_000;
const keptSets = new Map<number, RuleSet>();
export const forgetRuleSet = (companyId: number) => keptSets.delete(companyId);

export async function loadRuleSet(companyId: number, version: number): Promise<RuleSet> {
  const kept = keptSets.get(companyId);
  if (kept && kept.v === version) return kept;
  if (version === 0) return { v: 0, byEvent: new Map() };
  const rules = (await listRules(companyId, true)).filter((r) => r.active);
  const byEvent = new Map<AutomationEventType, AutomationRule[]>();
  for (const r of rules) byEvent.set(r.event.type, [...(byEvent.get(r.event.type) ?? []), r]);
  const set = { v: version, byEvent };
  remember(keptSets, companyId, set, MAX_KEPT_SETS);
  return set;
}
