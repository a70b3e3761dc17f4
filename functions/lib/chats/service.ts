import { randomBytes, randomUUID } from 'node:crypto';
import type { Chat, ChatBody, ChatMessage } from '#shared/schemas/chats';
import { PAGE_SIZE } from '#shared/constants';
import type { AuthContext } from '../auth';
import { batchGet, batchWrite, deleteTx, putTx, query, queryAll, transact, updateTx, type TransactItem } from '../db';
import { AppError } from '../errors';
import { companyScope, nextId } from '../ids';
import { nowIso } from '../keys';
import { decodeCursor, page } from '../cursor';
import { publish } from '../realtime';
import { toUser, userKeys } from '../accounts/users';
import { notifyChatMention } from '../push/notify';
import { mentionedMembers } from './mentions';
import {
  chatItem,
  chatKeys,
  getStoredChats,
  memberKeys,
  memberPk,
  messageKeys,
  messagesPk,
  requireMemberChat,
  toChat,
  toChatMessage,
  unreadField,
  type StoredChat,
} from './repo';

type ChatPayload =
  | { action: 'create' | 'update'; record: Chat }
  | { action: 'delete'; id: number }
  | { action: 'new-message'; newMessage: ChatMessage; record: Chat };

/** Chat events go to the members' connections only (never the rest of the company). */
async function announce(companyId: number, userIds: number[], payload: ChatPayload) {
  if (userIds.length) await publish(companyId, 'chat', payload, { kind: 'users', userIds });
}

/** The company's users among `ids` (id and name); any other id is ERR_NO_USER_FOUND. */
async function requireMembers(companyId: number, ids: number[]) {
  const found = (await batchGet(ids.map((id) => userKeys(companyId, id)))).map(toUser);
  if (found.length !== ids.length) throw new AppError('ERR_NO_USER_FOUND');
  const byId = new Map(found.map((u) => [u.id, u]));
  return ids.map((id) => ({ id, name: byId.get(id)!.name }));
}

/** The owner is always a member; duplicates collapse. */
const memberIds = (ownerId: number, users: number[]) => [...new Set([ownerId, ...users])];

/** GET /chats: the caller's chats, most recent first (one Query on their membership index). */
export async function listChats(auth: AuthContext, q: { searchParam?: string }) {
  const links = await queryAll<{ chatId: number }>({ pk: memberPk(auth.companyId, auth.userId) });
  const term = q.searchParam?.trim().toLowerCase();
  const chats = (
    await getStoredChats(
      auth.companyId,
      links.map((l) => l.chatId),
    )
  )
    .filter((c) => !term || c.title.toLowerCase().includes(term))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
    .map(toChat);
  return { records: chats, hasMore: false };
}

export async function createChat(auth: AuthContext, body: ChatBody): Promise<Chat> {
  const ids = memberIds(auth.userId, body.users);
  const members = await requireMembers(auth.companyId, ids);
  const now = nowIso();
  const stored: StoredChat = {
    id: await nextId(companyScope(auth.companyId), 'chat'),
    uuid: randomUUID(),
    companyId: auth.companyId,
    title: body.title,
    ownerId: auth.userId,
    lastMessage: '',
    createdAt: now,
    updatedAt: now,
    members,
  };
  for (const id of ids) stored[unreadField(id) as `unread#${number}`] = 0;
  await transact([
    putTx(chatItem(stored), true),
    ...ids.map((userId) => putTx({ ...memberKeys(auth.companyId, userId, stored.id), chatId: stored.id })),
  ]);
  const chat = toChat(stored);
  await announce(auth.companyId, ids, { action: 'create', record: chat });
  return chat;
}

/** Only the owner edits a chat: title and members (the owner stays in). */
export async function updateChat(auth: AuthContext, id: number, body: Partial<ChatBody>): Promise<Chat> {
  const current = await requireMemberChat(auth.companyId, id, auth.userId);
  if (current.ownerId !== auth.userId) throw new AppError('ERR_NO_PERMISSION');
  const before = current.members.map((m) => m.id);
  const ids = body.users ? memberIds(current.ownerId, body.users) : before;
  const members = body.users ? await requireMembers(auth.companyId, ids) : current.members;
  const added = ids.filter((u) => !before.includes(u));
  const removed = before.filter((u) => !ids.includes(u));
  const updatedAt = nowIso();
  const items: TransactItem[] = [
    updateTx(chatKeys(auth.companyId, id), {
      set: {
        title: body.title ?? current.title,
        members,
        updatedAt,
        ...Object.fromEntries(added.map((u) => [unreadField(u), 0])),
      },
      remove: removed.map(unreadField),
      condition: 'attribute_exists(pk)',
    }),
    ...added.map((u) => putTx({ ...memberKeys(auth.companyId, u, id), chatId: id })),
    ...removed.map((u) => deleteTx(memberKeys(auth.companyId, u, id))),
  ];
  await transact(items, () => new AppError('ERR_NOT_FOUND'));
  const next: StoredChat = { ...current, title: body.title ?? current.title, members, updatedAt };
  for (const u of added) next[unreadField(u) as `unread#${number}`] = 0;
  const chat = toChat(next);
  await announce(auth.companyId, ids, { action: 'update', record: chat });
  await announce(auth.companyId, removed, { action: 'delete', id });
  return chat;
}

