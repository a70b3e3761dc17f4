import type { User } from '#shared/schemas/accounts';
import { can } from '#shared/permissions';
import type { AuthContext } from '../auth';
import { getUser } from '../accounts/users';
import { AppError } from '../errors';

/** Who reads tickets: the ticket lists (tickets/list.ts) and search (search/service.ts) both scope by it. */
export interface Viewer {
  user: User;
  profile: string;
  /** `user` is this instance's earlier copy: the list reads the user again beside its own reads */
  recheck?: boolean;
}

/**
 * The non-admins' users this instance read for their ticket lists. A list is planned with the copy
 * and reads the user again in the same round trip (tickets/list.ts): a user whose queues changed
 * costs that list one more round trip, never a list planned on stale queues.
 */
const kept = new Map<string, User>();
const MAX_KEPT = 10_000;
const keptKey = (companyId: number, userId: number) => `${companyId}#${userId}`;

/** Remembers the user as just read, for the next list's plan. */
export function keepViewer(companyId: number, user: User) {
  const key = keptKey(companyId, user.id);
  kept.delete(key);
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, user);
}
export const forgetViewer = (companyId: number, userId: number) => kept.delete(keptKey(companyId, userId));

/**
 * The signed-in user as the ticket lists and search see them. `kept`: a copy this instance read before
 * will do (flagged `recheck`), for a caller that reads the user again beside its own reads.
 */
export async function viewerOf(auth: AuthContext, opts: { kept?: boolean } = {}): Promise<Viewer> {
  // admins see every ticket: their lists need no queue membership, so no user read
  if (can(auth.profile, 'tickets-manager:showall')) {
    return {
      user: {
        id: auth.userId,
        companyId: auth.companyId,
        queueIds: [],
        allTicket: 'enabled',
        showNoQueue: true,
      } as unknown as User,
      profile: auth.profile,
    };
  }
  const copy = opts.kept ? kept.get(keptKey(auth.companyId, auth.userId)) : undefined;
  if (copy) return { user: copy, profile: auth.profile, recheck: true };
  const user = await getUser(auth.companyId, auth.userId);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  keepViewer(auth.companyId, user);
  return { user, profile: auth.profile };
}
