import { PAGE_SIZE } from '#shared/constants';
import { SCHEDULE_MEDIA_EXTENSIONS, type Schedule } from '#shared/schemas/schedules';
import type { Contact } from '#shared/schemas/contacts';
import type { AuthContext } from '../auth';
import { can } from '#shared/permissions';
import { AppError } from '../errors';
import {
  batchGet,
  deleteItem,
  putItem,
  query,
  transact,
  updateItem,
  updateTx,
  type Item,
  type TransactItem,
} from '../db';
import { companyScope, nextId } from '../ids';
import { nowIso } from '../keys';
import { decodeCursor, page } from '../cursor';
import { publish } from '../realtime';
import { deleteObject, presignGet, storeUpload } from '../storage';
import { contactKeys, normalizeText, requireContact, toContact } from '../contacts/repo';
import type { UploadedFile } from '../multipart';
import { assertCanSeeContact } from '../tickets/access';
import {
  dueIndex,
  getStoredSchedule,
  scheduleItem,
  scheduleKeys,
  toSchedule,
  toStoredSchedule,
  type StoredSchedule,
} from './repo';

const contactSummary = (c: Contact) => ({ id: c.id, name: c.name, number: c.number, profilePicUrl: c.profilePicUrl });
const searchText = (body: string, contactName: string) => normalizeText(`${body} ${contactName}`);

/** Adds the contact (name, number) and a download URL for the media, as the calendar shows them. */
async function present(items: Item[]): Promise<Schedule[]> {
  const schedules = items.map(toSchedule);
  if (!schedules.length) return [];
  const contacts = new Map(
    (await batchGet(schedules.map((s) => contactKeys(s.companyId, s.contactId)))).map((i) => {
      const c = toContact(i);
      return [c.id, contactSummary(c)];
    }),
  );
  return Promise.all(
    schedules.map(async (s) => ({
      ...s,
      contact: contacts.get(s.contactId) ?? null,
      ...(s.mediaPath ? { mediaUrl: await presignGet(s.companyId, s.mediaPath) } : {}),
    })),
  );
}
export const presentOne = async (item: Item) => (await present([item]))[0]!;

async function announce(companyId: number, schedule: Schedule, action: 'create' | 'update') {
  await publish(companyId, 'schedule', { action, schedule });
}

export async function requireSchedule(companyId: number, id: number): Promise<StoredSchedule> {
  const s = await getStoredSchedule(companyId, id);
  if (!s) throw new AppError('ERR_NOT_FOUND');
  return s;
}

export const getSchedule = async (companyId: number, id: number) =>
  presentOne(scheduleItem(await requireSchedule(companyId, id)));

/** The schedules list: one Query per page, filtered by text (body or contact name), contact or user. */
export async function listSchedulesPage(
  companyId: number,
  opts: { searchParam?: string; contactId?: number; userId?: number; cursor?: string; limit?: number },
) {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const search = opts.searchParam ? normalizeText(opts.searchParam) : '';
  if (search) {
    parts.push('contains(#search, :search)');
    names['#search'] = 'searchText';
    values[':search'] = search;
  }
  if (opts.contactId) {
    parts.push('#contactId = :contactId');
    names['#contactId'] = 'contactId';
    values[':contactId'] = opts.contactId;
  }
  if (opts.userId) {
    parts.push('#userId = :userId');
    names['#userId'] = 'userId';
    values[':userId'] = opts.userId;
  }
  const where = { pk: `C#${companyId}`, sk: { beginsWith: 'SCHEDULE#' } };
  const out = await query({
    ...where,
    limit: opts.limit ?? PAGE_SIZE,
    startKey: await decodeCursor(companyId, opts.cursor, where),
    ...(parts.length ? { filter: parts.join(' AND '), filterNames: names, filterValues: values } : {}),
  });
  const result = await page(companyId, await present(out.items), out.lastKey, where);
  return { schedules: result.items, hasMore: result.hasMore, cursor: result.cursor };
}

