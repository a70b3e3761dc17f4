import { useCallback, useEffect, useMemo, useRef } from 'react';
import useSWRInfinite from 'swr/infinite';
import { api } from '../api/client';
import type { QueryParams } from '../api/swr';
import { useOnReconnect } from '../realtime/RealtimeProvider';
import { liveMutation } from '../realtime/cache';
import { applyOps, flattenPages, nearBottom, readPage, type ListPage, type PageOp } from './paged';

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
  // A scroll that reaches the bottom while the list is being fetched again (a reconnect's refetch)
  // is remembered and served once that fetch ends: otherwise it is lost until the user scrolls again.
  const wantsMore = useRef(false);
  const loadMore = useCallback(() => {
    if (!hasMore) return;
    if (isValidating) wantsMore.current = true;
    else void setSize(size + 1);
  }, [hasMore, isValidating, setSize, size]);
  useEffect(() => {
    if (isValidating || !wantsMore.current) return;
    wantsMore.current = false;
    if (hasMore) void setSize(size + 1);
  }, [hasMore, isValidating, setSize, size]);
  const onScroll = useCallback(
    (e: { currentTarget: HTMLElement }) => nearBottom(e.currentTarget) && loadMore(),
    [loadMore],
  );
  // Live changes are applied together every 150 ms: one render for a burst (an import sends hundreds).
  const pending = useRef<PageOp<T>[]>([]);
  const latest = useRef(data);
  latest.current = data;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const queue = useCallback(
    (op: PageOp<T>) => {
      pending.current.push(op);
      timer.current ??= setTimeout(() => {
        timer.current = null;
        const ops = pending.current.splice(0);
        void mutate((pages) => applyOps(pages, ops), liveMutation(latest.current));
      }, 150);
    },
    [mutate],
  );
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  const upsert = useCallback((item: T) => queue({ kind: 'upsert', item }), [queue]);
  const remove = useCallback((id: Id) => queue({ kind: 'remove', id }), [queue]);

  return { items, hasMore, loadMore, onScroll, isLoading, error, upsert, remove, reload: () => mutate() };
}
