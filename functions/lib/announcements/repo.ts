import type { Announcement } from '#shared/schemas/announcements';
import { batchGet, getItem, stripKeys, type Item } from '../db';
import { AppError } from '../errors';
import { pad } from '../keys';

/**
 * Announcements are platform items (a super user writes them, every user of every company reads
 * the active ones):
 * - announcement: pk `ANNOUNCEMENT`, sk `A#<pad(id)>` (`titleLower` for the search filter); while
 *   active also on gsi1 `ANNOUNCEMENTS#ACTIVE` / `<priority>#<inverted createdAt>#<pad(id)>`, so
 *   the popover reads them by priority, newest first, in one Query;
 * - read mark: pk `C#<cid>#ANNREAD#<userId>`, sk `A#<pad(id)>`, written when a user opens one.
 */
export const ANNOUNCEMENTS_PK = 'ANNOUNCEMENT';
export const ACTIVE_INDEX_PK = 'ANNOUNCEMENTS#ACTIVE';
export const announcementKeys = (id: number) => ({ pk: ANNOUNCEMENTS_PK, sk: `A#${pad(id)}` });
export const readMarkKeys = (companyId: number, userId: number, id: number) => ({
  pk: `C#${companyId}#ANNREAD#${userId}`,
  sk: `A#${pad(id)}`,
});

/** The stored announcement: the public fields plus the company whose storage prefix holds the media. */
export type StoredAnnouncement = Omit<Announcement, 'mediaUrl' | 'read'> & { mediaCompanyId: number | null };

/** Later dates sort first under an ascending key. */
const invertedTime = (iso: string) => pad(9_999_999_999_999 - Date.parse(iso), 13);

export function announcementItem(a: StoredAnnouncement): Item {
  return {
    ...announcementKeys(a.id),
    ...a,
    titleLower: a.title.toLowerCase(),
    ...(a.status ? { gsi1pk: ACTIVE_INDEX_PK, gsi1sk: `${a.priority}#${invertedTime(a.createdAt)}#${pad(a.id)}` } : {}),
  };
}

export const toStoredAnnouncement = (item: Item): StoredAnnouncement => {
  const { titleLower: _t, ...rest } = stripKeys(item) as StoredAnnouncement & { titleLower?: string };
  return rest;
};

export async function requireAnnouncement(id: number): Promise<StoredAnnouncement> {
  const item = await getItem(announcementKeys(id));
  if (!item) throw new AppError('ERR_NOT_FOUND');
  return toStoredAnnouncement(item);
}

/** Which of `ids` the user has opened. */
export async function readIds(companyId: number, userId: number, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const marks = await batchGet<{ announcementId: number }>(ids.map((id) => readMarkKeys(companyId, userId, id)));
  return new Set(marks.map((m) => m.announcementId));
}
