import { AppError } from '../errors';
import { getItem, updateItem } from '../db';
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
  constructor() {
    super('ERR_AI_BUDGET_SPENT', 429);
  }
}
