import { randomUUID } from 'node:crypto';
import type { Ticket, OtherOpenTicket } from '#shared/schemas/tickets';
import type { Contact } from '#shared/schemas/contacts';
import type { User } from '#shared/schemas/accounts';
import { SETTING_DEFAULTS } from '#shared/constants';
import { AppError } from '../errors';
import { batchGet, deleteTx, getItem, putTx, query, transact, type TransactItem, type Item } from '../db';
import { companyScope, nextId } from '../ids';
import { nowIso, pad } from '../keys';
import { log } from '../log';
import { settingKeys, settingValue } from '../settings';
import { getUser, toUser, userKeys } from '../accounts/users';
import { getQueue } from '../queues/repo';
import { getWhatsapp, getDefaultWhatsapp } from '../whatsapp/repo';
import { requireContact } from '../contacts/repo';
import { bumpDay, bumpDays, dayOf, hourOf, userFields } from '../dashboard/aggregates';
import { agentChangeFields, resolvedByAtClose } from '../dashboard/agent';
import {
  getStoredTicket,
  isActive,
  openGuardKeys,
  requireStoredTicket,
  roundKeys,
  ticketIndex,
  ticketKeys,
  ticketPutTx,
  toStored,
  toTicket,
  uuidKeys,
  type StoredTicket,
} from './repo';
import { applyTransition, type TicketChanges, type TransitionKind } from './transitions';
import { publishTicketChange, publishToTicket } from './events';
import { listCountTx, type AssignCheck } from './counts';
import { isAdmin, assertCanSee, assertMayChange, assertMayChangeIn, type Actor } from './access';
import { mutateTicket } from './mutate';
import { sendMessage } from '../messages/send';
import { onTicketClosed } from '../chatbot/rating';
import { notifyPendingTicket } from '../push/notify';
import { afterSlaChange, startSlaClock } from '../sla/clock';
import { lockHolder } from '#shared/presence';
import { createSystemNote } from '../notes/service';
import { auditBy, type AuditActor } from '../audit/actor';

export type { Ticket, TicketChanges };

/** A stored ticket before and after a change (before null: created; after null: deleted). */
export type TicketMoveHandler = (
  companyId: number,
  before: StoredTicket | null,
  after: StoredTicket | null,
) => Promise<void>;

const moveHandlers: TicketMoveHandler[] = [];

/**
 * Registers a handler run after every ticket change is stored and published (automatic assignment,
 * tickets/assignment.ts, registers itself when it loads: it hands tickets out through `updateTicket`,
 * so this module does not import it). Every entry point loads it (functions/lib/startup.ts).
 */
export function onTicketMoved(handler: TicketMoveHandler) {
  moveHandlers.push(handler);
}

async function ticketMoved(companyId: number, before: StoredTicket | null, after: StoredTicket | null) {
  for (const handler of moveHandlers) await handler(companyId, before, after);
}

export async function getTicket(companyId: number, id: number): Promise<Ticket | undefined> {
  const stored = await getStoredTicket(companyId, id);
  return stored ? toTicket(stored) : undefined;
}

export async function getTicketByUuid(companyId: number, uuid: string): Promise<Ticket | undefined> {
  const pointer = await getItem<{ ticketId: number }>(uuidKeys(companyId, uuid));
  return pointer ? getTicket(companyId, pointer.ticketId) : undefined;
}

async function userSnap(companyId: number, userId: number | null, known?: Preread) {
  if (userId === null) return null;
  const user = known?.users.get(userId) ?? (await getUser(companyId, userId));
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  return { id: user.id, name: user.name };
}
async function queueSnap(companyId: number, queueId: number | null) {
  if (queueId === null) return null;
  const queue = await getQueue(companyId, queueId);
  if (!queue) throw new AppError('ERR_VALIDATION', 400, [{ path: ['queueId'], message: 'invalid' }]);
  return { id: queue.id, name: queue.name, color: queue.color };
}
async function whatsappSnap(companyId: number, whatsappId: number) {
  const w = await getWhatsapp(companyId, whatsappId);
  if (!w) throw new AppError('ERR_NO_WAPP_FOUND');
  return { id: w.id, name: w.name };
}
const contactSnap = (c: Contact) => ({
  id: c.id,
  name: c.name,
  number: c.number,
  profilePicUrl: c.profilePicUrl,
  isGroup: c.isGroup,
});

