import type { User } from '#shared/schemas/accounts';
import { can } from '#shared/permissions';
import type { AuthContext } from '../auth';
import { getUser } from '../accounts/users';
import { AppError } from '../errors';

/** Who reads tickets: the ticket lists (tickets/list.ts) and search (search/service.ts) both scope by it. */
export interface Viewer {
  user: User;
  profile: string;
}

/** The signed-in user as the ticket lists and search see them. */
export async function viewerOf(auth: AuthContext): Promise<Viewer> {
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
  const user = await getUser(auth.companyId, auth.userId);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  return { user, profile: auth.profile };
}
