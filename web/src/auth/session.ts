import { differenceInCalendarDays, isValid, parseISO } from 'date-fns';
import { EXPIRY_WARNING_DAYS } from '#shared/constants';

/** Whole days from `now` until the due date; null when there is no valid date. */
export function daysUntil(dueDate: string | null | undefined, now = new Date()): number | null {
  if (!dueDate) return null;
  const d = parseISO(dueDate);
  return isValid(d) ? differenceInCalendarDays(d, now) : null;
}

/** The expiry warning shows when fewer than 5 days remain (attendance.md 4.1). */
export function expiryWarningDays(dueDate: string | null | undefined, now = new Date()): number | null {
  const days = daysUntil(dueDate, now);
  return days !== null && days >= 0 && days < EXPIRY_WARNING_DAYS ? days : null;
}

/** The session id (`sid`) inside an access token, to tell this session from others of the same user. */
export function tokenSessionId(token: string | null): string | undefined {
  const part = token?.split('.')[1];
  if (!part) return undefined;
  try {
    const json = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    return (JSON.parse(json) as { sid?: string }).sid;
  } catch {
    return undefined;
  }
}

/**
 * An `auth` event means the account was used elsewhere when it names this user and a session
 * other than ours (attendance.md 4.1).
 */
export function isUsedElsewhere(
  event: { user?: { id?: number }; sessionId?: string },
  me: { userId: number; sessionId?: string },
) {
  return event.user?.id === me.userId && Boolean(event.sessionId) && event.sessionId !== me.sessionId;
}
