import { can } from '#shared/permissions';

export type RouteKind = 'public' | 'private';
export type SessionStatus = 'loading' | 'anonymous' | 'authenticated';

/**
 * The route guard (attendance.md 2.1): private routes send anonymous users to /login; public
 * routes send signed-in users to / — except right after logging in, when the user goes to
 * /tickets (`landing`). Null = render the route.
 */
export function guardRedirect(kind: RouteKind, status: SessionStatus, landing?: string | null): string | null {
  if (status === 'loading') return null;
  if (kind === 'private' && status === 'anonymous') return '/login';
  if (kind === 'public' && status === 'authenticated') return landing ?? '/';
  return null;
}

/** Where a successful login lands (2.1). */
export const AFTER_LOGIN = '/tickets';

/** The dashboard (/) is for roles with dashboard:view; everyone else lands on /tickets. */
export const homeFor = (profile: string | undefined) => (can(profile, 'dashboard:view') ? '/' : '/tickets');
