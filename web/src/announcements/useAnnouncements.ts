import type { Announcement } from '#shared/schemas/announcements';
import { useApi } from '../api/swr';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { asList, liveMutation } from '../realtime/cache';

export type AnnouncementEvent =
  | { action: 'create' | 'update'; record: Announcement }
  | { action: 'delete'; id: number };

/** Priority first (1 high), then the newest (the server's order, kept for live arrivals). */
export const byPriority = (a: Announcement, b: Announcement) =>
  a.priority - b.priority || b.createdAt.localeCompare(a.createdAt);

/** The popover's list after one event: an active one in its place (unread when new), a removed one gone. */
export function applyAnnouncementEvent(list: Announcement[], ev: AnnouncementEvent): Announcement[] {
  if (ev.action === 'delete') return list.filter((a) => a.id !== ev.id);
  const before = list.find((a) => a.id === ev.record.id);
  const record = { ...ev.record, read: ev.action === 'update' ? (before?.read ?? false) : false };
  return [record, ...list.filter((a) => a.id !== record.id)].sort(byPriority);
}

/** The active announcements every user sees (top-bar popover), live through `announcement`. */
export function useActiveAnnouncements() {
  const { data, mutate } = useApi<{ records: Announcement[] }>('/announcements', { status: 'active', limit: 50 });
  useRealtimeEvent<AnnouncementEvent>('announcement', (ev) => {
    void mutate(
      (d) => ({ records: applyAnnouncementEvent(asList<Announcement>(d, 'records'), ev) }),
      liveMutation(data),
    );
  });
  return { announcements: asList<Announcement>(data, 'records'), mutate };
}
