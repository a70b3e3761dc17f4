import { emitAutomationEvent } from '../automation/emit';
import type { Tag, TicketTag } from '#shared/schemas/tags';
import { can } from '#shared/permissions';
import { MAX_TAGS_PER_COMPANY, PAGE_SIZE } from '#shared/constants';
import { AppError, notFound } from '../errors';
import { deleteTx, putTx, query, queryAll, transact, updateTx, type TransactItem } from '../db';
import { decodeCursor, page } from '../cursor';
import { companyScope, counterTx, nextId } from '../ids';
import { nowIso } from '../keys';
import { publish } from '../realtime';
import { requireStoredTicket, toTicket } from '../tickets/repo';
import { assertCanSee, assertMayChangeIn, type Actor } from '../tickets/access';
import { mutateTicket } from '../tickets/mutate';
import { publishTicketChange } from '../tickets/events';
import { requireTag, requireTags, tagItem, tagKeys, tagLinkKeys, tagLinksPk, toTag } from './repo';

const DEFAULT_COLOR = '#A4CCCC';

/**
 * The company's tag count, `COUNTER#tags`: raised in the creating transaction on the condition that
 * it stays under MAX_TAGS_PER_COMPANY, lowered in the deleting one (the plan-limit pattern).
 */
const tagsTx = (companyId: number, delta: number) =>
  counterTx(companyScope(companyId), 'tags', delta, MAX_TAGS_PER_COMPANY);

/** The kanban flag is set only by admins and supervisors (management.md 6: permission tags:kanban). */
function checkKanban(actor: Actor, requested: 0 | 1 | undefined, current: 0 | 1) {
  if (requested !== undefined && requested !== current && !can(actor.profile, 'tags:kanban'))
    throw new AppError('ERR_NO_PERMISSION');
}

/**
 * A tag belongs to the user who made it (`userId`): only its owner or an admin edits or deletes
 * it, and only an admin hands a tag to another user. (Supervisors set the kanban flag on any tag.)
 */
function assertMayChange(actor: Actor, tag: Pick<Tag, 'userId'>, newOwner?: number | null) {
  if (can(actor.profile, 'drawer-admin-items:view')) return;
  if (tag.userId !== actor.userId) throw new AppError('ERR_NO_PERMISSION');
  if (newOwner !== undefined && newOwner !== actor.userId) throw new AppError('ERR_NO_PERMISSION');
}

export async function createTag(
  companyId: number,
  actor: Actor,
  body: { name: string; color?: string; kanban?: 0 | 1; userId?: number | null },
): Promise<Tag> {
  checkKanban(actor, body.kanban, 0);
  assertMayChange(actor, { userId: actor.userId }, body.userId);
  const id = await nextId(companyScope(companyId), 'tag');
  const now = nowIso();
  const tag: Tag = {
    id,
    companyId,
    name: body.name,
    color: body.color || DEFAULT_COLOR,
    kanban: body.kanban ?? 0,
    userId: body.userId ?? actor.userId,
    ticketsCount: 0,
    createdAt: now,
    updatedAt: now,
  };
  await transact([putTx(tagItem(tag), true), tagsTx(companyId, 1)], (index) =>
    index === 1
      ? new AppError('ERR_LIST_LIMIT_REACHED', undefined, { limit: 'tagsPerCompany', max: MAX_TAGS_PER_COMPANY })
      : new AppError('ERR_CONFLICT'),
  );
  await publish(companyId, 'tag', { action: 'create', tag });
  return tag;
}

export async function updateTag(
  companyId: number,
  actor: Actor,
  id: number,
  body: { name?: string; color?: string; kanban?: 0 | 1; userId?: number | null },
): Promise<Tag> {
  const before = await requireTag(companyId, id);
  const onlyKanban =
    (body.name ?? before.name) === before.name &&
    (body.color || before.color) === before.color &&
    (body.userId === undefined || body.userId === before.userId);
  if (!(onlyKanban && can(actor.profile, 'tags:kanban'))) assertMayChange(actor, before, body.userId);
  checkKanban(actor, body.kanban, before.kanban);
  const after: Tag = {
    ...before,
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.color ? { color: body.color } : {}),
    ...(body.kanban !== undefined ? { kanban: body.kanban } : {}),
    ...(body.userId !== undefined ? { userId: body.userId } : {}),
    updatedAt: nowIso(),
  };
  // ticketsCount moves with ticket writes: never overwrite it from this read
  await transact([
    updateTx(tagKeys(companyId, id), {
      set: {
        name: after.name,
        nameLower: after.name.toLowerCase(),
        color: after.color,
        kanban: after.kanban,
        userId: after.userId,
        updatedAt: after.updatedAt,
      },
      condition: 'attribute_exists(pk)',
    }),
  ]);
  if (after.name !== before.name || after.color !== before.color)
    await refreshTagOnTickets(companyId, id, (tags) =>
      tags.map((t) => (t.id === id ? { id, name: after.name, color: after.color } : t)),
    );
  await publish(companyId, 'tag', { action: 'update', tag: after });
  return after;
}