/** A schedule is only for a contact its author may reach (access.ts assertCanSeeContact). */
export async function createSchedule(
  auth: AuthContext,
  body: { body: string; contactId: number; sendAt: string; cancelIfCustomerWrites?: boolean },
) {
  const contact = await requireContact(auth.companyId, body.contactId);
  await assertCanSeeContact(auth.companyId, auth, contact.id);
  const id = await nextId(companyScope(auth.companyId), 'schedule');
  const now = nowIso();
  const stored: StoredSchedule = {
    id,
    companyId: auth.companyId,
    body: body.body,
    contactId: contact.id,
    sendAt: body.sendAt,
    sentAt: null,
    status: 'PENDENTE',
    mediaPath: null,
    mediaName: null,
    mediaMimetype: null,
    userId: auth.userId,
    ticketId: null,
    cancelIfCustomerWrites: body.cancelIfCustomerWrites ?? false,
    createdAt: now,
    updatedAt: now,
    armedAt: now,
    searchText: searchText(body.body, contact.name),
  };
  await putItem(scheduleItem(stored), { ifNotExists: true });
  const out = await presentOne(scheduleItem(stored));
  await announce(auth.companyId, out, 'create');
  return out;
}

/** Only the schedule's author or an admin changes or deletes it; others get it as if it did not exist. */
async function requireOwnSchedule(auth: Pick<AuthContext, 'companyId' | 'userId' | 'profile'>, id: number) {
  const s = await requireSchedule(auth.companyId, id);
  if (s.userId !== auth.userId && !can(auth.profile, 'drawer-admin-items:view'))
    throw new AppError('ERR_NO_PERMISSION');
  return s;
}

const alreadySent = () => new AppError('ERR_VALIDATION', 400, [{ path: ['sentAt'], message: 'already sent' }]);
/** Editable while not sent and not being sent: waiting, failed or canceled (an edit re-arms those). */
const EDITABLE_STATUSES = ['PENDENTE', 'ERRO', 'CANCELADA'];
const EDITABLE = {
  condition: 'attribute_exists(pk) AND attribute_type(#sentAt, :nullType) AND #status IN (:pending, :error, :canceled)',
  conditionNames: { '#sentAt': 'sentAt', '#status': 'status' },
  conditionValues: { ':nullType': 'NULL', ':pending': 'PENDENTE', ':error': 'ERRO', ':canceled': 'CANCELADA' },
};

async function updateUnsent(
  companyId: number,
  current: StoredSchedule,
  set: Record<string, unknown>,
  remove: string[] = [],
) {
  const sendAt = (set.sendAt as string | undefined) ?? current.sendAt;
  // Every edit puts the schedule back on the due index as PENDENTE (a failed or canceled one is
  // tried again) and re-arms "cancel if the customer writes first" from now.
  const now = nowIso();
  const updated = await updateItem(scheduleKeys(companyId, current.id), {
    set: { ...set, status: 'PENDENTE', ...dueIndex(companyId, current.id, sendAt), updatedAt: now, armedAt: now },
    remove: [...remove, 'error', 'sendingAt', 'cancelReason', 'canceledAt'],
    ...EDITABLE,
  });
  if (!updated) {
    if (!(await getStoredSchedule(companyId, current.id))) throw new AppError('ERR_NOT_FOUND');
    throw alreadySent();
  }
  const out = await presentOne(updated);
  await announce(companyId, out, 'update');
  return { out, stored: toStoredSchedule(updated) };
}

function assertEditable(s: StoredSchedule) {
  if (s.sentAt || !EDITABLE_STATUSES.includes(s.status)) throw alreadySent();
}

/** Editing is allowed only while sentAt is empty (attendance.md 5; management.md "Schedule"). */
export async function updateSchedule(
  auth: Pick<AuthContext, 'companyId' | 'userId' | 'profile'>,
  id: number,
  body: { body?: string; contactId?: number; sendAt?: string; cancelIfCustomerWrites?: boolean },
) {
  const { companyId } = auth;
  const current = await requireOwnSchedule(auth, id);
  assertEditable(current);
  const contact = await requireContact(companyId, body.contactId ?? current.contactId);
  await assertCanSeeContact(companyId, auth, contact.id);
  const text = body.body ?? current.body;
  const { out } = await updateUnsent(companyId, current, {
    ...body,
    contactId: contact.id,
    searchText: searchText(text, contact.name),
  });
  return out;
}

