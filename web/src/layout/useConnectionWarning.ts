import { useEffect, useState } from 'react';
import { can } from '#shared/permissions';
import { useApi } from '../api/swr';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { asList, removeById, upsertById } from '../realtime/cache';
import { connectionsNeedAttention } from './menu';

interface Connection {
  id: number;
  name: string;
  status: string;
}

/** Connections badge: evaluated 2 s after the connection list changes (attendance.md 2.2). */
export function useConnectionWarning(profile: string | undefined) {
  const enabled = can(profile, 'drawer-admin-items:view');
  const { data, mutate } = useApi<unknown>(enabled ? '/whatsapp' : null, { session: 0 });
  const [warning, setWarning] = useState(false);

  useRealtimeEvent<{
    action: string;
    whatsapp?: Connection;
    whatsappId?: number;
    session?: Partial<Connection> & { id: number };
  }>('whatsapp', (ev) => {
    if (!enabled) return;
    if (ev.action === 'delete' && ev.whatsappId !== undefined)
      void mutate((d: unknown) => removeById(asList<Connection>(d, 'whatsapps'), ev.whatsappId!), {
        revalidate: false,
      });
    else if (ev.whatsapp)
      void mutate((d: unknown) => upsertById(asList<Connection>(d, 'whatsapps'), ev.whatsapp!, 'end'), {
        revalidate: false,
      });
  });
  useRealtimeEvent<{ action: string; session?: Partial<Connection> & { id: number } }>('whatsappSession', (ev) => {
    if (!enabled || !ev.session) return;
    void mutate(
      (d: unknown) =>
        asList<Connection>(d, 'whatsapps').map((c) => (c.id === ev.session!.id ? { ...c, ...ev.session } : c)),
      { revalidate: false },
    );
  });

  // Debounced on the answer itself: health reports also update the cached rows every few seconds,
  // and restarting the 2 s wait on each of them would keep the badge from ever changing.
  const needsAttention = connectionsNeedAttention(asList<Connection>(data, 'whatsapps'));
  useEffect(() => {
    const timer = setTimeout(() => setWarning(needsAttention), 2000);
    return () => clearTimeout(timer);
  }, [needsAttention]);
  return warning;
}