export async function deleteTag(companyId: number, actor: Actor, id: number) {
  assertMayChange(actor, await requireTag(companyId, id));
  await refreshTagOnTickets(companyId, id, (tags) => tags.filter((t) => t.id !== id), true);
  await transact([deleteTx(tagKeys(companyId, id), 'attribute_exists(pk)'), tagsTx(companyId, -1)], () => notFound());
  await publish(companyId, 'tag', { action: 'delete', tagId: id });
}

/** Applies a chip change to every ticket linked to the tag (one Query on the links per page). */
async function refreshTagOnTickets(
  companyId: number,
  tagId: number,
  change: (tags: TicketTag[]) => TicketTag[],
  unlink = false,
) {
  const links = await queryAll<{ ticketId: number }>({ pk: tagLinksPk(companyId, tagId), sk: { beginsWith: 'T#' } });
  for (const link of links) {
    try {
      const { before, after, changed } = await mutateTicket(
        companyId,
        link.ticketId,
        (t) => {
          const tags = change(t.tags);
          return { ...t, tags, tagIds: tags.map((x) => x.id) };
        },
        { extra: () => (unlink ? [deleteTx(tagLinkKeys(companyId, tagId, link.ticketId))] : []) },
      );
      if (changed) await publishTicketChange(companyId, before, toTicket(after));
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'ERR_NO_TICKET_FOUND')) throw err;
      if (unlink) await transact([deleteTx(tagLinkKeys(companyId, tagId, link.ticketId))]);
    }
  }
}

/** GET /tags: search by name (case-insensitive), cursor paging; one Query on the tag range. */
export async function listTags(companyId: number, f: { searchParam?: string; cursor?: string; limit?: number }) {
  const term = f.searchParam?.trim().toLowerCase();
  const where = { pk: `C#${companyId}`, sk: { beginsWith: 'TAG#' } };
  const out = await query({
    ...where,
    limit: f.limit ?? PAGE_SIZE,
    startKey: await decodeCursor(companyId, f.cursor, where),
    ...(term ? { filter: 'contains(#n, :q)', filterNames: { '#n': 'nameLower' }, filterValues: { ':q': term } } : {}),
  });
  const paged = await page(companyId, out.items.map(toTag), out.lastKey, where);
  return { tags: paged.items, hasMore: paged.hasMore, cursor: paged.cursor };
}

export async function allTags(companyId: number, onlyKanban = false): Promise<Tag[]> {
  const items = await queryAll({
    pk: `C#${companyId}`,
    sk: { beginsWith: 'TAG#' },
    ...(onlyKanban ? { filter: '#k = :one', filterNames: { '#k': 'kanban' }, filterValues: { ':one': 1 } } : {}),
  });
  return items.map(toTag).sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Sets a ticket's tags to exactly `tagIds` (POST /tags/sync, ticket-tags calls, the kanban move).
 * Links and ticketsCount change in the ticket's own transaction.
 */
export async function setTicketTags(companyId: number, actor: Actor | null, ticketId: number, tagIds: number[]) {
  const current = await requireStoredTicket(companyId, ticketId);
  // null: the system (an automation rule's action)
  if (actor) {
    await assertCanSee(companyId, actor, current);
    await assertMayChangeIn(companyId, actor, current);
  }
  const wanted = [...new Set(tagIds)];
  const tags = await requireTags(companyId, wanted);
  const { before, after, changed } = await mutateTicket(
    companyId,
    ticketId,
    (t) => {
      const same = t.tagIds.length === wanted.length && wanted.every((id) => t.tagIds.includes(id));
      return same
        ? null
        : { ...t, tags: tags.map((x) => ({ id: x.id, name: x.name, color: x.color })), tagIds: wanted };
    },
    {
      extra: (b) => {
        const items: TransactItem[] = [];
        for (const id of wanted.filter((id) => !b.tagIds.includes(id))) {
          items.push(putTx({ ...tagLinkKeys(companyId, id, ticketId), ticketId, tagId: id }));
          items.push(updateTx(tagKeys(companyId, id), { add: { ticketsCount: 1 }, condition: 'attribute_exists(pk)' }));
        }
        for (const id of b.tagIds.filter((id) => !wanted.includes(id))) {
          items.push(deleteTx(tagLinkKeys(companyId, id, ticketId)));
          items.push(
            updateTx(tagKeys(companyId, id), { add: { ticketsCount: -1 }, condition: 'attribute_exists(pk)' }),
          );
        }
        return items;
      },
      mapConflict: () => new AppError('ERR_NOT_FOUND'),
    },
  );
  const ticket = toTicket(after);
  if (changed) {
    await publishTicketChange(companyId, before, ticket);
    for (const id of new Set([...before.tagIds, ...wanted])) {
      const tag = await requireTag(companyId, id).catch(() => undefined);
      if (tag) await publish(companyId, 'tag', { action: 'update', tag });
    }
    for (const tagId of wanted.filter((id) => !before.tagIds.includes(id)))
      await emitAutomationEvent(companyId, { type: 'tag_added', ticketId, tagId });
  }
  return ticket;
}

export async function addTicketTag(companyId: number, actor: Actor, ticketId: number, tagId: number) {
  const t = await requireStoredTicket(companyId, ticketId);
  return setTicketTags(companyId, actor, ticketId, [...(t.tagIds ?? []), tagId]);
}

export async function clearTicketTags(companyId: number, actor: Actor, ticketId: number) {
  return setTicketTags(companyId, actor, ticketId, []);
}
