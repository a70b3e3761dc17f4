import type { Plan } from '#shared/schemas/accounts';
import type { PlanLimit } from '#shared/plans';
import { AppError } from '../errors';
import { counterTx, companyScope } from '../ids';

/**
 * Plan limits (users, connections, queues): one usage counter per company and limit,
 * `COUNTER#usage#<limit>`, raised in the creating transaction on the condition that it stays under
 * the plan's number, and lowered by deletions. Every creating service takes both pieces from here.
 */
export const usageCounter = (limit: PlanLimit) => `usage#${limit}`;

export const usageTx = (companyId: number, limit: PlanLimit, plan: Plan | undefined) =>
  counterTx(companyScope(companyId), usageCounter(limit), 1, plan?.[limit]);

/** The error of a failed usage condition: which limit, and the plan's number. */
export const planLimitReached = (limit: PlanLimit, plan: Plan | undefined) => limitReached(limit, plan?.[limit]);
export const limitReached = (limit: PlanLimit, max: number | undefined) =>
  new AppError('ERR_PLAN_LIMIT_REACHED', 403, { limit, max: max ?? null });
