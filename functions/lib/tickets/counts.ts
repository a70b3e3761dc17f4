import type { Ticket } from '#shared/schemas/tickets';
import { batchGet, updateItem } from '../db';
import { log } from '../log';

/**
 * Count badges of the ticket lists (Assigned, Pending): one counter per list partition, kept by
 * the writes that move a ticket between partitions (status, queue, user), so a badge is one
 * BatchGet of the partitions a list reads, never a count over tickets.
 * Item: pk `C#<cid>#TCOUNT`, sk `TS#<status>` | `TQ#<queueId|0>#<status>` | `TU#<userId|0>#<status>`, field `n`.
 */
const countPk = (companyId: number) => `C#${companyId}#TCOUNT`;
type Placed = Pick<Ticket, 'companyId' | 'status' | 'queueId' | 'userId'>;

const partitionsOf = (t: Placed) => [`TS#${t.status}`, `TQ#${t.queueId ?? 0}#${t.status}`, `TU#${t.userId ?? 0}#${t.status}`];

/** ADDs after the business write (atomic, no transaction); a failure only skews a badge and is logged. */
export async function moveListCounts(before: Placed | null, after: Placed | null) {
  const delta = new Map<string, number>();
  for (const p of before ? partitionsOf(before) : []) delta.set(p, (delta.get(p) ?? 0) - 1);
  for (const p of after ? partitionsOf(after) : []) delta.set(p, (delta.get(p) ?? 0) + 1);
  const companyId = (after ?? before)!.companyId;
  await Promise.all(
    [...delta.entries()]
      .filter(([, n]) => n !== 0)
      .map(([sk, n]) =>
        updateItem({ pk: countPk(companyId), sk }, { add: { n } }).catch((err) => log.error('ticket count update failed', { sk, error: (err as Error).message })),
      ),
  );
}

/** Sum of the counters of the given list partitions (`TS#…`, `TQ#…`, `TU#…`). */
export async function listCount(companyId: number, partitions: string[]): Promise<number> {
  if (!partitions.length) return 0;
  const items = await batchGet<{ n?: number }>(partitions.map((sk) => ({ pk: countPk(companyId), sk })));
  return items.reduce((sum, i) => sum + Math.max(0, Number(i.n) || 0), 0);
}
