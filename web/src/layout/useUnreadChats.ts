import { useApi } from '../api/swr';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { asList } from '../realtime/cache';
import { hasUnreadChats } from './menu';

/** Unread internal chats for the menu dot; kept current by `chat` events (new-message, update). */
export function useUnreadChats(userId: number | undefined, enabled: boolean) {
  const { data, mutate } = useApi<unknown>(enabled ? '/chats/' : null, { pageNumber: 1 });
  useRealtimeEvent('chat', () => {
    if (enabled) void mutate();
  });
  return hasUnreadChats(asList(data, 'records'), userId);
}
