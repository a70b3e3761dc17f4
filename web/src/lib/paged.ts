import { NEXT_PAGE_BOTTOM_PX } from '#shared/constants';

/** One page of a cursor-paged list as the hooks keep it. */
export interface ListPage<T> {
  items: T[];
  hasMore: boolean;
  cursor?: string | null;
}
type Id = number | string;

/** The API pages lists as `{ <key>, hasMore, cursor }` (or `{ items }`, `{ records }`, a bare array). */
export function readPage<T>(data: unknown, key: string): ListPage<T> {
  if (Array.isArray(data)) return { items: data as T[], hasMore: false, cursor: null };
  const d = (data ?? {}) as Record<string, unknown>;
  const items = (d[key] ?? d.items ?? d.records ?? []) as T[];
  return {
    items: Array.isArray(items) ? items : [],
    hasMore: Boolean(d.hasMore),
    cursor: (d.cursor as string | null | undefined) ?? null,
  };
}

/** A live create/update: replace the row wherever it is, or add it on top of the first page. */
export function upsertInPages<T extends { id: Id }>(pages: ListPage<T>[] | undefined, item: T): ListPage<T>[] {
  const list = pages ?? [];
  if (list.some((p) => p.items.some((x) => x.id === item.id)))
    return list.map((p) => ({ ...p, items: p.items.map((x) => (x.id === item.id ? { ...x, ...item } : x)) }));
  if (!list.length) return [{ items: [item], hasMore: false, cursor: null }];
  return [{ ...list[0], items: [item, ...list[0].items] }, ...list.slice(1)];
}

/** A live update of a row we may not hold: only rows already listed change. */
export function patchInPages<T extends { id: Id }>(
  pages: ListPage<T>[] | undefined,
  id: Id,
  patch: Partial<T>,
): ListPage<T>[] | undefined {
  return pages?.map((p) => ({ ...p, items: p.items.map((x) => (x.id === id ? { ...x, ...patch } : x)) }));
}

export function removeFromPages<T extends { id: Id }>(
  pages: ListPage<T>[] | undefined,
  id: Id,
): ListPage<T>[] | undefined {
  return pages?.map((p) => ({ ...p, items: p.items.filter((x) => x.id !== id) }));
}

/** Rows of all pages, first occurrence wins (a row can shift between pages while live). */
export function flattenPages<T extends { id: Id }>(pages: ListPage<T>[] | undefined): T[] {
  const seen = new Set<Id>();
  return (pages ?? [])
    .flatMap((p) => p.items)
    .filter((x) => {
      if (seen.has(x.id)) return false;
      seen.add(x.id);
      return true;
    });
}

/** Section 9: the next page loads when the list is scrolled within 100 px of its bottom. */
export const nearBottom = (
  el: { scrollTop: number; scrollHeight: number; clientHeight: number },
  px = NEXT_PAGE_BOTTOM_PX,
) => el.scrollHeight - el.scrollTop - el.clientHeight < px;

/** A live change waiting to be applied (events are applied in batches: an import can bring hundreds). */
export type PageOp<T> = { kind: 'upsert'; item: T } | { kind: 'remove'; id: Id };

export function applyOps<T extends { id: Id }>(
  pages: ListPage<T>[] | undefined,
  ops: PageOp<T>[],
): ListPage<T>[] | undefined {
  return ops.reduce<ListPage<T>[] | undefined>(
    (acc, op) => (op.kind === 'upsert' ? upsertInPages(acc, op.item) : removeFromPages(acc, op.id)),
    pages,
  );
}
