import { MAX_QUICK_MESSAGES_PER_USER, PAGE_SIZE } from '#shared/constants';
import type { QuickMessage } from '#shared/schemas/quick-messages';
import type { Audience } from '#shared/events';
import type { AuthContext } from '../auth';
import { AppError } from '../errors';
import { deleteTx, getItem, putTx, query, queryAll, stripKeys, transact, updateItem, type Item } from '../db';
import { companyScope, counterTx, nextId } from '../ids';
import { nowIso, pad } from '../keys';
import { decodeCursor, page } from '../cursor';
import { publish } from '../realtime';
import { acceptStoredUpload, copyObject, deleteObject, presignGet, storeUpload } from '../storage';
import { isAdmin } from '../users/service';
import type { UploadedFile } from '../multipart';
import type { Ticket } from '#shared/schemas/tickets';
import { fillVariables, protocolOf } from '#shared/message-variables';
import { getContact } from '../contacts/repo';
import { contactFieldsFor } from '../custom-fields/variables';

/**
 * A quick message: pk `C#<cid>`, sk `QUICKMSG#<pad(id)>`. `geral` ones are shared with the whole
 * company; the others belong to `userId` (admins see and manage all). `searchText` (shortcode and
 * message, lower case) lets the list search inside its one Query.
 */
export const quickMessageKeys = (companyId: number, id: number) => ({
  pk: `C#${companyId}`,
  sk: `QUICKMSG#${pad(id)}`,
});
/**
 * How many quick messages each user created, `COUNTER#quickMessages#<userId>` in the company: raised
 * in the creating transaction on the condition that it stays under the cap, lowered by deletions
 * (the plan-limit pattern, accounts/plan-limits.ts). It counts the owner's, whoever deletes them.
 */
const ownedCounter = (userId: number) => `quickMessages#${userId}`;
const ownedTx = (companyId: number, userId: number, delta: number) =>
  counterTx(companyScope(companyId), ownedCounter(userId), delta, MAX_QUICK_MESSAGES_PER_USER);

const searchText = (shortcode: string, message: string) => `${shortcode} ${message}`.toLowerCase();

const toQuickMessage = (item: Item): QuickMessage => {
  const { searchText: _s, ...rest } = stripKeys(item) as QuickMessage & { searchText?: string };
  return rest;
};

async function present(q: QuickMessage): Promise<QuickMessage> {
  return q.mediaPath ? { ...q, mediaUrl: await presignGet(q.companyId, q.mediaPath) } : q;
}

const mayRead = (auth: AuthContext, q: QuickMessage) => q.geral || q.userId === auth.userId || isAdmin(auth);
const mayWrite = (auth: AuthContext, q: QuickMessage) => q.userId === auth.userId || isAdmin(auth);

/** Shared ones go to the company; a private one only to its owner and the admins. */
async function announce(
  q: QuickMessage,
  data: { action: 'create' | 'update' } | { action: 'delete' },
  ownerIsAdmin: boolean,
) {
  const payload =
    data.action === 'delete'
      ? { action: 'delete' as const, id: q.id }
      : { action: data.action, record: await present(q) };
  const audiences: Audience[] = q.geral
    ? [{ kind: 'company' }]
    : ownerIsAdmin
      ? [{ kind: 'admins' }]
      : [{ kind: 'user', userId: q.userId }, { kind: 'admins' }];
  for (const audience of audiences) await publish(q.companyId, 'quickMessage', payload, audience);
}

async function load(companyId: number, id: number): Promise<QuickMessage | undefined> {
  const item = await getItem(quickMessageKeys(companyId, id));
  return item ? toQuickMessage(item) : undefined;
}

/** Reads one the caller may see; others' private ones are as absent as other companies' (404). */
export async function requireQuickMessage(auth: AuthContext, id: number, write = false): Promise<QuickMessage> {
  const q = await load(auth.companyId, id);
  if (!q || !mayRead(auth, q)) throw new AppError('ERR_NOT_FOUND');
  if (write && !mayWrite(auth, q)) throw new AppError('ERR_NO_PERMISSION');
  return q;
}

