import type { Queue, QueueOption } from '#shared/schemas/queues';
import { batchGet, getItem, queryAll, stripKeys, type Item } from '../db';
import { pad } from '../keys';

/**
 * A queue: pk `C#<cid>`, sk `QUEUE#<pad(id)>`. Its name and colour are unique per company through
 * guard items `QUEUENAME#<name>` and `QUEUECOLOR#<color>` (lower case) written in the same
 * transaction; the plan limit is the usage counter `usage#queues`.
 *
 * A chatbot option: pk `C#<cid>`, sk `QOPTION#<pad(id)>`, and on gsi1 `C#<cid>#QOPTIONS#<pad(queueId)>`
 * / `<pad(id)>` so one Query reads a queue's whole option tree.
 */
export const queueKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `QUEUE#${pad(id)}` });
export const queueNameGuardKeys = (companyId: number, name: string) => ({
  pk: `C#${companyId}`,
  sk: `QUEUENAME#${name.trim().toLowerCase()}`,
});
export const queueColorGuardKeys = (companyId: number, color: string) => ({
  pk: `C#${companyId}`,
  sk: `QUEUECOLOR#${color.trim().toLowerCase()}`,
});
export const QUEUES_USAGE = 'usage#queues';

export const queueOptionKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `QOPTION#${pad(id)}` });
export const queueOptionIndex = (companyId: number, queueId: number, id: number) => ({
  gsi1pk: `C#${companyId}#QOPTIONS#${pad(queueId)}`,
  gsi1sk: pad(id),
});

const toQueue = (item: Item) => stripKeys(item) as Queue;
const toOption = (item: Item) => stripKeys(item) as QueueOption;

export async function getQueue(companyId: number, id: number): Promise<Queue | undefined> {
  const item = await getItem(queueKeys(companyId, id));
  return item ? toQueue(item) : undefined;
}

/** Queues in the order the product shows them: orderQueue (unset last), then name. */
export function sortQueues(queues: Queue[]): Queue[] {
  const order = (q: Queue) =>
    q.orderQueue === null || q.orderQueue === undefined ? Number.MAX_SAFE_INTEGER : q.orderQueue;
  return [...queues].sort((a, b) => order(a) - order(b) || a.name.localeCompare(b.name));
}

/** Every queue of the company (a small, plan-bounded partition range). */
export async function listQueues(companyId: number): Promise<Queue[]> {
  const items = await queryAll({ pk: `C#${companyId}`, sk: { beginsWith: 'QUEUE#' } });
  return sortQueues(items.map(toQueue));
}

/** The company's queues among `ids`; ids of other companies or deleted queues are simply absent. */
export async function getQueues(companyId: number, ids: number[]): Promise<Queue[]> {
  if (!ids.length) return [];
  const items = await batchGet(ids.map((id) => queueKeys(companyId, id)));
  return sortQueues(items.map(toQueue));
}

export async function getOption(companyId: number, id: number): Promise<QueueOption | undefined> {
  const item = await getItem(queueOptionKeys(companyId, id));
  return item ? toOption(item) : undefined;
}

/** Every option of a queue, flat (one Query on gsi1). */
export async function listQueueOptions(companyId: number, queueId: number): Promise<QueueOption[]> {
  const items = await queryAll({ index: 'gsi1', pk: queueOptionIndex(companyId, queueId, 0).gsi1pk });
  return items.map(toOption);
}

/** Options are shown by their position label: "1" < "2" < "10", then by id. */
export function compareOptions(a: QueueOption, b: QueueOption) {
  return a.option.localeCompare(b.option, undefined, { numeric: true }) || a.id - b.id;
}

/** Builds the nested tree (children ordered by option) from a flat list. */
export function buildOptionTree(options: QueueOption[], parentId: number | null = null): QueueOption[] {
  return options
    .filter((o) => (o.parentId ?? null) === parentId)
    .sort(compareOptions)
    .map((o) => ({ ...o, children: buildOptionTree(options, o.id) }));
}

/** A queue's chatbot menu, nested and ordered by option (for the chatbot engine). */
export async function getOptionTree(companyId: number, queueId: number): Promise<QueueOption[]> {
  return buildOptionTree(await listQueueOptions(companyId, queueId));
}
