import { MAX_NOTES_PER_TICKET } from '#shared/constants';
import type { TicketNote } from '#shared/schemas/messages';
import { can } from '#shared/permissions';
import { AppError } from '../errors';
import { deleteItem, deleteTx, putItem, putTx, query, queryAll, stripKeys, transact, type TransactItem } from '../db';
import { companyScope, counterTx, nextId } from '../ids';
import { nowIso, pad } from '../keys';
import { getUser } from '../accounts/users';
import { requireContact } from '../contacts/repo';
import { requireStoredTicket } from '../tickets/repo';
import { assertCanSee, type Actor } from '../tickets/access';
import { publishToTicket } from '../tickets/events';

/**
 * A ticket note: pk `C#<cid>#NOTES#<contactId>`, sk `N#<pad(ticketId)>#<pad(id)>`, so the drawer's
 * list (a contact's notes, optionally of one ticket) is one Query, newest first; gsi1
 * `C#<cid>#NOTE#<id>` / `N` finds a note by id for DELETE.
 */
export const notesPk = (companyId: number, contactId: number) => `C#${companyId}#NOTES#${contactId}`;
const noteKeys = (n: Pick<TicketNote, 'companyId' | 'contactId' | 'ticketId' | 'id'>) => ({
  pk: notesPk(n.companyId, n.contactId),
  sk: `N#${pad(n.ticketId)}#${pad(n.id)}`,
});
const noteIndex = (companyId: number, id: number) => `C#${companyId}#NOTE#${id}`;
/** The count of people's notes on a ticket (MAX_NOTES_PER_TICKET), moved in the note's own transaction. */
const peopleNotesTx = (companyId: number, ticketId: number, delta: number) =>
  counterTx(companyScope(companyId), `ticketNotes#${pad(ticketId)}`, delta, MAX_NOTES_PER_TICKET);

export async function createNote(
  companyId: number,
  actor: Actor,
  body: { note: string; ticketId: number; contactId: number },
): Promise<TicketNote> {
  const ticket = await requireStoredTicket(companyId, body.ticketId);
  await requireContact(companyId, body.contactId);
  if (ticket.contactId !== body.contactId) throw new AppError('ERR_NO_CONTACT_FOUND');
  await assertCanSee(companyId, actor, ticket);
  const user = await getUser(companyId, actor.userId);
  const note: TicketNote = {
    id: await nextId(companyScope(companyId), 'ticketNote'),
    companyId,
    note: body.note,
    ticketId: body.ticketId,
    contactId: body.contactId,
    userId: actor.userId,
    user: { id: actor.userId, name: user?.name ?? '' },
    createdAt: nowIso(),
  };
  await transact(
    [
      putTx({ ...noteKeys(note), ...note, gsi1pk: noteIndex(companyId, note.id), gsi1sk: 'N' }, true),
      peopleNotesTx(companyId, ticket.id, 1),
    ],
    (index) =>
      index === 1
        ? new AppError('ERR_LIST_LIMIT_REACHED', undefined, { limit: 'notesPerTicket', max: MAX_NOTES_PER_TICKET })
        : new AppError('ERR_CONFLICT'),
  );
  await publishToTicket(companyId, ticket, 'ticketNote', { action: 'create', note, ticketId: ticket.id });
  return note;
}

/**
 * A note the system leaves on a ticket (user id 0, "Sistema"), e.g. why an AI prompt or integration
 * handed the ticket to people. Admins may delete it.
 */
export async function createSystemNote(
  companyId: number,
  ticket: { id: number; contactId: number },
  text: string,
): Promise<TicketNote> {
  const stored = await requireStoredTicket(companyId, ticket.id);
  const note: TicketNote = {
    id: await nextId(companyScope(companyId), 'ticketNote'),
    companyId,
    note: text,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    userId: 0,
    user: { id: 0, name: 'Sistema' },
    createdAt: nowIso(),
  };
  await putItem(
    { ...noteKeys(note), ...note, gsi1pk: noteIndex(companyId, note.id), gsi1sk: 'N' },
    { ifNotExists: true },
  );
  await publishToTicket(companyId, stored, 'ticketNote', { action: 'create', note, ticketId: ticket.id });
  return note;
}

