import { query, stripKeys, type Item } from './db';

/**
 * Platform-wide wake-up items (chatbot timers, the undelivered watchdog): pk `<prefix>#<shard>`, sk
 * starting with the due time (`<dueIso>#...`), spread over a few shards so no single partition
 * takes every company's writes. A timer reads what is due with one Query per shard.
 */
export const dueShardPk = (prefix: string, shard: number) => `${prefix}#${shard}`;

/** Every sort key due at or before `now` sorts at or below this bound. */
export const dueUpperBound = (now: Date) => `${now.toISOString()}#~`;

/** Up to `limit` due items of each shard, oldest first, without their keys. */
export async function dueAcrossShards<T>(prefix: string, shards: number, now: Date, limit = 100): Promise<T[]> {
  const pages = await Promise.all(
    Array.from({ length: shards }, (_, shard) =>
      query<Item>({ pk: dueShardPk(prefix, shard), sk: { lte: dueUpperBound(now) }, limit }),
    ),
  );
  return pages.flatMap((page) => page.items.map((item) => stripKeys(item) as T));
}
