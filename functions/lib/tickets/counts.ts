import type { Ticket } from '#shared/schemas/tickets';
import { getItem, updateTx, type TransactItem } from '../db';
import { listStatus } from './repo';

/**
 * Count badges of the ticket lists (Assigned, Pending) and automatic assignment's bookkeeping, all
 * kept as attributes of ONE item per company (`C#<cid>#TCOUNT` / `LISTS`):
 * - `TS#<status>`, `TQ#<queueId|0>#<status>`, `TU#<userId|0>#<status>`: one counter per list
 *   partition. `TU#<userId>#open` is also the attendant's open-ticket count that their capacity
 *   (maxOpenTickets) is checked against; a snoozed ticket is under `snoozed` (repo.ts listStatus)
 *   until it wakes, so it frees its slot meanwhile.
 * - `RR#<queueId>`: the user a round-robin queue chose last (assignment.ts).
 * A move between partitions is one Update of this item inside the ticket's own transaction, so the
 * counts are exactly the tickets; a badge is one GetItem, never a count over tickets.
 */
export const countKeys = (companyId: number) => ({ pk: `C#${companyId}#TCOUNT`, sk: 'LISTS' });
type Placed = Pick<Ticket, 'companyId' | 'status' | 'queueId' | 'userId' | 'snooze'>;

/** A snoozed open ticket is counted under `snoozed` (repo.ts listStatus): not in the open badges, nor in capacity. */
const partitionsOf = (t: Placed) => {
  const status = listStatus(t);
  return [`TS#${status}`, `TQ#${t.queueId ?? 0}#${status}`, `TU#${t.userId ?? 0}#${status}`];
};
/** The counter of an attendant's open tickets. */
export const openCountField = (userId: number) => `TU#${userId}#open`;
const pointerField = (queueId: number) => `RR#${queueId}`;

/** What an automatic assignment adds to the move (assignment.ts). */
export interface AssignCheck {
  /** the assignee and their capacity (null: no limit): the move fails if they are at it */
  userId: number;
  max: number | null;
  /** the queue's round-robin pointer moves to the assignee, only from the value the chooser read */
  queueId: number;
  last: number | null;
}

/**
 * The counters' move of a ticket change (before null: created; after null: deleted), for the
 * ticket's own transaction; none when the ticket stays in the same lists. With `assign`, the item
 * is written in any case and carries its conditions.
 */
export function listCountTx(before: Placed | null, after: Placed | null, assign?: AssignCheck): TransactItem[] {
  const delta: Record<string, number> = {};
  for (const p of before ? partitionsOf(before) : []) delta[p] = (delta[p] ?? 0) - 1;
  for (const p of after ? partitionsOf(after) : []) delta[p] = (delta[p] ?? 0) + 1;
  const add = Object.fromEntries(Object.entries(delta).filter(([, n]) => n !== 0));
  if (!Object.keys(add).length && !assign) return [];
  const companyId = (after ?? before)!.companyId;
  if (!assign) return [updateTx(countKeys(companyId), { add })];
  const conditions: string[] = [];
  const names: Record<string, string> = { '#rr': pointerField(assign.queueId) };
  const values: Record<string, unknown> = {};
  conditions.push(assign.last === null ? 'attribute_not_exists(#rr)' : '#rr = :last');
  if (assign.last !== null) values[':last'] = assign.last;
  if (assign.max !== null) {
    names['#open'] = openCountField(assign.userId);
    values[':max'] = assign.max;
    conditions.push('(attribute_not_exists(#open) OR #open < :max)');
  }
  return [
    updateTx(countKeys(companyId), {
      add,
      set: { [pointerField(assign.queueId)]: assign.userId },
      condition: conditions.join(' AND '),
      conditionNames: names,
      conditionValues: Object.keys(values).length ? values : undefined,
    }),
  ];
}

/** Sum of the counters of the given list partitions (`TS#…`, `TQ#…`, `TU#…`) on the counts item (`countKeys`). */
export function listCount(item: Record<string, unknown> | undefined, partitions: string[]): number {
  return partitions.reduce((sum, p) => sum + Math.max(0, Number(item?.[p]) || 0), 0);
}

/** What automatic assignment reads: the attendants' open tickets and the queues' pointers (one GetItem, consistent). */
export async function readAssignState(companyId: number) {
  const item = (await getItem<Record<string, number>>(countKeys(companyId), { consistent: true })) ?? {};
  return {
    openOf: (userId: number) => Math.max(0, Number(item[openCountField(userId)]) || 0),
    lastOf: (queueId: number): number | null => {
      const last = item[pointerField(queueId)];
      return typeof last === 'number' ? last : null;
    },
  };
}
