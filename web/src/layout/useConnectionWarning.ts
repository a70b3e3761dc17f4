import { useEffect, useState } from 'react';
import { can } from '#shared/permissions';
import { useApi } from '../api/swr';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { asList, liveMutation, removeById, upsertById } from '../realtime/cache';
import type { CloudHealth } from '../connections/cloud-health';
import { connectionsNeedAttention } from './menu';

/** A Cloud API connection's quality fields come with the `whatsapp` event, as its QR status does. */
interface Connection extends CloudHealth {
  id: number;
  name: string;
  status: string;
  /** WhatsApp locked new chats from the number until then (WhatsApp Web) */
  reachoutLockedUntil?: string;
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
      void mutate((d: unknown) => removeById(asList<Connection>(d, 'whatsapps'), ev.whatsappId!), liveMutation(data));
    else if (ev.whatsapp)
      void mutate(
        (d: unknown) => upsertById(asList<Connection>(d, 'whatsapps'), ev.whatsapp!, 'end'),
        liveMutation(data),
      );
  });
  useRealtimeEvent<{ action: string; session?: Partial<Connection> & { id: number } }>('whatsappSession', (ev) => {
    if (!enabled || !ev.session) return;
    // nothing loaded yet: the list is fetched again rather than made an empty one
    void mutate(
      (d: unknown) =>
        d === undefined
          ? d
          : asList<Connection>(d, 'whatsapps').map((c) => (c.id === ev.session!.id ? { ...c, ...ev.session } : c)),
      liveMutation(data),
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