export async function deleteSchedule(auth: Pick<AuthContext, 'companyId' | 'userId' | 'profile'>, id: number) {
  const { companyId } = auth;
  const current = await requireOwnSchedule(auth, id);
  await deleteItem(scheduleKeys(companyId, id));
  if (current.mediaPath) await deleteObject(current.mediaPath);
  await publish(companyId, 'schedule', { action: 'delete', scheduleId: id });
}

/** Schedule media: png, jpg or jpeg only (attendance.md 5), while unsent. */
export async function attachScheduleMedia(
  auth: Pick<AuthContext, 'companyId' | 'userId' | 'profile'>,
  id: number,
  file: UploadedFile,
) {
  const { companyId } = auth;
  const extension = file.fileName.split('.').pop()?.toLowerCase() ?? '';
  if (!(SCHEDULE_MEDIA_EXTENSIONS as readonly string[]).includes(extension)) {
    throw new AppError('ERR_VALIDATION', 400, [
      { path: ['file'], message: 'invalid', allowed: SCHEDULE_MEDIA_EXTENSIONS },
    ]);
  }
  const current = await requireOwnSchedule(auth, id);
  assertEditable(current);
  // the upload policy checks the bytes really are a png or jpeg image
  const { key, mimetype } = await storeUpload(companyId, 'schedules', { ...file, mimetype: '' });
  try {
    const { out } = await updateUnsent(companyId, current, {
      mediaPath: key,
      mediaName: file.fileName,
      mediaMimetype: mimetype,
    });
    if (current.mediaPath) await deleteObject(current.mediaPath);
    return out;
  } catch (err) {
    await deleteObject(key);
    throw err;
  }
}

export async function removeScheduleMedia(auth: Pick<AuthContext, 'companyId' | 'userId' | 'profile'>, id: number) {
  const { companyId } = auth;
  const current = await requireOwnSchedule(auth, id);
  assertEditable(current);
  const { out } = await updateUnsent(companyId, current, { mediaPath: null, mediaName: null, mediaMimetype: null });
  if (current.mediaPath) await deleteObject(current.mediaPath);
  return out;
}

/**
 * A contact's schedules, page by page. Schedules have no index by contact: the company's schedules
 * are read and filtered by contact (only a contact merge asks, an admin's rare action; no list
 * screen pays for an index).
 */
export async function* contactSchedulePages(
  companyId: number,
  contactId: number,
  projection?: string[],
): AsyncGenerator<Item[]> {
  let startKey: Item | undefined;
  do {
    const page = await query({
      pk: `C#${companyId}`,
      sk: { beginsWith: 'SCHEDULE#' },
      startKey,
      filter: '#c = :c',
      filterNames: { '#c': 'contactId' },
      filterValues: { ':c': contactId },
      ...(projection ? { projection } : {}),
    });
    yield page.items;
    startKey = page.lastKey;
  } while (startKey);
}

/**
 * A contact merge: the contact's schedules name the kept contact (and search by its name). Each
 * move is conditional on the old contact, with `extra()` in its transaction (the merge record's count), so a retry moves the rest.
 */
export async function moveContactSchedules(
  companyId: number,
  fromContactId: number,
  to: Contact,
  hooks: { extra?: (n: number) => TransactItem[]; onMoved?: (n: number) => void } = {},
): Promise<number> {
  let moved = 0;
  for await (const items of contactSchedulePages(companyId, fromContactId)) {
    for (const item of items) {
      const s = toStoredSchedule(item);
      try {
        await transact([
          updateTx(scheduleKeys(companyId, s.id), {
            set: { contactId: to.id, searchText: searchText(s.body, to.name) },
            condition: 'contactId = :from',
            conditionValues: { ':from': fromContactId },
          }),
          ...(hooks.extra?.(1) ?? []),
        ]);
      } catch (err) {
        // moved or deleted meanwhile
        if (err instanceof AppError && err.code === 'ERR_CONFLICT') continue;
        throw err;
      }
      moved += 1;
      hooks.onMoved?.(1);
    }
  }
  return moved;
}
