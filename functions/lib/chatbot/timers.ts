import { deleteItem, putItem } from '../db';
import { dueAcrossShards, dueShardPk } from '../due';

/**
 * Chatbot wake-ups: `BOTDUE#<shard>` / `<dueIso>#<kind>#<cid>#<ticketId>`, spread over a few shards
 * so no single partition takes every company's writes. The table is the truth, the timer only looks
 * for what is due; each handler re-checks the ticket before acting, so a timer that became stale
 * (the contact answered, an attendant took the ticket) does nothing. A wake-up is removed only once
 * handled (or given up after MAX_ATTEMPTS failures); it has no TTL, so one that fell due while the
 * timer was stopped still fires.
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
  /** failed firings so far */
  attempts?: number;
}

export const BOT_DUE_SHARDS = 8;
export const botDuePk = (shard: number) => dueShardPk('BOTDUE', shard);
const MAX_ATTEMPTS = 5;
const keys = (d: Pick<DueItem, 'dueAt' | 'kind' | 'companyId' | 'ticketId'>) => ({
  pk: botDuePk((d.companyId + d.ticketId) % BOT_DUE_SHARDS),
  sk: `${d.dueAt}#${d.kind}#${d.companyId}#${d.ticketId}`,
});

const dueItem = (d: DueItem) => ({ ...keys(d), ...d });

export async function scheduleDue(
  kind: DueKind,
  companyId: number,
  ticketId: number,
  inMinutes: number,
  marker?: string,
  now = Date.now(),
) {
  const dueAt = new Date(now + inMinutes * 60_000).toISOString();
  await putItem(dueItem({ kind, companyId, ticketId, dueAt, marker }));
}

/** Up to `limit` due wake-ups of each shard. */
export const dueItems = (now = new Date(), limit = 100) =>
  dueAcrossShards<DueItem>('BOTDUE', BOT_DUE_SHARDS, now, limit);

export async function removeDue(d: DueItem) {
  await deleteItem(keys(d));
}

/**
 * A firing failed: the wake-up comes back later (1, 2, 4, 8 minutes), and is dropped after
 * MAX_ATTEMPTS failures. Answers whether it was kept.
 */
export async function retryDue(d: DueItem, now = Date.now()): Promise<boolean> {
  const attempts = (d.attempts ?? 0) + 1;
  if (attempts < MAX_ATTEMPTS) {
    const dueAt = new Date(now + 2 ** (attempts - 1) * 60_000).toISOString();
    await putItem(dueItem({ ...d, dueAt, attempts }));
  }
  await removeDue(d);
  return attempts < MAX_ATTEMPTS;
}