/** The author or an admin may delete a note. */
export async function deleteNote(companyId: number, actor: Actor, id: number) {
  const { items } = await query({ index: 'gsi1', pk: noteIndex(companyId, id), limit: 1 });
  const item = items[0];
  if (!item) throw new AppError('ERR_NOT_FOUND');
  const note = stripKeys(item) as TicketNote;
  if (note.userId !== actor.userId && actor.profile !== 'admin') throw new AppError('ERR_NO_PERMISSION');
  const ticket = await requireStoredTicket(companyId, note.ticketId).catch(() => undefined);
  // a person's note frees its place under the ticket's cap (the system's were never counted)
  if (note.userId === 0) await deleteItem({ pk: item.pk, sk: item.sk });
  else
    await transact([
      deleteTx({ pk: item.pk, sk: item.sk }, 'attribute_exists(pk)'),
      peopleNotesTx(companyId, note.ticketId, -1),
    ]);
  if (ticket)
    await publishToTicket(companyId, ticket, 'ticketNote', { action: 'delete', noteId: id, ticketId: note.ticketId });
}

/** GET /ticket-notes/list: a contact's notes, or one ticket's notes of that contact; newest first. */
export async function listNotes(
  companyId: number,
  actor: Actor,
  f: { contactId: number; ticketId?: number },
): Promise<TicketNote[]> {
  await requireContact(companyId, f.contactId);
  if (f.ticketId) {
    const ticket = await requireStoredTicket(companyId, f.ticketId);
    await assertCanSee(companyId, actor, ticket);
  } else if (!can(actor.profile, 'tickets-manager:showall')) {
    // without a ticket to check visibility against, non-admins read notes of a ticket they can see
    throw new AppError('ERR_VALIDATION', 400, [{ path: ['ticketId'], message: 'required' }]);
  }
  const items = await queryAll({
    pk: notesPk(companyId, f.contactId),
    sk: { beginsWith: f.ticketId ? `N#${pad(f.ticketId)}#` : 'N#' },
    forward: false,
  });
  return items.map((i) => stripKeys(i) as TicketNote);
}

/** Notes per transaction when a contact's notes move (a put and a delete each). */
const MOVE_PAGE = 40;

/**
 * A contact merge: the contact's notes move under the kept contact (same sort key, same id index),
 * a page per transaction; `extra(n)` joins it (the merge record's count). Running it again after a
 * crash moves what is left.
 */
export async function moveContactNotes(
  companyId: number,
  fromContactId: number,
  toContactId: number,
  hooks: { extra?: (n: number) => TransactItem[]; onMoved?: (n: number) => void } = {},
): Promise<number> {
  let moved = 0;
  for (let conflicts = 0; ; ) {
    const page = await query({ pk: notesPk(companyId, fromContactId), sk: { beginsWith: 'N#' }, limit: MOVE_PAGE });
    if (!page.items.length) return moved;
    const items = page.items.flatMap((item) => {
      const note = { ...(stripKeys(item) as TicketNote), contactId: toContactId };
      return [
        putTx({ ...item, ...noteKeys(note), contactId: toContactId }),
        deleteTx({ pk: item.pk, sk: item.sk }, 'attribute_exists(pk)'),
      ];
    });
    try {
      await transact([...items, ...(hooks.extra?.(page.items.length) ?? [])]);
    } catch (err) {
      if (err instanceof AppError && err.code === 'ERR_CONFLICT' && ++conflicts < 8) continue;
      throw err;
    }
    moved += page.items.length;
    hooks.onMoved?.(page.items.length);
  }
}