/** ERR_OTHER_OPEN_TICKET with the holding ticket's user and queue (attendance.md 8). */
async function otherOpenTicket(companyId: number, contactId: number, whatsappId: number): Promise<AppError> {
  const guard = await getItem<{ ticketId: number }>(openGuardKeys(companyId, contactId, whatsappId));
  const holder = guard ? await getStoredTicket(companyId, guard.ticketId) : undefined;
  const details: OtherOpenTicket | undefined = holder
    ? {
        ticket: {
          id: holder.id,
          uuid: holder.uuid,
          user: holder.user,
          queue: holder.queue ? { id: holder.queue.id, name: holder.queue.name } : null,
        },
      }
    : undefined;
  return new AppError('ERR_OTHER_OPEN_TICKET', undefined, details);
}

function newTicket(
  companyId: number,
  id: number,
  fields: Pick<
    StoredTicket,
    'status' | 'userId' | 'user' | 'queueId' | 'queue' | 'whatsappId' | 'whatsapp' | 'contactId' | 'contact' | 'isGroup'
  > &
    Partial<Pick<StoredTicket, 'customerMessageAt'>>,
): StoredTicket {
  const now = nowIso();
  return {
    id,
    uuid: randomUUID(),
    companyId,
    ...fields,
    lastMessage: '',
    unreadMessages: 0,
    chatbot: false,
    useIntegration: false,
    promptId: null,
    integrationId: null,
    tags: [],
    tagIds: [],
    queuedAt: now,
    startedAt: fields.status === 'open' ? now : null,
    finishedAt: null,
    rating: null,
    ratingAt: null,
    createdAt: now,
    updatedAt: now,
    createdDay: dayOf(now),
    round: 1,
    version: 1,
  };
}

/**
 * Writes a new ticket with its open guard, uuid pointer and list counters; the guard makes a second
 * one fail. A transaction that met another on the counters' item is tried again.
 */
async function insertTicket(ticket: StoredTicket) {
  await startSlaClock(null, ticket, ticket.createdAt);
  await retryOnConflict(() =>
    transact(
      [
        putTx({ ...openGuardKeys(ticket.companyId, ticket.contactId, ticket.whatsappId), ticketId: ticket.id }, true),
        ticketPutTx(ticket, null),
        putTx({ ...uuidKeys(ticket.companyId, ticket.uuid), ticketId: ticket.id }),
        ...listCountTx(null, ticket),
      ],
      () => new AppError('ERR_OTHER_OPEN_TICKET'),
    ),
  );
  await Promise.all([
    bumpDay(ticket.companyId, ticket.createdDay, {
      tickets: 1,
      [hourOf(ticket.createdAt)]: 1,
      [ticket.status]: 1,
      ...(ticket.userId !== null ? userFields(ticket.userId, { tickets: 1 }) : {}),
    }),
    afterSlaChange(null, ticket),
  ]);
  await publishTicketChange(ticket.companyId, null, toTicket(ticket), 'update');
  await notifyPendingTicket(ticket.companyId, null, ticket);
  await ticketMoved(ticket.companyId, null, ticket);
}

/**
 * The open or pending ticket of a contact on a connection, or a new pending one. Safe under
 * concurrency: the guard item lets one creator win; the others read the winner's ticket.
 */
export async function findOrCreateTicket(
  companyId: number,
  input: { contactId: number; whatsappId: number; isGroup: boolean; fromMe: boolean; queueId?: number | null },
  /** the guarded ticket the caller already read (null: no guard), for the first attempt */
  known?: StoredTicket | null,
): Promise<{ ticket: Ticket; created: boolean }> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const held = attempt === 0 && known !== undefined ? known : await guardedTicket(companyId, input);
    // the stored ticket (with its version) spares the message store a re-read before its transaction
    if (held && isActive(held.status)) return { ticket: held, created: false };
    const [contact, whatsapp, queue] = await Promise.all([
      requireContact(companyId, input.contactId),
      whatsappSnap(companyId, input.whatsappId),
      queueSnap(companyId, input.queueId ?? null),
    ]);
    const id = await nextId(companyScope(companyId), 'ticket');
    const ticket = newTicket(companyId, id, {
      status: 'pending',
      userId: null,
      user: null,
      queueId: queue?.id ?? null,
      queue,
      whatsappId: input.whatsappId,
      whatsapp,
      contactId: contact.id,
      contact: contactSnap(contact),
      isGroup: input.isGroup || contact.isGroup,
    });
    try {
      await insertTicket(ticket);
      return { ticket: toTicket(ticket), created: true };
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'ERR_OTHER_OPEN_TICKET') throw err;
      // a concurrent message created it: the next turn reads that one
    }
  }
  throw new AppError('ERR_CREATING_TICKET');
}

