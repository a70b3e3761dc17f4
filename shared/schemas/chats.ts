import { z } from 'zod';
import { MSG, bodyId, cursorQuery } from './common';

/** Most members a chat may have: one message updates the chat's unread counters in one write. */
export const CHAT_MAX_MEMBERS = 50;
export const CHAT_MESSAGE_MAX = 5000;

/** A member of an internal chat (management.md 3): unreads are this member's unread messages. */
export const ChatMember = z.object({
  userId: z.number(),
  unreads: z.number(),
  user: z.object({ id: z.number(), name: z.string() }),
});
export type ChatMember = z.infer<typeof ChatMember>;

export const Chat = z.object({
  id: z.number(),
  uuid: z.string(),
  title: z.string(),
  ownerId: z.number(),
  lastMessage: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  users: z.array(ChatMember),
});
export type Chat = z.infer<typeof Chat>;

export const ChatMessage = z.object({
  id: z.string(),
  chatId: z.number(),
  senderId: z.number(),
  sender: z.object({ id: z.number(), name: z.string() }),
  message: z.string(),
  createdAt: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** Members arrive as ids or user objects (`{ id }`), as the chat modal sends them. */
const memberRef = z.union([bodyId, z.object({ id: bodyId }).transform((u) => u.id)]);

/** Chat modal (management.md 5): a title is required and at least one user. */
export const ChatBody = z.object({
  title: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(100, MSG.long),
  users: z.array(memberRef, { error: MSG.required }).min(1, MSG.required).max(CHAT_MAX_MEMBERS, MSG.long),
});
export type ChatBody = z.infer<typeof ChatBody>;
export const ChatUpdateBody = ChatBody.partial();

/** A chat message: blank text is never sent. */
export const ChatMessageBody = z.object({
  message: z
    .string({ error: MSG.required })
    .max(CHAT_MESSAGE_MAX, MSG.long)
    .refine((m) => m.trim().length > 0, MSG.required),
});

export const ChatsQuery = cursorQuery.extend({ searchParam: z.string().max(100).optional() });
export const ChatMessagesQuery = cursorQuery;

/** Older messages load when the list is scrolled within this many pixels of its top (management.md 9). */
export const CHAT_LOAD_OLDER_PX = 600;
