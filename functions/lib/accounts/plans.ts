import type { Plan } from '#shared/schemas/accounts';
import type { PlanBody } from '#shared/schemas/billing';
import { PLAN_FEATURES } from '#shared/plans';
import { AppError } from '../errors';
import { deleteTx, getItem, putTx, queryAll, stripKeys, transact, updateTx, type TransactItem } from '../db';
import { nextId, GLOBAL_SCOPE } from '../ids';
import { pad, nowIso } from '../keys';
import { auditBy, changesOf, type AuditActor } from '../audit/actor';

/**
 * Plans are platform-wide: pk `PLAN`, sk `PLAN#<id>`, with `companiesCount` (kept by the company
 * writes, so a plan in use cannot be deleted) and a name guard `PLAN` / `NAME#<lower name>`.
 */
export const planKeys = (id: number) => ({ pk: 'PLAN', sk: `PLAN#${pad(id)}` });
export const planNameKeys = (name: string) => ({ pk: 'PLAN', sk: `NAME#${name.trim().toLowerCase()}` });

const toPlan = (item: Record<string, unknown>): Plan => {
  const {
    companiesCount: _c,
    createdAt: _a,
    updatedAt: _u,
    ...plan
  } = stripKeys(item) as Plan & {
    companiesCount?: number;
    createdAt?: string;
    updatedAt?: string;
  };
  return plan;
};

export async function getPlan(id: number): Promise<Plan | undefined> {
  const item = await getItem(planKeys(id));
  return item ? toPlan(item) : undefined;
}

export async function requirePlan(id: number): Promise<Plan> {
  const plan = await getPlan(id);
  if (!plan) throw new AppError('ERR_NOT_FOUND');
  return plan;
}

export async function listPlans(): Promise<Plan[]> {
  const items = await queryAll({ pk: 'PLAN', sk: { beginsWith: 'PLAN#' } });
  return items.map(toPlan);
}

/** The company count of a plan moves with the company writes (`delta` +1 / -1), in their transaction. */
export const planUseTx = (planId: number, delta: number): TransactItem =>
  updateTx(planKeys(planId), { add: { companiesCount: delta }, condition: 'attribute_exists(pk)' });

const duplicatedName = () => new AppError('ERR_DUPLICATED', 409, [{ path: ['name'], message: 'duplicated' }]);

const flagsOf = (body: Partial<PlanBody>) =>
  Object.fromEntries(PLAN_FEATURES.filter((f) => body[f] !== undefined).map((f) => [f, body[f]]));

/** What the audit trail shows of a plan change: every field of the form (a new plan: the features it has). */
const PLAN_LIMIT_FIELDS: (keyof Plan)[] = ['name', 'users', 'connections', 'queues', 'value', 'aiCallsPerMonth'];
const PLAN_FIELDS: (keyof Plan)[] = [...PLAN_LIMIT_FIELDS, ...PLAN_FEATURES];

/** Plans are the platform's: their changes go to the platform company's trail (the super user's own). */
const auditPlan = (by: AuditActor | undefined, plan: Plan, changes: Record<string, unknown>, op: string) =>
  auditBy(by, {
    action: 'plan.changed',
    target: { type: 'plan', id: plan.id, name: plan.name },
    changes: { op, ...changes },
  });

export async function createPlan(body: PlanBody, by?: AuditActor): Promise<Plan> {
  const id = await nextId(GLOBAL_SCOPE, 'plan');
  const plan: Plan = {
    id,
    name: body.name,
    users: body.users,
    connections: body.connections,
    queues: body.queues,
    value: body.value,
    aiCallsPerMonth: body.aiCallsPerMonth ?? 0,
    ...(Object.fromEntries(PLAN_FEATURES.map((f) => [f, body[f] ?? false])) as Record<
      (typeof PLAN_FEATURES)[number],
      boolean
    >),
  };
  const now = nowIso();
  await transact(
    [
      putTx({ ...planNameKeys(plan.name), planId: id }, true),
      putTx({ ...planKeys(id), ...plan, companiesCount: 0, createdAt: now, updatedAt: now }, true),
    ],
    (index) => (index === 0 ? duplicatedName() : new AppError('ERR_CONFLICT')),
  );
  const features = PLAN_FEATURES.filter((f) => plan[f]);
  await auditPlan(
    by,
    plan,
    { ...changesOf(undefined, plan, PLAN_LIMIT_FIELDS), features: { to: features } },
    'created',
  );
  return plan;
}

export async function updatePlan(id: number, body: Partial<PlanBody>, by?: AuditActor): Promise<Plan> {
  const current = await requirePlan(id);
  const { name, users, connections, queues, value, aiCallsPerMonth } = body;
  const renamed = name !== undefined && name.trim().toLowerCase() !== current.name.trim().toLowerCase();
  const items: TransactItem[] = [
    updateTx(planKeys(id), {
      set: { name, users, connections, queues, value, aiCallsPerMonth, ...flagsOf(body), updatedAt: nowIso() },
      condition: 'attribute_exists(pk)',
    }),
  ];
  if (renamed) {
    items.push(putTx({ ...planNameKeys(name), planId: id }, true), deleteTx(planNameKeys(current.name)));
  }
  await transact(items, (index) => (index === 1 ? duplicatedName() : new AppError('ERR_NOT_FOUND')));
  const updated = await requirePlan(id);
  const changes = changesOf(current, updated, PLAN_FIELDS);
  if (Object.keys(changes).length) await auditPlan(by, updated, changes, 'updated');
  return updated;
}

/** A plan some company uses is kept (ERR_PLAN_IN_USE): companies must move to another plan first. */
export async function deletePlan(id: number, by?: AuditActor) {
  const current = await requirePlan(id);
  const guarded = deleteTx(
    planKeys(id),
    'attribute_exists(pk) AND (attribute_not_exists(companiesCount) OR companiesCount <= :zero)',
  );
  await transact(
    [
      { Delete: { ...guarded.Delete!, ExpressionAttributeValues: { ':zero': 0 } } },
      deleteTx(planNameKeys(current.name)),
    ],
    () => new AppError('ERR_PLAN_IN_USE'),
  );
  await auditPlan(by, current, {}, 'deleted');
}
