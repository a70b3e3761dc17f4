import type { Ticket } from '#shared/schemas/tickets';
import { getItem, updateItem } from '../db';
import { log } from '../log';

/**
 * Count badges of the ticket lists (Assigned, Pending): one counter per list partition, all kept
 * as attributes of ONE item per company (`C#<cid>#TCOUNT` / `LISTS`, attributes `TS#<status>`,
 * `TQ#<queueId|0>#<status>`, `TU#<userId|0>#<status>`). A move between partitions (status, queue,
 * user) is one UpdateItem with several ADDs; a badge is one GetItem, never a count over tickets.
 */
const countKeys = (companyId: number) => ({ pk: `C#${companyId}#TCOUNT`, sk: 'LISTS' });
type Placed = Pick<Ticket, 'companyId' | 'status' | 'queueId' | 'userId'>;

const partitionsOf = (t: Placed) => [
  `TS#${t.status}`,
  `TQ#${t.queueId ?? 0}#${t.status}`,
  `TU#${t.userId ?? 0}#${t.status}`,
];

/** One atomic ADD after the business write (no transaction); a failure only skews a badge and is logged. */
export async function moveListCounts(before: Placed | null, after: Placed | null) {
  const delta: Record<string, number> = {};
  for (const p of before ? partitionsOf(before) : []) delta[p] = (delta[p] ?? 0) - 1;
  for (const p of after ? partitionsOf(after) : []) delta[p] = (delta[p] ?? 0) + 1;
  const changes = Object.fromEntries(Object.entries(delta).filter(([, n]) => n !== 0));
  if (!Object.keys(changes).length) return;
  const companyId = (after ?? before)!.companyId;
  await updateItem(countKeys(companyId), { add: changes }).catch((err) =>
    log.error('ticket count update failed', { error: (err as Error).message }),
  );
}

/** Sum of the counters of the given list partitions (`TS#…`, `TQ#…`, `TU#…`): one GetItem. */
export async function listCount(companyId: number, partitions: string[]): Promise<number> {
  if (!partitions.length) return 0;
  const item = await getItem<Record<string, number>>(countKeys(companyId));
  return partitions.reduce((sum, p) => sum + Math.max(0, Number(item?.[p]) || 0), 0);
}