async function guardedTicket(companyId: number, input: { contactId: number; whatsappId: number }) {
  const guard = await getItem<{ ticketId: number }>(openGuardKeys(companyId, input.contactId, input.whatsappId));
  return guard ? getStoredTicket(companyId, guard.ticketId) : undefined;
}

/**
 * POST /tickets (new ticket modal, attendance.md 2.7): created open for the chosen user (others than
 * oneself only by admins); a queue is required unless admin; one open-or-pending ticket per contact
 * and connection.
 */
export async function createTicketByUser(
  companyId: number,
  actor: Actor,
  body: { contactId: number; queueId?: number | null; whatsappId?: number | null; userId?: number | null },
): Promise<Ticket> {
  const admin = isAdmin(actor);
  const me = await getUser(companyId, actor.userId);
  if (!admin && !body.queueId) throw new AppError('ERR_VALIDATION', 400, [{ path: ['queueId'], message: 'required' }]);
  if (!admin && body.queueId && !me?.queueIds.includes(body.queueId)) throw new AppError('ERR_NO_PERMISSION');
  // only admins open a ticket in someone else's name
  if (!admin && body.userId != null && body.userId !== actor.userId) throw new AppError('ERR_NO_PERMISSION');
  const contact = await requireContact(companyId, body.contactId);
  const whatsappId = body.whatsappId ?? me?.whatsappId ?? (await getDefaultWhatsapp(companyId)).id;
  const userId = body.userId ?? actor.userId;
  const [whatsapp, queue, user] = await Promise.all([
    whatsappSnap(companyId, whatsappId),
    queueSnap(companyId, body.queueId ?? null),
    userSnap(companyId, userId),
  ]);
  const [id, customerMessageAt] = await Promise.all([
    nextId(companyScope(companyId), 'ticket'),
    lastCustomerMessageAt(companyId, contact.id, whatsappId),
  ]);
  const ticket = newTicket(companyId, id, {
    ...(customerMessageAt ? { customerMessageAt } : {}),
    status: 'open',
    userId,
    user,
    queueId: queue?.id ?? null,
    queue,
    whatsappId,
    whatsapp,
    contactId: contact.id,
    contact: contactSnap(contact),
    isGroup: contact.isGroup,
  });
  try {
    await insertTicket(ticket);
  } catch (err) {
    if (err instanceof AppError && err.code === 'ERR_OTHER_OPEN_TICKET')
      throw await otherOpenTicket(companyId, contact.id, whatsappId);
    throw err;
  }
  return toTicket(ticket);
}

/**
 * When the customer last wrote to this connection, for a ticket an attendant opens: as their latest
 * earlier ticket on it recorded (gsi5 lists a contact's tickets by connection, then creation). The
 * Cloud API's 24-hour window carries over to the new ticket.
 */
async function lastCustomerMessageAt(companyId: number, contactId: number, whatsappId: number) {
  const { items } = await query<{ id: number }>({
    index: 'gsi5',
    pk: ticketIndex.contact(companyId, contactId),
    sk: { beginsWith: `${pad(whatsappId)}#` },
    forward: false,
    limit: 1,
  });
  const latest = items[0] && (await getStoredTicket(companyId, items[0].id));
  return latest?.customerMessageAt ?? undefined;
}

/** Runs a write again when its transaction met a concurrent one (ERR_CONFLICT without a failed condition). */
async function retryOnConflict(write: () => Promise<void>) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'ERR_CONFLICT' || attempt >= 5) throw err;
    }
  }
}

/** Guard moves that keep "one open or pending ticket per contact and connection" true. */
function guardItems(before: StoredTicket, after: StoredTicket): TransactItem[] {
  const wasActive = isActive(before.status);
  const active = isActive(after.status);
  const moved = before.whatsappId !== after.whatsappId || before.contactId !== after.contactId;
  const items: TransactItem[] = [];
  if (active && (!wasActive || moved))
    items.push(
      putTx({ ...openGuardKeys(after.companyId, after.contactId, after.whatsappId), ticketId: after.id }, true),
    );
  if (wasActive && (!active || moved))
    items.push(deleteTx(openGuardKeys(before.companyId, before.contactId, before.whatsappId)));
  return items;
}

