import { useCallback, useMemo } from 'react';
import useSWRInfinite from 'swr/infinite';
import { api } from '../api/client';
import { useAuth } from '../auth/AuthProvider';
import { useOnReconnect, useRealtimeEvent, useRoom } from '../realtime/RealtimeProvider';
import { liveMutation } from '../realtime/cache';
import { applyTicketEventToPages, viewerOf, type ListFilter, type TicketEvent } from './membership';
import { toPage, type Contact, type Message, type Page, type Ticket } from './types';
import { listQuery } from './list-query';
import { flattenPages } from '../lib/paged';

/**
 * One ticket list, paged by cursor and kept live by realtime events (no polling): a ticket that
 * stops matching the tab (status, queue) leaves it; one that starts matching joins it.
 */
export function useTicketList(filter: ListFilter, enabled = true) {
  const { user } = useAuth();
  const viewer = useMemo(() => (user ? viewerOf(user) : null), [user]);
  const query = useMemo(() => listQuery(filter), [filter]);
  const { data, size, setSize, mutate, isLoading, isValidating } = useSWRInfinite<Page<Ticket>>(
    (index, previous: Page<Ticket> | null) => {
      if (!enabled || !viewer) return null;
      if (previous && !previous.hasMore) return null;
      return ['/tickets', { ...query, cursor: index === 0 ? undefined : (previous?.cursor ?? undefined) }] as const;
    },
    async ([path, q]: readonly [string, Record<string, unknown>]) =>
      toPage<Ticket>(await api.get(path, q as never), 'tickets'),
    { revalidateOnFocus: false, revalidateFirstPage: false },
  );
  // snoozed tickets are open ones: their updates come to the open room
  useRoom('joinTickets', enabled && filter.tab !== 'search' ? (filter.tab === 'snoozed' ? 'open' : filter.tab) : null);

  const apply = useCallback(
    (event: TicketEvent) => {
      if (!viewer) return;
      void mutate(
        (pages) => (pages ? applyTicketEventToPages(pages, event, filter, viewer) : pages),
        liveMutation(data),
      );
    },
    [mutate, filter, viewer, data],
  );

  useOnReconnect(() => void mutate());
  useRealtimeEvent<{ action: string; ticket?: Ticket; ticketId?: number }>('ticket', (ev) => {
    if (ev.action === 'update' && ev.ticket) apply({ action: 'update', ticket: ev.ticket });
    else if ((ev.action === 'delete' || ev.action === 'updateUnread') && ev.ticketId !== undefined)
      apply({ action: ev.action, ticketId: Number(ev.ticketId) });
  });
  useRealtimeEvent<{ action: string; ticket?: Ticket; message?: Message }>('appMessage', (ev) => {
    if (ev.action === 'create' && ev.ticket) apply({ action: 'update', ticket: ev.ticket });
  });
  useRealtimeEvent<{ action: string; contact?: Contact }>('contact', (ev) => {
    if (ev.action !== 'update' || !ev.contact) return;
    const contact = ev.contact;
    void mutate(
      (pages) =>
        pages?.map((p) => ({
          ...p,
          items: p.items.map((t) => (t.contactId === contact.id ? { ...t, contact: { ...t.contact, ...contact } } : t)),
        })),
      liveMutation(data),
    );
  });

  const tickets = useMemo(() => flattenPages(data), [data]);
  const hasMore = Boolean(data?.[data.length - 1]?.hasMore);
  // The badge: every row is loaded -> their number; otherwise the server's count when it gives one.
  const count =
    hasMore && typeof data?.[0]?.count === 'number' ? Math.max(data[0].count, tickets.length) : tickets.length;
  const loadMore = useCallback(() => {
    if (hasMore && !isValidating) void setSize(size + 1);
  }, [hasMore, isValidating, setSize, size]);

  return { tickets, count, hasMore, loadMore, isLoading, mutate };
}
