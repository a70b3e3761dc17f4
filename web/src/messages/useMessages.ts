import { useCallback, useEffect, useMemo, useRef } from 'react';
import useSWRInfinite from 'swr/infinite';
import { api } from '../api/client';
import { useOnReconnect, useRealtimeEvent, useRoom } from '../realtime/RealtimeProvider';
import { liveMutation } from '../realtime/cache';
import { toPage, type Message, type Page } from '../tickets/types';
import { mergeMessages, readOnArrival } from './timeline';

/** A ticket's conversation as the message route's hint: its contact and connection. */
export const conversationHint = (ticket: { contactId: number; whatsappId?: number | null }) =>
  ticket.whatsappId ? `${ticket.contactId}-${ticket.whatsappId}` : undefined;

/**
 * A ticket's messages: newest page first, older pages by cursor (attendance.md 2.5); create/update
 * events for the ticket's chat box add or replace messages. A live chat box reads the contact's
 * new messages as they arrive (the read call is the first page, as when the ticket is opened).
 * `conversation` (`<contactId>-<whatsappId>`, see conversationHint) lets the server read the page
 * beside the ticket instead of after it.
 */
export function useMessages(
  ticketId: number | null | undefined,
  opts: { live?: boolean; conversation?: string } = { live: true },
) {
  const { data, size, setSize, mutate, isLoading, isValidating } = useSWRInfinite<Page<Message>>(
    (index, previous: Page<Message> | null) => {
      if (!ticketId) return null;
      if (previous && !previous.hasMore) return null;
      return [
        `/messages/${ticketId}`,
        { cursor: index === 0 ? undefined : (previous?.cursor ?? undefined), conversation: opts.conversation },
      ] as const;
    },
    async ([path, q]: readonly [string, Record<string, unknown>]) =>
      toPage<Message>(await api.get(path, q as never), 'messages'),
    { revalidateOnFocus: false, revalidateFirstPage: false },
  );
  useRoom('joinChatBox', opts.live && ticketId ? ticketId : null);

  const upsert = useCallback(
    (message: Message) =>
      mutate((pages) => {
        if (!pages?.length) return [{ items: [message], hasMore: false, cursor: null }];
        const exists = pages.some((p) => p.items.some((m) => String(m.id) === String(message.id)));
        if (exists)
          return pages.map((p) => ({
            ...p,
            // an update is the whole message: a placeholder's flag it no longer carries is gone
            items: p.items.map((m) =>
              String(m.id) === String(message.id) ? { ...m, ...message, undecryptable: message.undecryptable } : m,
            ),
          }));
        const [first, ...rest] = pages;
        return [{ ...first, items: [...first.items, message] }, ...rest];
      }, liveMutation(data)),
    [mutate, data],
  );

  const unreadWhileHidden = useRef(false);
  const markRead = useCallback(() => {
    if (!ticketId) return;
    if (document.visibilityState !== 'visible') {
      unreadWhileHidden.current = true;
      return;
    }
    unreadWhileHidden.current = false;
    void api.get(`/messages/${ticketId}`, { limit: 1, conversation: opts.conversation }).catch(() => undefined);
  }, [ticketId, opts.conversation]);
  useEffect(() => {
    if (!opts.live) return;
    const onShow = () => unreadWhileHidden.current && markRead();
    document.addEventListener('visibilitychange', onShow);
    return () => document.removeEventListener('visibilitychange', onShow);
  }, [opts.live, markRead]);

  useOnReconnect(() => void mutate());
  useRealtimeEvent<{ action: string; message?: Message; ticket?: { id: number } }>('appMessage', (ev) => {
    if (!opts.live || !ev.message || (ev.action !== 'create' && ev.action !== 'update')) return;
    // Messages of the contact's earlier tickets share this chat box, so match by the open ticket too.
    if (Number(ev.message.ticketId) !== Number(ticketId) && Number(ev.ticket?.id) !== Number(ticketId)) return;
    void upsert(ev.message);
    if (readOnArrival(ev, ticketId)) markRead();
  });

  const messages = useMemo(() => mergeMessages((data ?? []).map((p) => p.items)), [data]);
  const hasMore = Boolean(data?.[data.length - 1]?.hasMore);
  const loadOlder = useCallback(() => {
    if (hasMore && !isValidating) void setSize(size + 1);
  }, [hasMore, isValidating, setSize, size]);
  return { messages, hasMore, loadOlder, isLoading, isValidating, upsert, mutate };
}
