import type { User } from '#shared/schemas/accounts';
import { AppError } from '../errors';
import { getItem, stripKeys, transact, putTx, queryAll, updateItem, type TransactItem, type Item } from '../db';
import { log } from '../log';
import { remember } from '../lru';
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
 * WebSocket (added on $connect, deleted on $disconnect or when a post finds the socket gone: realtime.ts
 * names the changes, presence/service.ts writes them), so the dashboard learns who is online from the
 * users it reads anyway. An entry whose time passed is a socket that ended without a $disconnect: not online.
 */
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

/**
 * The roster's version: `C#<companyId>` / `ROSTER`, whose `v` is ADDed 1 right after every write that
 * changes who the users are, their names or their sockets (a user created, renamed or deleted; a
 * socket opened or closed). A reader that keeps the users per instance (the dashboard's attendants)
 * reads the version, a few bytes, beside the keys it reads anyway, and the users again only when it
 * moved (`userNamesWithPresence`). Not in the write's transaction: the item is hot (every socket
 * moves it) and a transaction would be refused beside a concurrent bump; a bump lost to a crash or
 * an error is covered by ROSTER_MAX_AGE_MS.
 */
export const rosterKeys = (companyId: number) => ({ pk: `C#${companyId}`, sk: 'ROSTER' });
export const ROSTER_VERSION = 'v';
/** Moves the roster's version; best effort (logged, never thrown: the write it follows is done). */
export async function bumpRoster(companyId: number) {
  try {
    await updateItem(rosterKeys(companyId), { add: { [ROSTER_VERSION]: 1 } });
  } catch (err) {
    log.warn('roster version not moved', { companyId, error: (err as Error).message });
  }
}
/** A roster item's version; 0 before the first write that bumps it. */
export const rosterVersionOf = (item: Item | undefined) => {
  const v = item?.[ROSTER_VERSION];
  return typeof v === 'number' ? v : 0;
};

type RosterUser = { id: number; name: string; sockets?: Set<string> };
/** Rosters kept per instance with the version they were read at, the least recently used dropped past MAX_ROSTERS. */
const rosters = new Map<number, { version: number; readAt: number; users: RosterUser[] }>();
export const MAX_ROSTERS = 2_000;
/**
 * A kept roster is read again after this long even when its version did not move: the bump after a
 * socket's change is a second write, and a crash between the two must not leave presence stale for long.
 */
export const ROSTER_MAX_AGE_MS = 60_000;

async function readRoster(companyId: number, consistent: boolean): Promise<RosterUser[]> {
  const items = await queryAll({
    pk: `C#${companyId}`,
    sk: { beginsWith: 'USER#' },
    projection: ['id', 'name', 'sockets'],
    consistent,
  });
  return items.map((i) => ({ id: Number(i.id), name: String(i.name), sockets: i.sockets as Set<string> | undefined }));
}

/**
 * Each user's id and name and whether a WebSocket is live (the dashboard's attendants): one Query of
 * three attributes. Given the roster's version just read (`rosterVersionOf`), the users this instance
 * read at that version or a later one serve instead, and the Query (then strongly consistent, so it
 * sees the write the version counts) runs only when the version moved or ROSTER_MAX_AGE_MS passed.
 * Who is online is worked out at each call from the sockets' expiry.
 */
export async function userNamesWithPresence(
  companyId: number,
  version?: number,
): Promise<{ id: number; name: string; online: boolean }[]> {
  const nowMs = Date.now();
  let users: RosterUser[];
  const kept = version === undefined ? undefined : rosters.get(companyId);
  if (kept && version! <= kept.version && nowMs - kept.readAt < ROSTER_MAX_AGE_MS) {
    users = kept.users;
    remember(rosters, companyId, kept, MAX_ROSTERS);
  } else {
    users = await readRoster(companyId, version !== undefined);
    if (version !== undefined) remember(rosters, companyId, { version, readAt: nowMs, users }, MAX_ROSTERS);
  }
  const now = Math.floor(nowMs / 1000);
  return users.map((u) => ({ id: u.id, name: u.name, online: isOnline(u, now) }));
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
  await bumpRoster(data.companyId);
  return toUser(stored);
}
