import { can, type Permission } from '#shared/permissions';
import { PAGE_SIZE, type Language } from '#shared/constants';
import type { User } from '#shared/schemas/accounts';
import type { UserCreateBody, UserUpdateBody } from '#shared/schemas/users';
import type { AuthContext } from '../auth';
import { hashPassword } from '../auth';
import { AppError } from '../errors';
import { deleteTx, putTx, query, transact, updateItem, updateTx, type TransactItem } from '../db';
import { counterTx, companyScope } from '../ids';
import { nowIso } from '../keys';
import { decodeCursor, page } from '../cursor';
import { closeConnectionsWhere, companyConnections, publish, refreshConnection } from '../realtime';
import { auditBy, changesOf, type AuditActor } from '../audit/actor';
import { settingValue } from '../settings';
import { companyPlan } from '../accounts/companies';
import {
  USERS_USAGE,
  createUser,
  emailKeys,
  getStoredUser,
  getUser,
  listUsers,
  toUser,
  userKeys,
  bumpRoster,
  userSearchText,
} from '../accounts/users';
import { forgetCheckedSessions, revokeUserSessions } from '../accounts/sessions';
import { getQueues } from '../queues/repo';
import { getWhatsapp } from '../whatsapp/repo';
import { onUserAvailable } from '../tickets/assignment';

/** The admin part of the menu (users, queues, settings ...): only admins create, delete or edit others. */
export const ADMIN_AREA: Permission = 'drawer-admin-items:view';
export const isAdmin = (auth: AuthContext) => auth.super || can(auth.profile, ADMIN_AREA);

export type UserWithQueues = User & { queues: { id: number; name: string; color: string }[] };

export async function withQueues(user: User): Promise<UserWithQueues> {
  const queues = await getQueues(user.companyId, user.queueIds ?? []);
  return { ...user, queues: queues.map((q) => ({ id: q.id, name: q.name, color: q.color })) };
}

export async function requireUser(companyId: number, id: number): Promise<User> {
  const user = await getUser(companyId, id);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  return user;
}

/** The users page: one Query per page, searched by name or e-mail. */
export async function listUsersPage(
  companyId: number,
  opts: { searchParam?: string; cursor?: string; limit?: number },
) {
  const search = opts.searchParam?.trim().toLowerCase();
  const where = { pk: `C#${companyId}`, sk: { beginsWith: 'USER#' } };
  const out = await query({
    ...where,
    limit: opts.limit ?? PAGE_SIZE,
    startKey: await decodeCursor(companyId, opts.cursor, where),
    ...(search
      ? {
          filter: 'contains(#search, :search)',
          filterNames: { '#search': 'searchText' },
          filterValues: { ':search': search },
        }
      : {}),
  });
  const result = await page(companyId, out.items.map(toUser), out.lastKey, where);
  return { users: result.items, hasMore: result.hasMore, cursor: result.cursor };
}

const userTarget = (user: Pick<User, 'id' | 'name'>) => ({ type: 'user', id: user.id, name: user.name });

/** Queue ids must name queues of the company; a connection must be one of its connections. */
async function assertReferences(companyId: number, body: { queueIds?: number[]; whatsappId?: number | null }) {
  if (body.queueIds?.length) {
    const wanted = [...new Set(body.queueIds)];
    const found = await getQueues(companyId, wanted);
    if (found.length !== wanted.length)
      throw new AppError('ERR_VALIDATION', 400, [{ path: ['queueIds'], message: 'invalid' }]);
  }
  if (body.whatsappId) {
    if (!(await getWhatsapp(companyId, body.whatsappId))) throw new AppError('ERR_NO_WAPP_FOUND');
  }
}

/**
 * What `user.updated` shows: queues, name and the visibility and permission flags, before and after
 * (profile, e-mail and password have entries of their own; the password never appears).
 */
const UPDATE_FIELDS: (keyof User)[] = ['name', 'queueIds', 'allTicket', 'showNoQueue', 'whatsappId', 'maxOpenTickets'];
const auditedFields = (user: User): Partial<User> => ({
  name: user.name,
  allTicket: user.allTicket,
  queueIds: [...new Set(user.queueIds ?? [])].sort((x, y) => x - y),
  showNoQueue: Boolean(user.showNoQueue),
  whatsappId: user.whatsappId ?? null,
  maxOpenTickets: user.maxOpenTickets ?? null,
});