/** Only the owner deletes a chat; its messages and membership links go with it. */
export async function deleteChat(auth: AuthContext, id: number) {
  const chat = await requireMemberChat(auth.companyId, id, auth.userId);
  if (chat.ownerId !== auth.userId) throw new AppError('ERR_NO_PERMISSION');
  const ids = chat.members.map((m) => m.id);
  await transact([
    deleteTx(chatKeys(auth.companyId, id)),
    ...ids.map((u) => deleteTx(memberKeys(auth.companyId, u, id))),
  ]);
  const messages = await queryAll({ pk: messagesPk(auth.companyId, id), projection: ['pk', 'sk'] });
  await batchWrite(
    [],
    messages.map((m) => ({ pk: m.pk as string, sk: m.sk as string })),
  );
  await announce(auth.companyId, ids, { action: 'delete', id });
}

/** GET /chats/{id}/messages: a page of messages, oldest first; the cursor leads to older ones. */
export async function listChatMessages(auth: AuthContext, id: number, q: { cursor?: string; limit?: number }) {
  await requireMemberChat(auth.companyId, id, auth.userId);
  const where = { pk: messagesPk(auth.companyId, id) };
  const out = await query({
    ...where,
    forward: false,
    limit: q.limit ?? PAGE_SIZE,
    startKey: await decodeCursor(auth.companyId, q.cursor, where),
  });
  const paged = await page(auth.companyId, out.items.map(toChatMessage).reverse(), out.lastKey, where);
  return { records: paged.items, hasMore: paged.hasMore, cursor: paged.cursor };
}

/**
 * POST /chats/{id}/messages: stores the message, makes it the chat's last one and adds one unread
 * to every other member, in one transaction; then tells the members.
 */
export async function sendChatMessage(auth: AuthContext, id: number, text: string): Promise<ChatMessage> {
  const chat = await requireMemberChat(auth.companyId, id, auth.userId);
  const createdAt = nowIso();
  const sender = chat.members.find((m) => m.id === auth.userId)!;
  const message: ChatMessage = {
    id: `${createdAt}#${randomBytes(4).toString('hex')}`,
    chatId: id,
    senderId: auth.userId,
    sender: { id: sender.id, name: sender.name },
    message: text,
    createdAt,
  };
  const others = chat.members.filter((m) => m.id !== auth.userId).map((m) => m.id);
  await transact(
    [
      putTx({ ...messageKeys(auth.companyId, id, message.id), ...message }, true),
      updateTx(chatKeys(auth.companyId, id), {
        set: { lastMessage: text.slice(0, 255), updatedAt: createdAt },
        add: Object.fromEntries(others.map((u) => [unreadField(u), 1])),
        condition: 'attribute_exists(pk)',
      }),
    ],
    () => new AppError('ERR_NOT_FOUND'),
  );
  const next: StoredChat = { ...chat, lastMessage: text.slice(0, 255), updatedAt: createdAt };
  for (const u of others) {
    const field = unreadField(u) as `unread#${number}`;
    next[field] = Number(chat[field] ?? 0) + 1;
  }
  await announce(
    auth.companyId,
    chat.members.map((m) => m.id),
    { action: 'new-message', newMessage: message, record: toChat(next) },
  );
  const mentioned = mentionedMembers(text, chat.members).map((m) => m.id);
  if (mentioned.length) await notifyChatMention(auth.companyId, chat, sender, mentioned, text);
  return message;
}

/** POST /chats/{id}/read: the caller has read everything in the chat (their own counter only). */
export async function markChatRead(auth: AuthContext, id: number): Promise<Chat> {
  const chat = await requireMemberChat(auth.companyId, id, auth.userId);
  await transact(
    [
      updateTx(chatKeys(auth.companyId, id), {
        set: { [unreadField(auth.userId)]: 0 },
        condition: 'attribute_exists(pk)',
      }),
    ],
    () => new AppError('ERR_NOT_FOUND'),
  );
  const record = toChat({ ...chat, [unreadField(auth.userId)]: 0 });
  await announce(auth.companyId, [auth.userId], { action: 'update', record });
  return record;
}
