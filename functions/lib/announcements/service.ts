import type { Announcement } from '#shared/schemas/announcements';
import { ANNOUNCEMENT_DEFAULT_PRIORITY, ANNOUNCEMENT_MEDIA_TYPES } from '#shared/schemas/announcements';
import { PAGE_SIZE } from '#shared/constants';
import type { AuthContext } from '../auth';
import { deleteItem, putItem, query } from '../db';
import { AppError } from '../errors';
import { GLOBAL_SCOPE, nextId } from '../ids';
import { nowIso } from '../keys';
import { decodeCursor, page } from '../cursor';
import { publishToEveryone } from '../realtime';
import { deleteObject, presignGet, storeUpload } from '../storage';
import { acceptUpload } from '../upload-policy';
import type { UploadedFile } from '../multipart';
import {
  ACTIVE_INDEX_PK,
  ANNOUNCEMENTS_PK,
  announcementItem,
  announcementKeys,
  readIds,
  readMarkKeys,
  requireAnnouncement,
  toStoredAnnouncement,
  type StoredAnnouncement,
} from './repo';

async function present(a: StoredAnnouncement): Promise<Announcement> {
  const { mediaCompanyId, ...rest } = a;
  return a.mediaPath && mediaCompanyId ? { ...rest, mediaUrl: await presignGet(mediaCompanyId, a.mediaPath) } : rest;
}

/**
 * Every user of every company hears of an active announcement; an inactive or deleted one leaves
 * their lists. One post per open socket, read from the platform-wide socket list (realtime.ts).
 */
async function broadcast(a: StoredAnnouncement, action: 'create' | 'update' | 'delete') {
  const payload =
    action !== 'delete' && a.status ? { action, record: await present(a) } : { action: 'delete' as const, id: a.id };
  await publishToEveryone('announcement', payload);
}

/**
 * GET /announcements: every user reads the active ones by priority (1 first), newest first, each
 * with its read mark; a super user reads them all (`status` other than `active`), newest first.
 */
export async function listAnnouncements(
  auth: AuthContext,
  q: { searchParam?: string; status?: 'active' | 'all'; cursor?: string; limit?: number },
) {
  const term = q.searchParam?.trim().toLowerCase();
  const search = term
    ? { filter: 'contains(#t, :q)', filterNames: { '#t': 'titleLower' }, filterValues: { ':q': term } }
    : {};
  const all = auth.super && q.status !== 'active';
  const where = all ? { pk: ANNOUNCEMENTS_PK } : { index: 'gsi1', pk: ACTIVE_INDEX_PK };
  const out = await query({
    ...where,
    ...search,
    forward: !all,
    limit: q.limit ?? PAGE_SIZE,
    startKey: await decodeCursor(auth.companyId, q.cursor, where),
  });
  const items = out.items.map(toStoredAnnouncement);
  const read = await readIds(
    auth.companyId,
    auth.userId,
    items.map((a) => a.id),
  );
  const records = await Promise.all(items.map(async (a) => ({ ...(await present(a)), read: read.has(a.id) })));
  const paged = await page(auth.companyId, records, out.lastKey, where);
  return { records: paged.items, hasMore: paged.hasMore, cursor: paged.cursor };
}

/** An inactive announcement exists for super users only. */
async function visible(auth: AuthContext, id: number) {
  const a = await requireAnnouncement(id);
  if (!a.status && !auth.super) throw new AppError('ERR_NOT_FOUND');
  return a;
}

export async function getAnnouncement(auth: AuthContext, id: number): Promise<Announcement> {
  const a = await visible(auth, id);
  const read = await readIds(auth.companyId, auth.userId, [id]);
  return { ...(await present(a)), read: read.has(id) };
}

/** POST /announcements/{id}/read: the user opened it (the popover's unread mark goes). */
export async function markAnnouncementRead(auth: AuthContext, id: number) {
  await visible(auth, id);
  await putItem({ ...readMarkKeys(auth.companyId, auth.userId, id), announcementId: id, readAt: nowIso() });
  return { id, read: true };
}

export async function createAnnouncement(body: {
  title: string;
  text: string;
  priority?: number;
  status?: boolean;
}): Promise<Announcement> {
  const now = nowIso();
  const a: StoredAnnouncement = {
    id: await nextId(GLOBAL_SCOPE, 'announcement'),
    title: body.title,
    text: body.text,
    priority: body.priority ?? ANNOUNCEMENT_DEFAULT_PRIORITY,
    status: body.status ?? true,
    mediaPath: null,
    mediaName: null,
    mediaCompanyId: null,
    createdAt: now,
    updatedAt: now,
  };
  await putItem(announcementItem(a), { ifNotExists: true });
  await broadcast(a, 'create');
  return present(a);
}

async function save(before: StoredAnnouncement, changes: Partial<StoredAnnouncement>) {
  const after: StoredAnnouncement = { ...before, ...changes, updatedAt: nowIso() };
  // a whole-item put: an announcement that turns inactive leaves the active index with its gsi1 keys
  await putItem(announcementItem(after));
  await broadcast(after, 'update');
  return after;
}

export async function updateAnnouncement(
  id: number,
  body: { title?: string; text?: string; priority?: number; status?: boolean },
): Promise<Announcement> {
  const before = await requireAnnouncement(id);
  const changes = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  return present(await save(before, changes));
}

export async function deleteAnnouncement(id: number) {
  const a = await requireAnnouncement(id);
  await deleteItem(announcementKeys(id));
  if (a.mediaPath) await deleteObject(a.mediaPath);
  await broadcast(a, 'delete');
}

/** The image of an announcement (png, jpg, jpeg), under the uploading super user's company prefix. */
export async function attachAnnouncementMedia(auth: AuthContext, id: number, file: UploadedFile) {
  const before = await requireAnnouncement(id);
  const accepted = acceptUpload({
    fileName: file.fileName,
    mimetype: file.mimetype,
    size: file.data.length,
    head: file.data,
  });
  if (!(ANNOUNCEMENT_MEDIA_TYPES as readonly string[]).includes(accepted.mimetype))
    throw new AppError('ERR_UPLOAD_TYPE_NOT_ALLOWED', 415, { reason: 'type' });
  const { key } = await storeUpload(auth.companyId, 'announcement', file);
  const after = await save(before, { mediaPath: key, mediaName: file.fileName, mediaCompanyId: auth.companyId });
  if (before.mediaPath) await deleteObject(before.mediaPath);
  return present(after);
}

export async function removeAnnouncementMedia(id: number) {
  const before = await requireAnnouncement(id);
  const after = await save(before, { mediaPath: null, mediaName: null, mediaCompanyId: null });
  if (before.mediaPath) await deleteObject(before.mediaPath);
  return present(after);
}
