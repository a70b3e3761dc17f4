import type { Chat, ChatMessage } from '#shared/schemas/chats';
import { batchGet, getItem, stripKeys, type Item } from '../db';
import { AppError } from '../errors';
import { pad } from '../keys';

/**
 * Internal chats (management.md "Internal chat"):
 * - chat: pk `C#<cid>`, sk `CHAT#<pad(id)>`; `members` (id, name) and one counter per member,
 *   `unread#<userId>`, so a message bumps every other member's count in one write;
 * - membership index: pk `C#<cid>#UCHAT#<userId>`, sk `CHAT#<pad(id)>`: a user's chats in one Query;
 * - message: pk `C#<cid>#CHATMSG#<pad(chatId)>`, sk `M#<createdAt>#<random>`: pages newest first.
 */
export const chatKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `CHAT#${pad(id)}` });
export const memberPk = (companyId: number, userId: number) => `C#${companyId}#UCHAT#${userId}`;
export const memberKeys = (companyId: number, userId: number, chatId: number) => ({
  pk: memberPk(companyId, userId),
  sk: `CHAT#${pad(chatId)}`,
});
export const messagesPk = (companyId: number, chatId: number) => `C#${companyId}#CHATMSG#${pad(chatId)}`;
export const messageKeys = (companyId: number, chatId: number, id: string) => ({
  pk: messagesPk(companyId, chatId),
  sk: `M#${id}`,
});
export const unreadField = (userId: number) => `unread#${userId}`;

export interface StoredChat {
  id: number;
  uuid: string;
  companyId: number;
  title: string;
  ownerId: number;
  lastMessage: string;
  createdAt: string;
  updatedAt: string;
  members: { id: number; name: string }[];
  [counter: `unread#${number}`]: number;
}

export const chatItem = (chat: StoredChat): Item => ({ ...chatKeys(chat.companyId, chat.id), ...chat });

export function toChat(stored: StoredChat): Chat {
  return {
    id: stored.id,
    uuid: stored.uuid,
    title: stored.title,
    ownerId: stored.ownerId,
    lastMessage: stored.lastMessage,
    createdAt: stored.createdAt,
    updatedAt: stored.updatedAt,
    users: stored.members.map((m) => ({
      userId: m.id,
      unreads: Number(stored[unreadField(m.id) as `unread#${number}`] ?? 0),
      user: { id: m.id, name: m.name },
    })),
  };
}

export const isMember = (chat: StoredChat, userId: number) => chat.members.some((m) => m.id === userId);

export async function getStoredChat(companyId: number, id: number): Promise<StoredChat | undefined> {
  const item = await getItem(chatKeys(companyId, id));
  return item ? (stripKeys(item) as StoredChat) : undefined;
}

/** A chat the user belongs to; any other chat (another company's, or one they are not in) is not found. */
export async function requireMemberChat(companyId: number, id: number, userId: number): Promise<StoredChat> {
  const chat = await getStoredChat(companyId, id);
  if (!chat || !isMember(chat, userId)) throw new AppError('ERR_NOT_FOUND');
  return chat;
}

export async function getStoredChats(companyId: number, ids: number[]): Promise<StoredChat[]> {
  return (await batchGet(ids.map((id) => chatKeys(companyId, id)))).map((item) => stripKeys(item) as StoredChat);
}

export const toChatMessage = (item: Item): ChatMessage => {
  const { companyId: _c, ...rest } = stripKeys(item) as ChatMessage & { companyId?: number };
  return rest;
};
