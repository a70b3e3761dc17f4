import type { User } from '#shared/schemas/accounts';
import { AppError } from '../errors';
import { getItem, stripKeys, transact, putTx, queryAll, type TransactItem, type Item } from '../db';
import { nextId, counterTx, companyScope } from '../ids';
import { pad, nowIso } from '../keys';
import { limitReached } from './plan-limits';

/**
 * A user: pk `C#<companyId>`, sk `USER#<id>`. Its e-mail is unique across the platform through a
 * guard item `EMAIL#<email>` written in the same transaction; login reads the guard to find the
 * user. The password hash stays on the item and never leaves this module.
 */
export const userKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `USER#${pad(id)}` });
export const emailKeys = (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' });
/** per-company count of users, checked against the plan limit in the creating transaction */
export const USERS_USAGE = 'usage#users';

export type StoredUser = User & { passwordHash: string };

/** Lower-cased name and e-mail kept on the item so the users page can search with one Query. */
export const userSearchText = (name: string, email: string) => `${name} ${email}`.toLowerCase();

/**
 * Presence: the user item's string set `sockets` holds one `<connectionId>@<expires epoch s>` per open
 * WebSocket (added on $connect, deleted on $disconnect or when a post finds the socket gone), so
 * the dashboard learns who is online from the users it reads anyway. An entry whose time passed is a
 * socket that ended without a $disconnect: not online.
 */
export const socketEntry = (connectionId: string, expiresAt: number) => `${connectionId}@${expiresAt}`;
export const isOnline = (item: Item, nowSeconds = Math.floor(Date.now() / 1000)) =>
  [...((item.sockets as Set<string> | undefined) ?? [])].some((e) => Number(e.split('@').pop()) > nowSeconds);

/** Fields of the user item that are not the user: search text and presence (presence/service.ts). */
type PresenceFields = { searchText?: string; sockets?: unknown; idle?: unknown; presenceStatus?: unknown };

export const toUser = (item: Item): User => {
  const {
    passwordHash: _hash,
    searchText: _search,
    sockets: _sockets,
    idle: _idle,
    presenceStatus: _status,
    ...rest
  } = stripKeys(item) as StoredUser & PresenceFields;
  return rest;
};

export async function getStoredUser(companyId: number, id: number): Promise<StoredUser | undefined> {
  const item = await getItem(userKeys(companyId, id));
  if (!item) return undefined;
  const {
    searchText: _search,
    sockets: _sockets,
    idle: _idle,
    presenceStatus: _status,
    ...stored
  } = stripKeys(item) as StoredUser & PresenceFields;
  return stored;
}

/** `consistent`: the user as the last write left it (the WebSocket routes scope a socket by it). */
export async function getUser(
  companyId: number,
  id: number,
  opts: { consistent?: boolean } = {},
): Promise<User | undefined> {
  const item = await getItem(userKeys(companyId, id), opts);
  return item ? toUser(item) : undefined;
}

/** Whose e-mail it is, from the guard item alone (one read, the same for unknown e-mails). */
export async function findEmailOwner(email: string): Promise<{ companyId: number; userId: number } | undefined> {
  const guard = await getItem<{ companyId: number; userId: number }>(emailKeys(email));
  return guard && { companyId: guard.companyId, userId: guard.userId };
}

export async function findUserByEmail(email: string): Promise<StoredUser | undefined> {
  const guard = await findEmailOwner(email);
  return guard ? getStoredUser(guard.companyId, guard.userId) : undefined;
}

/** The company's users: one Query. */
export async function listUsers(companyId: number): Promise<User[]> {
  return (await queryAll({ pk: `C#${companyId}`, sk: { beginsWith: 'USER#' } })).map(toUser);
}

/** Each user's id and name and whether a WebSocket is live (the dashboard's attendants): one Query of three attributes. */
export async function userNamesWithPresence(
  companyId: number,
): Promise<{ id: number; name: string; online: boolean }[]> {
  const items = await queryAll({
    pk: `C#${companyId}`,
    sk: { beginsWith: 'USER#' },
    projection: ['id', 'name', 'sockets'],
  });
  const now = Math.floor(Date.now() / 1000);
  return items.map((i) => ({ id: Number(i.id), name: String(i.name), online: isOnline(i, now) }));
}

export interface NewUser {
  companyId: number;
  name: string;
  email: string;
  passwordHash: string;
  profile: User['profile'];
  super?: boolean;
  allTicket?: User['allTicket'];
  whatsappId?: number | null;
  queueIds?: number[];
  showNoQueue?: boolean;
  maxOpenTickets?: number | null;
}

/**
 * Creates a user with its e-mail guard and the usage counter in one transaction. `maxUsers`
 * (the plan limit) is enforced by the counter's condition; `extra` lets a caller create the
 * company in the same transaction (signup).
 */
export async function createUser(
  data: NewUser,
  opts: { maxUsers?: number; extra?: TransactItem[] } = {},
): Promise<User> {
  const id = await nextId(companyScope(data.companyId), 'user');
  const now = nowIso();
  const stored: StoredUser = {
    id,
    companyId: data.companyId,
    name: data.name,
    email: data.email.toLowerCase(),
    passwordHash: data.passwordHash,
    profile: data.profile,
    super: data.super ?? false,
    allTicket: data.allTicket ?? 'desabled',
    whatsappId: data.whatsappId ?? null,
    queueIds: data.queueIds ?? [],
    showNoQueue: data.showNoQueue ?? false,
    maxOpenTickets: data.maxOpenTickets ?? null,
    createdAt: now,
    updatedAt: now,
  };
  const items: TransactItem[] = [
    ...(opts.extra ?? []),
    putTx({ ...emailKeys(stored.email), companyId: data.companyId, userId: id }, true),
    putTx({ ...userKeys(data.companyId, id), ...stored, searchText: userSearchText(stored.name, stored.email) }, true),
    counterTx(companyScope(data.companyId), USERS_USAGE, 1, opts.maxUsers),
  ];
  const extraCount = opts.extra?.length ?? 0;
  await transact(items, (index) => {
    if (index === extraCount) return new AppError('ERR_EMAIL_ALREADY_EXISTS');
    if (index === extraCount + 2) return limitReached('users', opts.maxUsers);
    return new AppError('ERR_CONFLICT');
  });
  return toUser(stored);
}
