import { useChats } from '../chats/useChats';
import { hasUnreadChats } from './menu';

/** Unread internal chats for the menu dot; the chat list is kept current by `chat` events. */
export function useUnreadChats(userId: number | undefined, enabled: boolean) {
  const { chats } = useChats(enabled);
  return hasUnreadChats(chats, userId);
}
