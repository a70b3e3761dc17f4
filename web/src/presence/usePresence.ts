import { useEffect, useMemo, useRef, useState } from 'react';
import { IDLE_CHECK_MS, TYPING_SHOW_MS, awayAfterMs } from '#shared/presence';
import type { PresenceEntry, PresenceEvent, TicketViewer, TicketViewersEvent, TypingEvent } from '#shared/presence';
import { useApi } from '../api/swr';
import { liveMutation } from '../realtime/cache';
import { useRealtimeClient, useRealtimeEvent } from '../realtime/RealtimeProvider';
import { useSettings } from '../settings/useSettings';

/**
 * Presence in the browser (issue 24): statuses from `GET /presence` kept live by `presence` events,
 * this tab's idleness told to the server, and a ticket's viewers and typists from their events.
 */

/** Statuses the caller may see (admins: everyone; others: themselves), live. */
export function usePresenceList() {
  const { data, mutate } = useApi<{ users: PresenceEntry[] }>('/presence');
  useRealtimeEvent<PresenceEvent>('presence', (ev) => {
    void mutate(
      (cur) =>
        cur && {
          users: cur.users.map((u) => (u.userId === ev.userId ? { ...u, status: ev.status } : u)),
        },
      liveMutation(data),
    );
  });
  return data?.users ?? [];
}

const INPUT_EVENTS = ['keydown', 'pointerdown', 'pointermove', 'wheel', 'touchstart', 'focus'] as const;

/**
 * Tells the server when this tab has had no input for the company's `awayAfterMinutes`, and when it
 * has input again (mounted once, in the signed-in layout).
 */
export function useIdleTracker() {
  const client = useRealtimeClient();
  const { value } = useSettings();
  const awayMs = awayAfterMs(value('awayAfterMinutes'));
  const last = useRef(Date.now());
  useEffect(() => {
    if (!client) return;
    const onInput = () => {
      last.current = Date.now();
      client.setIdle(false);
    };
    for (const name of INPUT_EVENTS) window.addEventListener(name, onInput, { passive: true });
    const timer = setInterval(() => {
      if (Date.now() - last.current >= awayMs) client.setIdle(true);
    }, IDLE_CHECK_MS);
    return () => {
      for (const name of INPUT_EVENTS) window.removeEventListener(name, onInput);
      clearInterval(timer);
    };
  }, [client, awayMs]);
}

/** Who else has this ticket open, and who of them is typing in it now. */
export function useTicketPresence(ticketId: number, selfId: number | undefined) {
  // kept with the ticket they belong to, so opening another ticket shows none of the last one's
  const [viewers, setViewers] = useState<{ ticketId: number; list: TicketViewer[] }>({ ticketId, list: [] });
  const [typing, setTyping] = useState<Map<number, Typist>>(new Map());
  useRealtimeEvent<TicketViewersEvent>('ticketViewers', (ev) => {
    if (ev.ticketId !== ticketId) return;
    setViewers({ ticketId, list: ev.viewers });
    // one who left stops typing at once
    const present = new Set(ev.viewers.map((v) => v.userId));
    setTyping((cur) => new Map([...cur].filter(([id]) => present.has(id))));
  });
  useRealtimeEvent<TypingEvent>('typing', (ev) => {
    if (ev.ticketId !== ticketId || ev.userId === selfId) return;
    setTyping((cur) => new Map(cur).set(ev.userId, { ticketId, name: ev.name, until: Date.now() + TYPING_SHOW_MS }));
  });
  // a typist with no signal for TYPING_SHOW_MS is dropped
  useEffect(() => {
    if (!typing.size) return;
    const next = Math.min(...[...typing.values()].map((t) => t.until));
    const timer = setTimeout(
      () => setTyping((cur) => new Map([...cur].filter(([, t]) => t.until > Date.now()))),
      Math.max(0, next - Date.now()) + 50,
    );
    return () => clearTimeout(timer);
  }, [typing]);
  const others = useMemo(
    () => (viewers.ticketId === ticketId ? viewers.list.filter((v) => v.userId !== selfId) : []),
    [viewers, ticketId, selfId],
  );
  const typists = useMemo(
    () => [...typing.values()].filter((t) => t.ticketId === ticketId).map((t) => t.name),
    [typing, ticketId],
  );
  return { viewers: others, typists };
}

interface Typist {
  ticketId: number;
  name: string;
  until: number;
}
