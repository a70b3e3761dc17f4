import { useCallback, useMemo } from 'react';
import useSWRInfinite from 'swr/infinite';
import { api } from '../api/client';
import type { QueryParams } from '../api/swr';
import { useOnReconnect } from '../realtime/RealtimeProvider';
import { flattenPages, nearBottom, readPage, removeFromPages, upsertInPages, type ListPage } from './paged';

type Id = number | string;

/**
 * A cursor-paged list (management.md section 9: next page 100 px from the bottom, only when more
 * pages exist and nothing is loading), with helpers to apply live events to the cached pages.
 * A change of `query` (a new search) starts again from the first page.
 */
export function usePagedList<T extends { id: Id }>(path: string | null, key: string, query: QueryParams = {}) {
  const { data, size, setSize, mutate, isLoading, isValidating, error } = useSWRInfinite<ListPage<T>>(
    (index, previous: ListPage<T> | null) => {
      if (!path) return null;
      if (previous && !previous.hasMore) return null;
      return [path, { ...query, cursor: index === 0 ? undefined : (previous?.cursor ?? undefined) }] as const;
    },
    async ([p, q]: readonly [string, QueryParams]) => readPage<T>(await api.get(p, q), key),
    { revalidateOnFocus: false, revalidateFirstPage: false },
  );
  // Events missed while the socket was down: refetch the pages.
  useOnReconnect(() => void mutate());
  const items = useMemo(() => flattenPages(data), [data]);
  const hasMore = Boolean(data?.[data.length - 1]?.hasMore);
  const loadMore = useCallback(() => {
    if (hasMore && !isValidating) void setSize(size + 1);
  }, [hasMore, isValidating, setSize, size]);
  const onScroll = useCallback((e: { currentTarget: HTMLElement }) => nearBottom(e.currentTarget) && loadMore(), [loadMore]);
  const upsert = useCallback((item: T) => void mutate((pages) => upsertInPages(pages, item), { revalidate: false }), [mutate]);
  const remove = useCallback((id: Id) => void mutate((pages) => removeFromPages(pages, id), { revalidate: false }), [mutate]);

  return { items, hasMore, loadMore, onScroll, isLoading, error, upsert, remove, reload: () => mutate() };
}