/** Dashboard counters that a transition changes (see dashboard/aggregates.ts); one ADD on today's item. */
async function recordAggregates(before: StoredTicket, after: StoredTicket, now: string) {
  const day = dayOf(now);
  const days = new Map<string, Record<string, number>>();
  const users = new Map<string, Record<string, number>>();
  const add = (map: Map<string, Record<string, number>>, key: string, fields: Record<string, number>) => {
    const entry = map.get(key) ?? {};
    for (const [f, v] of Object.entries(fields)) entry[f] = (entry[f] ?? 0) + v;
    map.set(key, entry);
  };
  if (before.status !== after.status) add(days, after.createdDay, { [before.status]: -1, [after.status]: 1 });
  if (!before.startedAt && after.startedAt && after.queuedAt && after.round === before.round) {
    add(days, day, { waitSum: Date.parse(after.startedAt) - Date.parse(after.queuedAt), waitCount: 1 });
  }
  const taken =
    after.status === 'open' && after.userId !== null && (after.userId !== before.userId || before.status !== 'open');
  if (taken) add(users, String(after.userId), { tickets: 1 });
  if (!before.finishedAt && after.finishedAt && after.startedAt) {
    const support = Date.parse(after.finishedAt) - Date.parse(after.startedAt);
    add(days, day, { supportSum: support, supportCount: 1 });
    if (after.userId !== null) add(users, String(after.userId), { supportSum: support, supportCount: 1 });
  }
  add(days, day, agentChangeFields(before, after));
  // the users' counters ride on today's day item, and so do the other days' counters: one ADD
  for (const [userId, fields] of users) add(days, day, userFields(Number(userId), fields));
  await bumpDays(after.companyId, days);
}

/** What automatic assignment adds to its accept (assignment.ts). */
export interface AssignGuard {
  /** the change applies only while the ticket still waits where it was chosen */
  only: (current: StoredTicket) => boolean;
  /** the assignee below capacity and the queue's turn unmoved, checked on the counters' item */
  check: AssignCheck;
}

/**
 * Changes a ticket: status transitions (attendance.md 4.2), queue routing, transfers. Keeps the
 * open guard, the service round, the attendants' open-ticket counters and the dashboard counters,
 * publishes the change, posts the greeting on accept (setting sendGreetingAccepted) or the
 * transfer notice (sendMsgTransfTicket), then lets automatic assignment act on it.
 */
export async function updateTicket(
  companyId: number,
  ticketId: number,
  changes: TicketChanges,
  actor?: Actor | null,
  known?: Preread,
  assign?: AssignGuard,
): Promise<Ticket> {
  const now = nowIso();
  let kind = 'edit' as TransitionKind;
  const { before, after, changed } = await mutateTicket(
    companyId,
    ticketId,
    async (current) => {
      if (assign && !assign.only(current)) return null;
      // the soft lock, on the ticket as this attempt found it (a concurrent takeover is seen)
      if (known?.by) assertMayChange(known.by.actor, current, known.settings.get('takeoverByAnyUser'));
      const out = applyTransition(current, changes, actor?.userId ?? null, now);
      kind = out.kind;
      const next = out.after;
      if (kind === 'close') {
        const by = resolvedByAtClose(current, next);
        if (by) next.resolvedBy = by;
      }
      if (next.userId !== current.userId) next.user = await userSnap(companyId, next.userId, known);
      if (next.queueId !== current.queueId) next.queue = await queueSnap(companyId, next.queueId);
      if (next.whatsappId !== current.whatsappId) next.whatsapp = await whatsappSnap(companyId, next.whatsappId);
      await startSlaClock(current, next, now);
      if (JSON.stringify(next) === JSON.stringify(current)) return null;
      next.updatedAt = now;
      return next;
    },
    {
      extra: (b, a) => [
        ...guardItems(b, a),
        ...(kind === 'close'
          ? [
              putTx({
                ...roundKeys(companyId, a.id, a.round),
                ticketId: a.id,
                userId: a.userId,
                queueId: a.queueId,
                queuedAt: a.queuedAt,
                startedAt: a.startedAt,
                finishedAt: a.finishedAt,
                rating: null,
              }),
            ]
          : []),
      ],
      mapConflict: (_index, _b, a) => otherOpenTicket(companyId, a.contactId, a.whatsappId),
      initial: known?.ticket,
      assign: assign?.check,
    },
  );
  const ticket = toTicket(after);
  if (!changed) return ticket;
  await Promise.all([recordAggregates(before, after, now), afterSlaChange(before, after)]);
  await publishTicketChange(companyId, before, ticket);
  if (known?.by) await recordTakeover(companyId, known.by, known.users, before, after);
  await notifyPendingTicket(companyId, before, ticket);
  await automaticMessages(companyId, before, after, kind, known);
  // the rating question or the completion message (once per close, see chatbot/rating.ts)
  if (kind === 'close')
    await onTicketClosed(companyId, ticket).catch((err) =>
      log.error('on close failed', { ticketId, error: (err as Error).message }),
    );
  await ticketMoved(companyId, before, after);
  return ticket;
}

