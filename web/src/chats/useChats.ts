import type { Chat, ChatMessage } from '#shared/schemas/chats';
import { useApi } from '../api/swr';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { asList, liveMutation } from '../realtime/cache';

export type ChatEvent =
  | { action: 'create' | 'update'; record: Chat }
  | { action: 'delete'; id: number }
  | { action: 'new-message'; newMessage: ChatMessage; record: Chat };

const byRecent = (a: Chat, b: Chat) => b.updatedAt.localeCompare(a.updatedAt);

/** The list after one `chat` event: the chat replaced or added, or removed; most recent first. */
export function applyChatEvent(list: Chat[], ev: ChatEvent): Chat[] {
  if (ev.action === 'delete') return list.filter((c) => c.id !== ev.id);
  return [ev.record, ...list.filter((c) => c.id !== ev.record.id)].sort(byRecent);
}

/** The caller's unread messages in a chat. */
export const unreadsOf = (chat: Chat, userId: number | undefined) =>
  chat.users.find((u) => u.userId === userId)?.unreads ?? 0;

/**
 * The signed-in user's chats (GET /chats), kept live by `chat` events. The menu dot, the top-bar
 * popover and the chat page share this one cached list.
 */
export function useChats(enabled: boolean) {
  const { data, mutate, isLoading } = useApi<{ records: Chat[] }>(enabled ? '/chats' : null);
  useRealtimeEvent<ChatEvent>('chat', (ev) => {
    if (!enabled) return;
    void mutate((d) => ({ records: applyChatEvent(asList<Chat>(d, 'records'), ev) }), liveMutation(data));
  });
  return { chats: asList<Chat>(data, 'records'), mutate, isLoading };
}
