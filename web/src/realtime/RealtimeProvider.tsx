import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useSWRConfig } from 'swr';
import { useTranslation } from 'react-i18next';
import type { EventName } from '#shared/events';
import { REDIRECT_DELAY_MS } from '#shared/constants';
import { api } from '../api/client';
import { config, wsUrl } from '../config';
import { useAuth } from '../auth/AuthProvider';
import { sessionStore, signOutNotice } from '../auth/storage';
import { isUsedElsewhere, tokenSessionId } from '../auth/session';
import { notify } from '../components/toast';
import { RealtimeClient } from './client';

const Ctx = createContext<{ client: RealtimeClient | null; connected: boolean }>({ client: null, connected: false });

export const useRealtimeClient = () => useContext(Ctx).client;
export const useRealtimeConnected = () => useContext(Ctx).connected;

/** Subscribe to one company event while the component is mounted. */
export function useRealtimeEvent<T = unknown>(name: EventName, handler: (data: T) => void) {
  const client = useRealtimeClient();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => client?.on<T>(name, (d) => ref.current(d)), [client, name]);
}

const reconnectListeners = new Set<() => void>();

/**
 * Refetch once the socket is open, first or again (events published before it was registered were
 * missed). Plain SWR keys are revalidated by the provider; paged (infinite) lists register here,
 * since SWR's global mutate skips them.
 */
export function useOnReconnect(callback: () => void) {
  const ref = useRef(callback);
  ref.current = callback;
  useEffect(() => {
    const listener = () => ref.current();
    reconnectListeners.add(listener);
    return () => void reconnectListeners.delete(listener);
  }, []);
}

/** Stay in a room (ticket chat box, ticket list by status, notifications) while mounted. */
export function useRoom(action: 'joinChatBox' | 'joinTickets' | 'joinNotification', value?: string | number | null) {
  const client = useRealtimeClient();
  useEffect(() => {
    if (!client || value === null) return;
    return client.join(action, value);
  }, [client, action, value]);
}

/** One socket per company and user, replaced when either changes (attendance.md 4.3). */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const { mutate } = useSWRConfig();
  const { t } = useTranslation();
  const [client, setClient] = useState<RealtimeClient | null>(null);
  const [connected, setConnected] = useState(false);
  const companyId = user?.companyId;
  const userId = user?.id;

  useEffect(() => {
    if (!companyId || !userId) return;
    const rt = new RealtimeClient({
      companyId,
      connectUrl: async () => {
        const { ticket } = await api.post<{ ticket: string }>('/auth/ws-ticket');
        return `${wsUrl(config().wsUrl)}?ticket=${encodeURIComponent(ticket)}`;
      },
      createSocket: (url) => new WebSocket(url) as never,
      onResync: () => {
        void mutate(() => true);
        for (const l of reconnectListeners) l();
      },
      onStatus: setConnected,
    });
    const offAuth = rt.on<{ user?: { id?: number }; sessionId?: string }>('auth', (data) => {
      if (!isUsedElsewhere(data, { userId, sessionId: tokenSessionId(sessionStore.token()) })) return;
      notify.error(t('session.usedElsewhere'));
      rt.stop();
      setTimeout(() => {
        localStorage.clear();
        // the login page says it again after the reload
        signOutNotice.set('usedElsewhere');
        window.location.reload();
      }, REDIRECT_DELAY_MS);
    });
    rt.start();
    setClient(rt);
    return () => {
      offAuth();
      rt.stop();
      setClient(null);
    };
  }, [companyId, userId, mutate, t]);

  return <Ctx.Provider value={{ client, connected }}>{children}</Ctx.Provider>;
}
