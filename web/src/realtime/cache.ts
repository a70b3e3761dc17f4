/** Pure list updates used to apply realtime events to SWR caches. */
export interface WithId {
  id: number | string;
}

/** Replace the item with the same id, or add it at the front. */
export function upsertById<T extends WithId>(list: T[] | undefined, item: T, where: 'start' | 'end' = 'start'): T[] {
  const current = list ?? [];
  const index = current.findIndex((x) => x.id === item.id);
  if (index === -1) return where === 'start' ? [item, ...current] : [...current, item];
  const next = current.slice();
  next[index] = { ...current[index], ...item };
  return next;
}

export const removeById = <T extends WithId>(list: T[] | undefined, id: number | string): T[] =>
  (list ?? []).filter((x) => x.id !== id);

/**
 * `mutate` options for a live event. SWR drops the answer of a fetch that was in flight when its key
 * was mutated (the answer may be older than the change); for a key still loading, that answer is
 * its first data, so the key is fetched again instead of staying empty for good.
 */
export const liveMutation = (data: unknown) => ({ revalidate: data === undefined });

/** Lists may arrive as an array or wrapped (`{ whatsapps }`, `{ items }`, `{ records }`). */
export function asList<T>(data: unknown, ...keys: string[]): T[] {
  if (Array.isArray(data)) return data as T[];
  if (data && typeof data === 'object') {
    for (const key of [...keys, 'items', 'records']) {
      const value = (data as Record<string, unknown>)[key];
      if (Array.isArray(value)) return value as T[];
    }
  }
  return [];
}
