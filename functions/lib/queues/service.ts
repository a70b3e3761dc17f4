import { DEFAULT_SCHEDULES } from '#shared/constants';
import type { Queue, QueueBody, QueueOption, QueueUpdateBody } from '#shared/schemas/queues';
import { AppError } from '../errors';
import {
  batchWrite,
  deleteTx,
  putItem,
  putTx,
  stripKeys,
  transact,
  updateItem,
  updateTx,
  type TransactItem,
} from '../db';
import { counterTx, companyScope, nextId } from '../ids';
import { nowIso } from '../keys';
import { publish } from '../realtime';
import { companyPlan } from '../accounts/companies';
import { planLimitReached, usageTx } from '../accounts/plan-limits';
import { removeQueueFromUsers } from '../users/service';
import { assertOwnAssistants } from '../integrations/links';
import { drainQueue } from '../tickets/assignment';
import {
  QUEUES_USAGE,
  buildOptionTree,
  getOption,
  getQueue,
  listQueueOptions,
  listQueues,
  queueColorGuardKeys,
  queueKeys,
  queueNameGuardKeys,
  queueOptionIndex,
  queueOptionKeys,
} from './repo';

const nameTaken = () => new AppError('ERR_DUPLICATED', 409, [{ path: ['name'], message: 'duplicated' }]);
const colorTaken = () => new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS');

export async function requireQueue(companyId: number, id: number): Promise<Queue> {
  const queue = await getQueue(companyId, id);
  if (!queue) throw new AppError('ERR_NOT_FOUND');
  return queue;
}

/** Creates a queue with its name and colour guards and the plan's queue counter in one transaction. */
export async function createQueue(companyId: number, body: QueueBody): Promise<Queue> {
  await assertOwnAssistants(companyId, body);
  const plan = await companyPlan(companyId);
  const id = await nextId(companyScope(companyId), 'queue');
  const now = nowIso();
  const queue: Queue = {
    id,
    companyId,
    name: body.name,
    color: body.color,
    greetingMessage: body.greetingMessage ?? '',
    outOfHoursMessage: body.outOfHoursMessage ?? '',
    orderQueue: body.orderQueue ?? null,
    schedules: body.schedules?.length ? body.schedules : DEFAULT_SCHEDULES.map((d) => ({ ...d })),
    integrationId: body.integrationId ?? null,
    promptId: body.promptId ?? null,
    assignment: body.assignment ?? 'manual',
    slaFirstResponseMinutes: body.slaFirstResponseMinutes ?? null,
    slaResolutionHours: body.slaResolutionHours ?? null,
    slaBusinessHours: body.slaBusinessHours ?? false,
    createdAt: now,
    updatedAt: now,
  };
  await transact(
    [
      putTx({ ...queueNameGuardKeys(companyId, queue.name), queueId: id }, true),
      putTx({ ...queueColorGuardKeys(companyId, queue.color), queueId: id }, true),
      putTx({ ...queueKeys(companyId, id), ...queue }, true),
      usageTx(companyId, 'queues', plan),
    ],
    (index) => [nameTaken(), colorTaken(), new AppError('ERR_CONFLICT'), planLimitReached('queues', plan)][index]!,
  );
  await publish(companyId, 'queue', { action: 'create', queue });
  return queue;
}

/** Updates a queue; a new name or colour moves its guard item in the same transaction. */
export async function updateQueue(companyId: number, id: number, body: QueueUpdateBody): Promise<Queue> {
  const current = await requireQueue(companyId, id);
  await assertOwnAssistants(companyId, body);
  const next: Queue = {
    ...current,
    ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)),
    updatedAt: nowIso(),
  } as Queue;
  const items: TransactItem[] = [];
  const errors: (() => AppError)[] = [];
  const move = (oldKey: { pk: string; sk: string }, newKey: { pk: string; sk: string }, error: () => AppError) => {
    if (oldKey.sk === newKey.sk) return;
    items.push(putTx({ ...newKey, queueId: id }, true));
    errors.push(error);
    items.push(deleteTx(oldKey));
    errors.push(() => new AppError('ERR_CONFLICT'));
  };
  move(queueNameGuardKeys(companyId, current.name), queueNameGuardKeys(companyId, next.name), nameTaken);
  move(queueColorGuardKeys(companyId, current.color), queueColorGuardKeys(companyId, next.color), colorTaken);
  const { id: _id, companyId: _cid, createdAt: _created, ...fields } = next;
  items.push(updateTx(queueKeys(companyId, id), { set: fields, condition: 'attribute_exists(pk)' }));
  errors.push(() => new AppError('ERR_NOT_FOUND'));
  await transact(items, (index) => errors[index]!());
  await publish(companyId, 'queue', { action: 'update', queue: next });
  // switched to automatic: the tickets already waiting go out now
  if (next.assignment === 'roundRobin' && current.assignment !== 'roundRobin') await drainQueue(companyId, id);
  return next;
}