/**
 * PUT /tickets/{id}: the caller must be able to see the ticket (non-admins: their queues), and a
 * ticket someone else holds obeys the soft lock (access.ts assertMayChange). A change of holder
 * by someone who may take over is a takeover: it leaves the note and the audit entry.
 */
export async function updateTicketByUser(
  companyId: number,
  actor: Actor,
  ticketId: number,
  changes: TicketChanges,
  audit: AuditActor,
): Promise<Ticket> {
  const known = await preread(companyId, actor, ticketId, changes, audit);
  await assertCanSee(companyId, actor, known.ticket, known.users.get(actor.userId));
  return updateTicket(companyId, ticketId, changes, actor, known);
}

/**
 * A user moved a ticket away from the attendant who held it (to themselves, to someone else, or
 * back to the queue): a system note on the ticket and `ticket.taken_over` in the audit trail.
 */
async function recordTakeover(
  companyId: number,
  by: NonNullable<Preread['by']>,
  users: Preread['users'],
  before: StoredTicket,
  after: StoredTicket,
) {
  const holder = lockHolder(before, by.actor.userId);
  if (holder === null || after.userId === holder) return;
  const from = before.user?.name ?? `#${holder}`;
  const who = users.get(by.actor.userId)?.name ?? `#${by.actor.userId}`;
  const text =
    after.userId === by.actor.userId
      ? `Atendimento assumido por ${who} (estava com ${from}).`
      : after.userId !== null
        ? `Atendimento de ${from} transferido por ${who} para ${after.user?.name ?? `#${after.userId}`}.`
        : `Atendimento de ${from} devolvido à fila por ${who}.`;
  await createSystemNote(companyId, after, text);
  await auditBy(by.audit, {
    action: 'ticket.taken_over',
    target: { type: 'ticket', id: after.id },
    changes: { userId: { from: holder, to: after.userId } },
  });
}

/** What a change reads before its transaction, read at once: the ticket, the users it names, the settings it obeys. */
interface Preread {
  ticket: StoredTicket;
  users: Map<number, User>;
  settings: Map<string, string>;
  /** a user's change (PUT /tickets/{id}): the soft lock applies and a takeover is recorded */
  by?: { actor: Actor; audit: AuditActor };
}

const PREREAD_SETTINGS = ['sendGreetingAccepted', 'sendMsgTransfTicket', 'takeoverByAnyUser'] as const;

/** One BatchGet instead of a read each (issue 15: accepting a ticket costs 5 requests). */
async function preread(
  companyId: number,
  actor: Actor,
  ticketId: number,
  changes: TicketChanges,
  audit: AuditActor,
): Promise<Preread> {
  const userIds = [...new Set([actor.userId, ...(typeof changes.userId === 'number' ? [changes.userId] : [])])];
  const items = await batchGet([
    ticketKeys(companyId, ticketId),
    ...userIds.map((id) => userKeys(companyId, id)),
    ...PREREAD_SETTINGS.map((key) => settingKeys(companyId, key)),
  ]);
  const ticket = items.find((i) => i.sk === ticketKeys(companyId, ticketId).sk);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  const users = items.filter((i) => String(i.sk).startsWith('USER#')).map(toUser);
  const stored = new Map(items.filter((i) => String(i.sk).startsWith('SETTING#')).map((i) => [i.key, i.value]));
  return {
    ticket: toStored(ticket),
    users: new Map(users.map((u) => [u.id, u])),
    // an unset setting reads as its default
    settings: new Map(PREREAD_SETTINGS.map((key) => [key, stored.get(key) ?? SETTING_DEFAULTS[key]])),
    by: { actor, audit },
  };
}

