import { UNDELIVERED_AFTER_MINUTES } from '#shared/constants';
import { deleteItem, type Item, type Key } from '../db';
import { dueAcrossShards, dueShardPk } from '../due';
import { pad } from '../keys';

/**
 * The undelivered watchdog's wake-ups: one small item per sent message, written with the send's
 * message, `UNDELIVERED#<shard>` / `<dueAt>#<pad(cid)>#<messageId>`, spread over a few shards
 * so no single partition takes every company's sends. The timer reads what is due with one Query
 * per shard (no index copy of the large message item), looks at the message, flags it when it is
 * still without a delivery ack, and deletes the wake-up either way: a delivered message costs no
 * write on the ack path.
 */
export interface Watch {
  companyId: number;
  messageId: string;
  ticketId: number;
  dueAt: string;
  /** the message's own key, so the timer reads it without the id index */
  msgPk: string;
  msgSk: string;
}

export const WATCH_SHARDS = 4;
const WATCH_PREFIX = 'UNDELIVERED';
export const watchShardPk = (shard: number) => dueShardPk(WATCH_PREFIX, shard);

/** The message id's arrival part ends in random base36 characters: its last one picks the shard. */
const shardOf = (messageId: string) => Number.parseInt(messageId.split('-')[0]!.slice(-1), 36) % WATCH_SHARDS || 0;

export const watchKeys = (w: Pick<Watch, 'companyId' | 'messageId' | 'dueAt'>): Key => ({
  pk: watchShardPk(shardOf(w.messageId)),
  sk: `${w.dueAt}#${pad(w.companyId)}#${w.messageId}`,
});

export const watchDueAt = (sentAtMs: number) => new Date(sentAtMs + UNDELIVERED_AFTER_MINUTES * 60_000).toISOString();

export function watchItem(w: Watch): Item {
  return { ...watchKeys(w), ...w };
}

/** Up to `limit` due wake-ups of each shard, oldest first. */
export const dueWatches = (now: Date, limit = 100) => dueAcrossShards<Watch>(WATCH_PREFIX, WATCH_SHARDS, now, limit);

export const removeWatch = (w: Watch) => deleteItem(watchKeys(w));
