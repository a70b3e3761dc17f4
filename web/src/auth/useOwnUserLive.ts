import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { useAuth } from './AuthProvider';
import type { SessionUser } from './types';

/**
 * The signed-in user as changed by a `user` event, or null when the event is about someone else.
 * The event carries the user and their queues; the session keeps what only the login gives (company).
 */
export function ownUserUpdate(
  current: SessionUser | null,
  ev: { action: string; user?: Partial<SessionUser> & { id: number } },
): SessionUser | null {
  if (!current || ev.action !== 'update' || ev.user?.id !== current.id) return null;
  return { ...current, ...ev.user, company: current.company ?? ev.user.company };
}

/**
 * Keeps the session's user live: an admin changing this user's profile, queues or ticket visibility
 * applies to their menu and ticket filters at once, not at the next sign-in. (The server already
 * applies it to every request and to the realtime filtering.)
 */
export function useOwnUserLive() {
  const { user, setUser } = useAuth();
  useRealtimeEvent<{ action: string; user?: SessionUser }>('user', (ev) => {
    const next = ownUserUpdate(user, ev);
    if (next) setUser(next);
  });
}