/** Greeting on accept and the transfer notice, sent through the outbound path as automatic messages. */
async function automaticMessages(
  companyId: number,
  before: StoredTicket,
  after: StoredTicket,
  kind: TransitionKind,
  known?: Preread,
) {
  if (after.isGroup) return;
  let body: string | undefined;
  const setting = async (key: 'sendGreetingAccepted' | 'sendMsgTransfTicket') =>
    known?.settings.get(key) ?? settingValue(companyId, key);
  if (kind === 'accept' && after.user && (await setting('sendGreetingAccepted')) === 'enabled') {
    body = `Olá *${after.contact.name}*, meu nome é *${after.user.name}* e agora vou prosseguir com seu atendimento!`;
  } else if (
    (kind === 'transferQueue' || kind === 'transferUser') &&
    (await setting('sendMsgTransfTicket')) === 'enabled'
  ) {
    // the first routing of a new ticket into a queue is not a transfer
    const wasRouted = before.queueId !== null || before.userId !== null;
    if (wasRouted) {
      body =
        kind === 'transferUser' && after.user
          ? `*Mensagem automática*:\nVocê foi transferido para o atendente *${after.user.name}*\naguarde, já vamos te atender!`
          : `*Mensagem automática*:\nVocê foi transferido para o departamento *${after.queue?.name ?? ''}*\naguarde, já vamos te atender!`;
    }
  }
  if (!body) return;
  try {
    await sendMessage(companyId, toTicket(after), { body, automatic: true, userId: after.userId });
  } catch (err) {
    log.error('automatic message failed', { ticketId: after.id, error: (err as Error).message });
  }
}

/**
 * DELETE /tickets/{id}: the ticket, its guard and uuid pointer go; viewers get `ticket` delete. One
 * someone else holds obeys the soft lock; the version condition below keeps the check true until the write.
 */
export async function deleteTicket(companyId: number, actor: Actor, ticketId: number) {
  const t = await requireStoredTicket(companyId, ticketId);
  await assertCanSee(companyId, actor, t);
  await assertMayChangeIn(companyId, actor, t);
  const items: TransactItem[] = [
    // the counters move from the ticket as read: a change meanwhile fails the delete (ERR_CONFLICT)
    deleteTx(ticketKeys(companyId, ticketId), '#v = :v', { names: { '#v': 'version' }, values: { ':v': t.version } }),
    deleteTx(uuidKeys(companyId, t.uuid)),
    ...listCountTx(t, null),
  ];
  if (isActive(t.status)) items.push(deleteTx(openGuardKeys(companyId, t.contactId, t.whatsappId)));
  await transact(items);
  await bumpDay(companyId, t.createdDay, { tickets: -1, [hourOf(t.createdAt)]: -1, [t.status]: -1 });
  await publishToTicket(companyId, t, 'ticket', { action: 'delete', ticketId });
  await ticketMoved(companyId, t, null);
}

/**
 * A contact's name, number or picture changed: its tickets show the new one. A new picture only
 * touches the open and pending tickets (WhatsApp picture URLs change often; closed tickets keep theirs).
 */
export async function refreshTicketContact(companyId: number, contact: Contact, opts: { activeOnly?: boolean } = {}) {
  let startKey: Item | undefined;
  do {
    const page = await query({
      index: 'gsi5',
      pk: ticketIndex.contact(companyId, contact.id),
      startKey,
      projection: ['id'],
      ...(opts.activeOnly
        ? {
            filter: '#s IN (:open, :pending)',
            filterNames: { '#s': 'status' },
            filterValues: { ':open': 'open', ':pending': 'pending' },
          }
        : {}),
    });
    for (const item of page.items) {
      const { after, changed } = await mutateTicket(companyId, item.id, (t) => ({
        ...t,
        contact: contactSnap(contact),
      }));
      if (changed) await publishTicketChange(companyId, null, toTicket(after));
    }
    startKey = page.lastKey;
  } while (startKey);
}

export { toStored };