const sameIds = (a: number[] = [], b: number[] = []) => {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/**
 * Fields guarded by the user modal's permissions (attendance.md 2.14): profile, connection and
 * view-all-tickets need user-modal:editProfile, queues need user-modal:editQueues. Sending the
 * current value back (as the form does) is not a change and is allowed.
 */
function assertModalPermissions(auth: AuthContext, current: Partial<User>, body: UserUpdateBody) {
  const now = {
    profile: current.profile,
    allTicket: current.allTicket,
    whatsappId: current.whatsappId ?? null,
    showNoQueue: Boolean(current.showNoQueue),
    maxOpenTickets: current.maxOpenTickets ?? null,
  };
  const changesProfileFields = (['profile', 'allTicket', 'whatsappId', 'showNoQueue', 'maxOpenTickets'] as const).some(
    (field) => body[field] !== undefined && body[field] !== now[field],
  );
  if (changesProfileFields && !auth.super && !can(auth.profile, 'user-modal:editProfile'))
    throw new AppError('ERR_NO_PERMISSION');
  const changesQueues = body.queueIds !== undefined && !sameIds(body.queueIds, current.queueIds);
  if (changesQueues && !auth.super && !can(auth.profile, 'user-modal:editQueues'))
    throw new AppError('ERR_NO_PERMISSION');
}

/**
 * Creates a user of the caller's company. The setting `userCreation` = 'disabled' stops creation
 * by everyone but platform super users (company admins included): it is the platform's switch for
 * companies that must not add seats themselves. The plan's user limit holds through the usage counter.
 */
export async function createCompanyUser(
  auth: AuthContext,
  body: UserCreateBody,
  by?: AuditActor,
): Promise<UserWithQueues> {
  const companyId = auth.companyId;
  if (!auth.super && (await settingValue(companyId, 'userCreation')) === 'disabled')
    throw new AppError('ERR_USER_CREATION_DISABLED');
  assertModalPermissions(
    auth,
    {
      profile: 'user',
      allTicket: 'desabled',
      whatsappId: null,
      queueIds: [],
      showNoQueue: false,
      maxOpenTickets: null,
    },
    body,
  );
  await assertReferences(companyId, body);
  const plan = await companyPlan(companyId);
  const user = await createUser(
    {
      companyId,
      name: body.name,
      email: body.email,
      passwordHash: await hashPassword(body.password),
      profile: body.profile ?? 'user',
      allTicket: body.allTicket,
      whatsappId: body.whatsappId ?? null,
      queueIds: [...new Set(body.queueIds ?? [])],
      showNoQueue: body.showNoQueue,
      maxOpenTickets: body.maxOpenTickets ?? null,
    },
    { maxUsers: plan?.users },
  );
  await auditBy(by, {
    action: 'user.created',
    target: userTarget(user),
    changes: { email: user.email, profile: user.profile },
  });
  const out = await withQueues(user);
  await publish(companyId, 'user', { action: 'create', user: out });
  return out;
}

/**
 * Keeps the visibility data of the user's open sockets in step with the user (realtime filtering).
 * Only those fields are written, and only on connections still recorded: a room joined meanwhile
 * stays joined, and a socket that went away is not brought back.
 */
async function syncConnections(user: User) {
  const mine = (await companyConnections(user.companyId)).filter((c) => c.userId === user.id);
  await Promise.all(
    mine.map((conn) =>
      refreshConnection(conn, {
        profile: user.profile,
        queueIds: user.queueIds,
        allTicket: user.allTicket,
        showNoQueue: Boolean(user.showNoQueue),
      }),
    ),
  );
}

/** Only a platform super user may edit or delete a super user (its credentials included). */
function assertMayManage(auth: AuthContext, target: User) {
  if (target.super && !auth.super) throw new AppError('ERR_NO_PERMISSION');
}

export async function updateCompanyUser(
  auth: AuthContext,
  id: number,
  body: UserUpdateBody,
  by?: AuditActor,
): Promise<UserWithQueues> {
  const companyId = auth.companyId;
  // A non-admin may edit only themselves (name, e-mail, password); another user's credentials need an admin.
  if (id !== auth.userId && !isAdmin(auth)) throw new AppError('ERR_NO_PERMISSION');
  const current = await getStoredUser(companyId, id);
  if (!current) throw new AppError('ERR_NO_USER_FOUND');
  assertMayManage(auth, current);
  assertModalPermissions(auth, current, body);
  await assertReferences(companyId, body);
  const name = body.name ?? current.name;
  const email = body.email ?? current.email;
  const set: Record<string, unknown> = {
    name,
    email,
    searchText: userSearchText(name, email),
    profile: body.profile,
    allTicket: body.allTicket,
    whatsappId: body.whatsappId,
    queueIds: body.queueIds ? [...new Set(body.queueIds)] : undefined,
    showNoQueue: body.showNoQueue,
    maxOpenTickets: body.maxOpenTickets,
    passwordHash: body.password ? await hashPassword(body.password) : undefined,
    updatedAt: nowIso(),
  };
  const userUpdate = updateTx(userKeys(companyId, id), { set, condition: 'attribute_exists(pk)' });
  const oldCapacity = current.maxOpenTickets ?? null;
  const capacity = body.maxOpenTickets === undefined ? oldCapacity : body.maxOpenTickets;
  if (email !== current.email) {
    // The e-mail guard moves with the e-mail: new guard (must be free), old guard gone, user updated.
    await transact(
      [putTx({ ...emailKeys(email), companyId, userId: id }, true), deleteTx(emailKeys(current.email)), userUpdate],
      (index) => (index === 0 ? new AppError('ERR_EMAIL_ALREADY_EXISTS') : new AppError('ERR_NO_USER_FOUND')),
    );
  } else {
    await transact([userUpdate], () => new AppError('ERR_NO_USER_FOUND'));
  }
  // a new name moves the roster's version: instances keeping the users read them again
  if (name !== current.name) await bumpRoster(companyId);
  // New credentials end the user's other sessions and close their sockets; the caller's own session carries on.
  if (body.password || email !== current.email)
    await revokeUserSessions(companyId, id, id === auth.userId ? auth.sessionId : undefined);
  forgetCheckedSessions(companyId, id);
  const user = await requireUser(companyId, id);
  const target = userTarget(user);
  if (body.password) await auditBy(by, { action: 'auth.password_changed', target });
  if (email !== current.email)
    await auditBy(by, { action: 'auth.email_changed', target, changes: { email: { from: current.email, to: email } } });
  if (user.profile !== current.profile)
    await auditBy(by, {
      action: 'user.role_changed',
      target,
      changes: { profile: { from: current.profile, to: user.profile } },
    });
  const changed = changesOf(auditedFields(current), auditedFields(user), UPDATE_FIELDS);
  if (Object.keys(changed).length) await auditBy(by, { action: 'user.updated', target, changes: changed });
  const visibilityChanged =
    user.profile !== current.profile ||
    user.allTicket !== current.allTicket ||
    Boolean(user.showNoQueue) !== Boolean(current.showNoQueue) ||
    !sameIds(user.queueIds, current.queueIds);
  if (visibilityChanged) await syncConnections(user);
  const out = await withQueues(user);
  await publish(companyId, 'user', { action: 'update', user: out });
  // more room or new queues: tickets waiting in the user's automatic queues may go to them now
  const moreRoom = capacity !== oldCapacity && (capacity === null || (oldCapacity !== null && capacity > oldCapacity));
  if (moreRoom || !sameIds(user.queueIds, current.queueIds)) await onUserAvailable(companyId, id, user);
  return out;
}

/** Deletes a user: its e-mail is freed, the seat is returned to the plan and its sessions and sockets end. */
export async function deleteCompanyUser(auth: AuthContext, id: number, by?: AuditActor) {
  const companyId = auth.companyId;
  // The last admin deleting themselves would lock the company out; another admin may do it.
  if (id === auth.userId) throw new AppError('ERR_NO_PERMISSION');
  const current = await getStoredUser(companyId, id);
  if (!current) throw new AppError('ERR_NO_USER_FOUND');
  assertMayManage(auth, current);
  const items: TransactItem[] = [
    deleteTx(userKeys(companyId, id), 'attribute_exists(pk)'),
    deleteTx(emailKeys(current.email)),
    counterTx(companyScope(companyId), USERS_USAGE, -1),
  ];
  await transact(items, () => new AppError('ERR_NO_USER_FOUND'));
  await bumpRoster(companyId);
  await revokeUserSessions(companyId, id);
  // and any socket of the user its sessions did not list
  await closeConnectionsWhere(companyId, (c) => c.userId === id);
  await auditBy(by, {
    action: 'user.deleted',
    target: userTarget(current),
    changes: { email: current.email, profile: current.profile },
  });
  await publish(companyId, 'user', { action: 'delete', userId: id });
}

export async function setLanguage(auth: AuthContext, language: Language): Promise<User> {
  const updated = await updateItem(userKeys(auth.companyId, auth.userId), {
    set: { language, updatedAt: nowIso() },
    condition: 'attribute_exists(pk)',
  });
  if (!updated) throw new AppError('ERR_NO_USER_FOUND');
  return toUser(updated);
}

/** A deleted queue leaves the queue lists of the users (and their sockets) that had it. */
export async function removeQueueFromUsers(companyId: number, queueId: number) {
  const users = (await listUsers(companyId)).filter((u) => u.queueIds?.includes(queueId));
  for (const user of users) {
    const queueIds = user.queueIds.filter((q) => q !== queueId);
    const updated = await updateItem(userKeys(companyId, user.id), {
      set: { queueIds, updatedAt: nowIso() },
      condition: 'attribute_exists(pk)',
    });
    if (updated) {
      await syncConnections(toUser(updated));
      await publish(companyId, 'user', { action: 'update', user: await withQueues(toUser(updated)) });
    }
  }
}
