import type { Plan } from '#shared/schemas/accounts';
import { getItem, putItem, queryAll, stripKeys } from '../db';
import { nextId, GLOBAL_SCOPE } from '../ids';
import { pad } from '../keys';

/** Plans are platform-wide: pk `PLAN`, sk `PLAN#<id>`. */
export const planKeys = (id: number) => ({ pk: 'PLAN', sk: `PLAN#${pad(id)}` });

export async function getPlan(id: number): Promise<Plan | undefined> {
  const item = await getItem(planKeys(id));
  return item ? (stripKeys(item) as Plan) : undefined;
}

export async function listPlans(): Promise<Plan[]> {
  const items = await queryAll({ pk: 'PLAN', sk: { beginsWith: 'PLAN#' } });
  return items.map((i) => stripKeys(i) as Plan);
}

export async function createPlan(data: Omit<Plan, 'id'>): Promise<Plan> {
  const plan: Plan = { id: await nextId(GLOBAL_SCOPE, 'plan'), ...data };
  await putItem({ ...planKeys(plan.id), ...plan });
  return plan;
}
