import type { SessionPayload } from '../auth/types';

/**
 * The restricted session (issue 10): an expired company's admin signs in to reach only the invoices
 * and the subscription, pays, and is restored at once. Every other path goes to the invoices.
 */
export const RESTRICTED_PATHS = ['/financeiro', '/subscription'] as const;
export const RESTRICTED_HOME = '/financeiro';

export const restrictedRedirect = (restricted: boolean, pathname: string): string | null =>
  restricted && !(RESTRICTED_PATHS as readonly string[]).includes(pathname.replace(/\/+$/, '') || '/')
    ? RESTRICTED_HOME
    : null;

/** How long the renewal toast stays before the app goes to / (management.md 9: 4 seconds). */
export const RENEWAL_REDIRECT_MS = 4_000;

/** The server's `company.restricted` on the login and refresh answers (the due date has passed). */
export const isRestricted = (data: Pick<SessionPayload, 'company'>) => data.company?.restricted === true;