export const getQuickMessage = async (auth: AuthContext, id: number) => present(await requireQuickMessage(auth, id));

/**
 * The media of a quick reply the caller may use, copied for one message (the quick reply may later
 * lose or replace its file; the sent message keeps its own). Undefined for a text-only quick reply.
 */
/**
 * A chosen quick message's text as sent in a ticket: its message variables filled for the ticket's
 * contact (`{{name}}`, `{{firstName}}`, `{{ms}}`, `{{protocol}}`, `{{date}}`, `{{hora}}` and the contact's
 * custom fields `{{contact.<key>}}`), since the attendant chose it rather than typed it.
 */
export async function quickMessageText(companyId: number, ticket: Pick<Ticket, 'id' | 'contactId'>, text: string) {
  if (!/\{\{/.test(text)) return text;
  const contact = await getContact(companyId, ticket.contactId);
  const now = new Date();
  return fillVariables(text, {
    contactName: contact?.name ?? '',
    now,
    protocol: protocolOf(now, ticket.id),
    contactFields: contact && (await contactFieldsFor(companyId, contact, text)),
  });
}

export async function quickMessageMedia(auth: AuthContext, id: number) {
  const q = await requireQuickMessage(auth, id);
  if (!q.mediaPath) return undefined;
  const fileName = q.mediaName ?? q.mediaPath.split('/').pop() ?? 'file';
  const key = await copyObject(auth.companyId, q.mediaPath, 'media', fileName);
  const { mimetype } = await acceptStoredUpload(auth.companyId, key, fileName);
  return { key, mimetype, fileName };
}

/** Whose messages a list shows: admins may name a user; everyone else gets their own plus the shared ones. */
function visibility(auth: AuthContext, userId?: number) {
  if (isAdmin(auth) && userId === undefined) return undefined;
  const owner = isAdmin(auth) ? userId! : auth.userId;
  return {
    filter: '(#geral = :true OR #userId = :owner)',
    names: { '#geral': 'geral', '#userId': 'userId' },
    values: { ':true': true, ':owner': owner },
  };
}

function filters(auth: AuthContext, opts: { searchParam?: string; userId?: number }) {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const visible = visibility(auth, opts.userId);
  if (visible) {
    parts.push(visible.filter);
    Object.assign(names, visible.names);
    Object.assign(values, visible.values);
  }
  const search = opts.searchParam?.trim().toLowerCase();
  if (search) {
    parts.push('contains(#search, :search)');
    names['#search'] = 'searchText';
    values[':search'] = search;
  }
  return parts.length ? { filter: parts.join(' AND '), filterNames: names, filterValues: values } : {};
}

/** The quick messages page: `{ records, hasMore, cursor }`, one Query per page. */
export async function listQuickMessagesPage(
  auth: AuthContext,
  opts: { searchParam?: string; userId?: number; cursor?: string; limit?: number },
) {
  const where = { pk: `C#${auth.companyId}`, sk: { beginsWith: 'QUICKMSG#' } };
  const out = await query({
    ...where,
    limit: opts.limit ?? PAGE_SIZE,
    startKey: await decodeCursor(auth.companyId, opts.cursor, where),
    ...filters(auth, opts),
  });
  const result = await page(
    auth.companyId,
    await Promise.all(out.items.map((i) => present(toQuickMessage(i)))),
    out.lastKey,
    where,
  );
  return { records: result.items, hasMore: result.hasMore, cursor: result.cursor };
}

/** The composer's `/` list: shared ones plus the user's own, ordered by shortcode. */
export async function listQuickMessagesFor(auth: AuthContext, userId?: number): Promise<QuickMessage[]> {
  const owner = isAdmin(auth) ? (userId ?? auth.userId) : auth.userId;
  const items = await queryAll({
    pk: `C#${auth.companyId}`,
    sk: { beginsWith: 'QUICKMSG#' },
    filter: '(#geral = :true OR #userId = :owner)',
    filterNames: { '#geral': 'geral', '#userId': 'userId' },
    filterValues: { ':true': true, ':owner': owner },
  });
  const list = await Promise.all(items.map((i) => present(toQuickMessage(i))));
  return list.sort((a, b) => a.shortcode.localeCompare(b.shortcode));
}

export async function createQuickMessage(
  auth: AuthContext,
  body: { shortcode: string; message?: string; geral?: boolean; status?: string },
) {
  const id = await nextId(companyScope(auth.companyId), 'quickMessage');
  const now = nowIso();
  const q: QuickMessage = {
    id,
    companyId: auth.companyId,
    userId: auth.userId,
    shortcode: body.shortcode,
    message: body.message ?? '',
    geral: body.geral ?? false,
    ...(body.status !== undefined ? { status: body.status } : {}),
    mediaPath: null,
    mediaName: null,
    isMedia: false,
    createdAt: now,
    updatedAt: now,
  };
  await transact(
    [
      putTx({ ...quickMessageKeys(auth.companyId, id), ...q, searchText: searchText(q.shortcode, q.message) }, true),
      ownedTx(auth.companyId, auth.userId, 1),
    ],
    (index) =>
      index === 1
        ? new AppError('ERR_LIST_LIMIT_REACHED', undefined, {
            limit: 'quickMessagesPerUser',
            max: MAX_QUICK_MESSAGES_PER_USER,
          })
        : new AppError('ERR_CONFLICT'),
  );
  await announce(q, { action: 'create' }, isAdmin(auth));
  return present(q);
}

async function save(auth: AuthContext, current: QuickMessage, set: Record<string, unknown>, remove: string[] = []) {
  const shortcode = (set.shortcode as string | undefined) ?? current.shortcode;
  const message = (set.message as string | undefined) ?? current.message;
  const updated = await updateItem(quickMessageKeys(auth.companyId, current.id), {
    set: { ...set, searchText: searchText(shortcode, message), updatedAt: nowIso() },
    remove,
    condition: 'attribute_exists(pk)',
  });
  if (!updated) throw new AppError('ERR_NOT_FOUND');
  const q = toQuickMessage(updated);
  // A message that stopped being shared is withdrawn from everyone else's lists.
  if (current.geral && !q.geral) await publish(auth.companyId, 'quickMessage', { action: 'delete', id: q.id });
  await announce(q, { action: 'update' }, q.userId === auth.userId ? isAdmin(auth) : false);
  return present(q);
}

export async function updateQuickMessage(
  auth: AuthContext,
  id: number,
  body: { shortcode?: string; message?: string; geral?: boolean; status?: string },
) {
  const current = await requireQuickMessage(auth, id, true);
  return save(auth, current, { ...body });
}

export async function deleteQuickMessage(auth: AuthContext, id: number) {
  const q = await requireQuickMessage(auth, id, true);
  await transact(
    [deleteTx(quickMessageKeys(auth.companyId, id), 'attribute_exists(pk)'), ownedTx(auth.companyId, q.userId, -1)],
    () => new AppError('ERR_NOT_FOUND'),
  );
  if (q.mediaPath) await deleteObject(q.mediaPath);
  await announce(q, { action: 'delete' }, q.userId === auth.userId ? isAdmin(auth) : false);
}

/** Stores the uploaded file under the tenant prefix and points the message at it (replacing any previous media). */
export async function attachQuickMessageMedia(auth: AuthContext, id: number, file: UploadedFile) {
  const current = await requireQuickMessage(auth, id, true);
  const { key } = await storeUpload(auth.companyId, 'quickMessage', file);
  const saved = await save(auth, current, { mediaPath: key, mediaName: file.fileName, isMedia: true });
  if (current.mediaPath) await deleteObject(current.mediaPath);
  return saved;
}

export async function removeQuickMessageMedia(auth: AuthContext, id: number) {
  const current = await requireQuickMessage(auth, id, true);
  const saved = await save(auth, current, { mediaPath: null, mediaName: null, isMedia: false });
  if (current.mediaPath) await deleteObject(current.mediaPath);
  return saved;
}
