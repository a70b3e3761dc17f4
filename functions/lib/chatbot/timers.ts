import { deleteItem, putItem, query } from '../db';
import { ttlIn } from '../keys';

/**
 * Chatbot wake-ups: `BOTDUE` / `<dueIso>#<kind>#<cid>#<ticketId>`. The table is the truth, the
 * timer only looks for what is due; each handler re-checks the ticket before acting, so a timer
 * that became stale (the contact answered, an attendant took the ticket) does nothing.
 * - `transfer`: a pending ticket still without a queue after timeToTransfer minutes
 * - `expire`: an open ticket idle expiresTicket minutes after our last message
 * - `rating`: a rating that was asked and never answered: the ticket closes anyway
 */
export type DueKind = 'transfer' | 'expire' | 'rating';
export interface DueItem {
  kind: DueKind;
  companyId: number;
  ticketId: number;
  dueAt: string;
  /** what the ticket looked like when scheduled (a later change makes the timer stale) */
  marker?: string;
}

const PK = 'BOTDUE';
const sk = (d: Pick<DueItem, 'dueAt' | 'kind' | 'companyId' | 'ticketId'>) =>
  `${d.dueAt}#${d.kind}#${d.companyId}#${d.ticketId}`;

export async function scheduleDue(
  kind: DueKind,
  companyId: number,
  ticketId: number,
  inMinutes: number,
  marker?: string,
  now = Date.now(),
) {
  const dueAt = new Date(now + inMinutes * 60_000).toISOString();
  await putItem({
    pk: PK,
    sk: sk({ dueAt, kind, companyId, ticketId }),
    kind,
    companyId,
    ticketId,
    dueAt,
    marker,
    ttl: ttlIn(inMinutes * 60 + 7 * 24 * 3600),
  });
}

export async function dueItems(now = new Date(), limit = 100): Promise<DueItem[]> {
  const { items } = await query<DueItem>({ pk: PK, sk: { lte: `${now.toISOString()}~` }, limit });
  return items;
}

export async function removeDue(d: DueItem) {
  await deleteItem({ pk: PK, sk: sk(d) });
}