/**
 * A prompt or integration is being deleted: the queues that hand their tickets to it no longer do
 * (each cleared only while it still names that one, so a concurrent edit wins), and lists see it.
 */
export async function unlinkQueues(companyId: number, link: 'promptId' | 'integrationId', id: number) {
  for (const queue of (await listQueues(companyId)).filter((q) => q[link] === id)) {
    const updated = await updateItem(queueKeys(companyId, queue.id), {
      set: { [link]: null, updatedAt: nowIso() },
      condition: '#link = :id',
      conditionNames: { '#link': link },
      conditionValues: { ':id': id },
    });
    if (updated) await publish(companyId, 'queue', { action: 'update', queue: stripKeys(updated) as Queue });
  }
}

/** Deletes a queue with its guards, its chatbot options and its place in users' queue lists. */
export async function deleteQueue(companyId: number, id: number) {
  const queue = await requireQueue(companyId, id);
  await transact(
    [
      deleteTx(queueKeys(companyId, id), 'attribute_exists(pk)'),
      deleteTx(queueNameGuardKeys(companyId, queue.name)),
      deleteTx(queueColorGuardKeys(companyId, queue.color)),
      counterTx(companyScope(companyId), QUEUES_USAGE, -1),
    ],
    () => new AppError('ERR_NOT_FOUND'),
  );
  const options = await listQueueOptions(companyId, id);
  await batchWrite(
    [],
    options.map((o) => queueOptionKeys(companyId, o.id)),
  );
  await removeQueueFromUsers(companyId, id);
  await publish(companyId, 'queue', { action: 'delete', queueId: id });
}

// Chatbot options (management.md "Queues": a nested tree of options per queue).

export async function requireOption(companyId: number, id: number): Promise<QueueOption> {
  const option = await getOption(companyId, id);
  if (!option) throw new AppError('ERR_NOT_FOUND');
  return option;
}

/** The options under `parentId` (null: top level), each with its subtree. */
export async function listOptions(companyId: number, queueId: number, parentId: number | null): Promise<QueueOption[]> {
  await requireQueue(companyId, queueId);
  return buildOptionTree(await listQueueOptions(companyId, queueId), parentId);
}

export async function createOption(
  companyId: number,
  body: { queueId: number; parentId?: number | null; title?: string; message?: string; option?: string },
): Promise<QueueOption> {
  await requireQueue(companyId, body.queueId);
  const parentId = body.parentId ?? null;
  if (parentId !== null) {
    const parent = await getOption(companyId, parentId);
    // A parent from another queue (or company) would graft the option into someone else's tree.
    if (!parent || parent.queueId !== body.queueId) throw new AppError('ERR_NOT_FOUND');
  }
  const id = await nextId(companyScope(companyId), 'queueOption');
  const now = nowIso();
  const option: QueueOption = {
    id,
    queueId: body.queueId,
    parentId,
    title: body.title ?? '',
    message: body.message ?? '',
    option: body.option ?? '',
    createdAt: now,
    updatedAt: now,
  };
  await putItem(
    { ...queueOptionKeys(companyId, id), ...queueOptionIndex(companyId, body.queueId, id), ...option },
    { ifNotExists: true },
  );
  return { ...option, children: [] };
}

export async function updateOption(
  companyId: number,
  id: number,
  body: { title?: string; message?: string; option?: string },
) {
  const updated = await updateItem<QueueOption>(queueOptionKeys(companyId, id), {
    set: { ...body, updatedAt: nowIso() },
    condition: 'attribute_exists(pk)',
  });
  if (!updated) throw new AppError('ERR_NOT_FOUND');
  return stripKeys(updated) as QueueOption;
}

/** Deletes an option and every option below it. */
export async function deleteOption(companyId: number, id: number) {
  const option = await requireOption(companyId, id);
  const all = await listQueueOptions(companyId, option.queueId);
  const doomed = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const o of all) {
      if (o.parentId !== null && doomed.has(o.parentId) && !doomed.has(o.id)) {
        doomed.add(o.id);
        grew = true;
      }
    }
  }
  await batchWrite(
    [],
    [...doomed].map((optionId) => queueOptionKeys(companyId, optionId)),
  );
  return [...doomed];
}
