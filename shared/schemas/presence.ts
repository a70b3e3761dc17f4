import { z } from 'zod';

/**
 * A user's availability (issue 24): `online` while a socket is open and the user was active within the
 * company's idle time, `away` past it, `offline` when the last socket closed. Automatic assignment only
 * picks `online` attendants.
 */
export const USER_STATUSES = ['online', 'away', 'offline'] as const;
export const UserStatus = z.enum(USER_STATUSES);
export type UserStatus = z.infer<typeof UserStatus>;
