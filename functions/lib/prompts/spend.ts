import { parseAiCallLimit } from '#shared/constants';
import { AppError } from '../errors';
import { getItem, updateItem } from '../db';
import { nowIso } from '../keys';
import { publish } from '../realtime';
import { recordAudit } from '../audit/record';
import { settingValue } from '../settings';
import { companyPlan } from '../accounts/companies';
import { openAiCompatible, type ChatRequest } from './chat-model';
import { countAiCall } from '../dashboard/agent';

/**
 * What the company's AI costs, per month: every model call (the agent's answers and summaries, the
 * copilot, the test bench) is counted on one item, pk `C#<cid>#AI`, sk `M#<yyyy-mm>`, as `calls` and
 * `tokens` in total and per purpose (`calls#agent`, `tokens#copilot`, ...).
 *
 * The cap (issue 39 item 3) is checked before a piece of work starts, never between the calls of one
 * answer: `assertAiBudget` once, then every call of that answer goes through `meteredChat`.
 */
export type AiPurpose = 'agent' | 'summary' | 'copilot' | 'bench';

export const spendKeys = (companyId: number, month: string) => ({ pk: `C#${companyId}#AI`, sk: `M#${month}` });
export const monthOf = (at = new Date()) => at.toISOString().slice(0, 7);

export interface AiSpend {
  month: string;
  calls: number;
  tokens: number;
  byPurpose: Partial<Record<AiPurpose, { calls: number; tokens: number }>>;
}

export async function aiSpendOf(companyId: number, month = monthOf()): Promise<AiSpend> {
  const item = (await getItem(spendKeys(companyId, month), { consistent: true })) ?? {};
  const byPurpose: AiSpend['byPurpose'] = {};
  for (const purpose of ['agent', 'summary', 'copilot', 'bench'] as const) {
    const calls = Number(item[`calls#${purpose}`] ?? 0);
    if (calls) byPurpose[purpose] = { calls, tokens: Number(item[`tokens#${purpose}`] ?? 0) };
  }
  return { month, calls: Number(item.calls ?? 0), tokens: Number(item.tokens ?? 0), byPurpose };
}

async function recordAiSpend(companyId: number, purpose: AiPurpose, tokens: number) {
  await updateItem(spendKeys(companyId, monthOf()), {
    add: { calls: 1, tokens, [`calls#${purpose}`]: 1, [`tokens#${purpose}`]: tokens },
  });
}

/** One model call, counted on the company's month whether or not its answer is used. */
export async function meteredChat(companyId: number, purpose: AiPurpose, request: ChatRequest): Promise<string> {
  const { text, tokens } = await openAiCompatible().chat(request);
  // the month's spend (the cap) and the day's (the dashboard's period, dashboard/agent.ts)
  await Promise.all([recordAiSpend(companyId, purpose, tokens), countAiCall(companyId, tokens)]);
  return text;
}

/** Raised before work starts when the company's month is spent (see assertAiBudget). */
export class AiBudgetSpent extends AppError {
  constructor(readonly budget?: AiBudget) {
    super(
      'ERR_AI_BUDGET_SPENT',
      429,
      budget ? { limit: budget.limit, source: budget.source, month: budget.month } : undefined,
    );
  }
}

/**
 * The company's model calls this month against its cap: the admin's setting `aiMonthlyCallLimit` and
 * the plan's `aiCallsPerMonth` (empty, absent or 0: no cap), the lower of the two. Calls of every
 * purpose count (agent, summaries, copilot, test bench).
 */
export interface AiBudget {
  month: string;
  calls: number;
  /** null: no cap */
  limit: number | null;
  /** which cap applies (the lower one; the setting when both are equal) */
  source?: 'setting' | 'plan';
  spent: boolean;
}

export async function aiBudgetOf(companyId: number, at = new Date()): Promise<AiBudget> {
  const month = monthOf(at);
  const [spend, setting, plan] = await Promise.all([
    getItem(spendKeys(companyId, month), { consistent: true }),
    settingValue(companyId, 'aiMonthlyCallLimit'),
    companyPlan(companyId),
  ]);
  const calls = Number(spend?.calls ?? 0);
  const bySetting = parseAiCallLimit(setting);
  const byPlan = plan?.aiCallsPerMonth ? plan.aiCallsPerMonth : null;
  const limit = bySetting === null ? byPlan : byPlan === null ? bySetting : Math.min(bySetting, byPlan);
  const source = limit === null ? undefined : limit === bySetting ? 'setting' : 'plan';
  return { month, calls, limit, ...(source ? { source } : {}), spent: limit !== null && calls >= limit };
}

/**
 * Before an answer (or any piece of AI work) starts: AiBudgetSpent when the month is spent. Never
 * called between the calls of one answer, so an answer under way is never cut in half.
 */
export async function assertAiBudget(companyId: number): Promise<AiBudget> {
  const budget = await aiBudgetOf(companyId);
  if (budget.spent) throw new AiBudgetSpent(budget);
  return budget;
}

/**
 * The company's admins are told once per month that its AI stopped: the first caller marks the
 * month's spend item (a conditional write, so concurrent hand-offs tell them once), then the
 * admins' screens get the `aiBudget` event and the audit trail an `ai.budget_spent` entry.
 * Answers whether this call told them.
 */
export async function tellAdminsAiBudgetSpent(companyId: number, budget: AiBudget): Promise<boolean> {
  const at = nowIso();
  const marked = await updateItem(spendKeys(companyId, budget.month), {
    set: { spentNoticeAt: at },
    condition: 'attribute_not_exists(spentNoticeAt)',
  });
  if (!marked) return false;
  const details = { month: budget.month, calls: budget.calls, limit: budget.limit, source: budget.source ?? null };
  await recordAudit({
    companyId,
    action: 'ai.budget_spent',
    actorId: null,
    target: { type: 'ai', id: budget.month },
    changes: details,
  });
  await publish(companyId, 'aiBudget', { action: 'update', spent: true, ...details }, { kind: 'admins' });
  return true;
}
