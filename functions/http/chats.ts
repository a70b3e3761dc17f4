import '#lib/startup';
import { z } from 'zod';
import { httpModule, reply, route } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { ChatBody, ChatMessageBody, ChatMessagesQuery, ChatsQuery, ChatUpdateBody } from '#shared/schemas/chats';
import {
  createChat,
  deleteChat,
  listChatMessages,
  listChats,
  markChatRead,
  sendChatMessage,
  updateChat,
} from '#lib/chats/service';

const params = z.object({ id: idParam });
const feature = 'useInternalChat' as const;

/** Internal chat between the company's users (management.md "Internal chat", 7). */
export const handler = httpModule({
  'GET /chats': route({ feature, query: ChatsQuery }, async ({ auth, query }) => listChats(auth, query)),

  'POST /chats': route({ feature, body: ChatBody }, async ({ auth, body }) => reply(await createChat(auth, body), 201)),

  'PUT /chats/{id}': route({ feature, params, body: ChatUpdateBody }, async ({ auth, params, body }) =>
    updateChat(auth, params.id, body),
  ),

  'DELETE /chats/{id}': route({ feature, params }, async ({ auth, params }) => {
    await deleteChat(auth, params.id);
    return { message: 'Chat deleted' };
  }),

  'GET /chats/{id}/messages': route({ feature, params, query: ChatMessagesQuery }, async ({ auth, params, query }) =>
    listChatMessages(auth, params.id, query),
  ),

  'POST /chats/{id}/messages': route({ feature, params, body: ChatMessageBody }, async ({ auth, params, body }) =>
    reply(await sendChatMessage(auth, params.id, body.message), 201),
  ),

  // the body's userId (the well-known client sends it) is ignored: the reader is the caller
  'POST /chats/{id}/read': route({ feature, params }, async ({ auth, params }) => markChatRead(auth, params.id)),
});
