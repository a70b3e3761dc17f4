import { describe, expect, test } from 'vitest';
import {
  applyTicketEvent,
  applyTicketEventToPages,
  belongsToList,
  isNotifiable,
  mayOpenTicket,
  mayPeek,
  openableByClick,
  viewerOf,
  type ListFilter,
} from './membership';
import { needsQueue, otherTicketOutcome, searchStarts } from './new-ticket-rules';
import { listQuery, queueFilter } from './list-query';
import type { Ticket } from './types';

const ticket = (id: number, extra: Partial<Ticket> = {}): Ticket => ({
  id,
  uuid: `u${id}`,
  status: 'open',
  userId: 1,
  queueId: 10,
  contactId: id,
  updatedAt: `2026-01-01T10:0${id}:00Z`,
  ...extra,
});
const attendant = viewerOf({ id: 1, profile: 'user', queueIds: [10], allTicket: 'desabled' });
const admin = viewerOf({ id: 9, profile: 'admin', queueIds: [], allTicket: 'enabled' });
const open: ListFilter = { tab: 'open', queueIds: [], showAll: false };
const pending: ListFilter = { tab: 'pending', queueIds: [], showAll: false };

describe('ticket list membership (attendance.md 4.2)', () => {
  test('a ticket leaves a list when its status no longer matches', () => {
    const list = [ticket(1), ticket(2)];
    const next = applyTicketEvent(list, { action: 'update', ticket: ticket(1, { status: 'closed' }) }, open, attendant);
    expect(next.map((t) => t.id)).toEqual([2]);
  });

  test('a ticket leaves a list when its queue is not among the selected queues', () => {
    const filter = { ...open, queueIds: [10] };
    const next = applyTicketEvent(
      [ticket(1), ticket(2)],
      { action: 'update', ticket: ticket(2, { queueId: 20 }) },
      filter,
      admin,
    );
    expect(next.map((t) => t.id)).toEqual([1]);
  });

  test('non-admins see only tickets of their own queues', () => {
    expect(belongsToList(ticket(1, { status: 'pending', userId: null, queueId: 20 }), pending, attendant)).toBe(false);
    expect(belongsToList(ticket(1, { status: 'pending', userId: null, queueId: 10 }), pending, attendant)).toBe(true);
    expect(belongsToList(ticket(1, { status: 'pending', userId: null, queueId: 20 }), pending, admin)).toBe(true);
  });

  test('the Assigned tab lists only my tickets unless Show all (a permitted role) is on', () => {
    const someoneElses = ticket(3, { userId: 2 });
    expect(belongsToList(someoneElses, open, attendant)).toBe(false);
    expect(belongsToList(someoneElses, { ...open, showAll: true }, attendant)).toBe(false);
    expect(belongsToList(someoneElses, { ...open, showAll: true }, admin)).toBe(true);
  });

  test('an accepted ticket moves from Pending to Assigned, newest first', () => {
    const accepted = ticket(5, { status: 'open', userId: 1, updatedAt: '2026-01-02T00:00:00Z' });
    expect(
      applyTicketEvent(
        [ticket(5, { status: 'pending', userId: null })],
        { action: 'update', ticket: accepted },
        pending,
        attendant,
      ),
    ).toEqual([]);
    expect(
      applyTicketEvent([ticket(1)], { action: 'update', ticket: accepted }, open, attendant).map((t) => t.id),
    ).toEqual([5, 1]);
  });

  test('delete removes; updateUnread clears the unread count', () => {
    const list = [ticket(1, { unreadMessages: 3 }), ticket(2)];
    expect(applyTicketEvent(list, { action: 'updateUnread', ticketId: 1 }, open, attendant)[0].unreadMessages).toBe(0);
    expect(applyTicketEvent(list, { action: 'delete', ticketId: 1 }, open, attendant).map((t) => t.id)).toEqual([2]);
  });

  test('paged lists: the ticket is removed from every page and put back in the first when it belongs', () => {
    const pages = [{ items: [ticket(4), ticket(3)] }, { items: [ticket(2), ticket(1)] }];
    const moved = applyTicketEventToPages(
      pages,
      { action: 'update', ticket: ticket(1, { updatedAt: '2026-02-01T00:00:00Z', lastMessage: 'hi' }) },
      open,
      attendant,
    );
    expect(moved.map((p) => p.items.map((t) => t.id))).toEqual([[1, 4, 3], [2]]);
    expect(moved[0].items[0].lastMessage).toBe('hi');
  });

  test('pending tickets cannot be opened by clicking the row', () => {
    expect(openableByClick({ status: 'pending' })).toBe(false);
    expect(openableByClick({ status: 'open' })).toBe(true);
    expect(openableByClick({ status: 'closed' })).toBe(true);
  });

  test('opening a ticket outside my queues is refused for non-admins; admins may open any ticket', () => {
    const foreign = ticket(1, { queueId: 20, userId: 5 });
    expect(mayOpenTicket(foreign, attendant)).toBe(false);
    expect(mayOpenTicket(foreign, admin)).toBe(true);
    expect(mayOpenTicket(ticket(2, { queueId: 10, userId: 5 }), attendant)).toBe(true);
  });

  test('peek is refused when the queue is not among the user queues (non-admin)', () => {
    expect(mayPeek({ queueId: 20 }, attendant)).toBe(false);
    expect(mayPeek({ queueId: 10 }, attendant)).toBe(true);
    expect(mayPeek({ queueId: 20 }, admin)).toBe(true);
  });

  test('the bell lists unread tickets; pending ones only with allTicket enabled', () => {
    expect(isNotifiable({ status: 'open', unreadMessages: 2 }, 'desabled')).toBe(true);
    expect(isNotifiable({ status: 'pending', unreadMessages: 2 }, 'desabled')).toBe(false);
    expect(isNotifiable({ status: 'pending', unreadMessages: 2 }, 'enabled')).toBe(true);
    expect(isNotifiable({ status: 'open', unreadMessages: 0 }, 'enabled')).toBe(false);
  });

  test('the search tab filters by lowercased text, tags and users', () => {
    const t1 = ticket(1, {
      contact: { id: 1, name: 'Maria Silva', number: '5511' },
      tags: [{ id: 7, name: 'vip', color: '#000' }],
    });
    const search = (extra: Partial<ListFilter>): ListFilter => ({
      tab: 'search',
      queueIds: [],
      showAll: false,
      ...extra,
    });
    expect(belongsToList(t1, search({ searchParam: 'maria' }), admin)).toBe(true);
    expect(belongsToList(t1, search({ searchParam: 'joão' }), admin)).toBe(false);
    expect(belongsToList(t1, search({ tags: [7] }), admin)).toBe(true);
    expect(belongsToList(t1, search({ tags: [8] }), admin)).toBe(false);
    expect(belongsToList(t1, search({ users: [2] }), admin)).toBe(false);
  });

  test('the list query carries status, showAll and the queue filter', () => {
    expect(listQuery({ tab: 'pending', queueIds: [1, 2], showAll: true })).toMatchObject({
      status: 'pending',
      showAll: 'true',
      queueIds: [1, 2],
    });
    expect(listQuery({ tab: 'search', queueIds: [], showAll: false, searchParam: 'maria', tags: [3] })).toMatchObject({
      status: undefined,
      searchParam: 'maria',
      tags: [3],
    });
  });

  test('every queue ticked names none (all of mine), so more than MAX_QUERY_IDS queues can be ticked', () => {
    const queues = Array.from({ length: 60 }, (_, i) => ({ id: i + 1 }));
    expect(queueFilter(null, queues)).toEqual([]);
    expect(
      queueFilter(
        queues.map((q) => q.id),
        queues,
      ),
    ).toEqual([]);
    expect(queueFilter([3, 5], queues)).toEqual([3, 5]);
    expect(
      listQuery({
        tab: 'open',
        queueIds: queueFilter(
          queues.map((q) => q.id),
          queues,
        ),
        showAll: false,
      }).queueIds,
    ).toBeUndefined();
  });
});

describe('new ticket rules (2.7, section 8)', () => {
  test('contact search starts at 3 characters', () => {
    expect(searchStarts('ma')).toBe(false);
    expect(searchStarts('mar')).toBe(true);
  });
  test('a queue is required unless the user is admin', () => {
    expect(needsQueue('', 'user')).toBe(true);
    expect(needsQueue('', 'admin')).toBe(false);
    expect(needsQueue(3, 'user')).toBe(false);
  });
  test('ERR_OTHER_OPEN_TICKET held by another user shows a notice naming user and queue; my own opens', () => {
    const theirs = ticket(1, {
      userId: 5,
      user: { id: 5, name: 'Bruno' },
      queue: { id: 10, name: 'Vendas', color: '#f00' },
    });
    expect(otherTicketOutcome({ ticket: theirs }, 1)).toEqual({ kind: 'notice', user: 'Bruno', queue: 'Vendas' });
    expect(otherTicketOutcome({ ticket: ticket(2, { userId: 1 }) }, 1)).toMatchObject({ kind: 'open' });
    expect(otherTicketOutcome(undefined, 1)).toEqual({ kind: 'toast' });
    // the API's shape: { ticket: { id, uuid, user, queue } } without userId
    expect(
      otherTicketOutcome(
        { ticket: { id: 3, uuid: 'x', user: { id: 5, name: 'Bruno' }, queue: { id: 1, name: 'Suporte' } } },
        1,
      ),
    ).toEqual({ kind: 'notice', user: 'Bruno', queue: 'Suporte' });
  });
});

describe('schedule modal rules (section 5)', () => {
  test('body at least 5 characters, sendAt required; default sendAt is now plus 1 hour', async () => {
    const { validateSchedule, defaultSendAt } = await import('./schedule-rules');
    expect(validateSchedule('oi', '2026-12-01T10:00', 3).errors).toEqual({ body: 'short' });
    expect(validateSchedule('Lembrete do pedido', '', 3).errors).toMatchObject({ sendAt: 'required' });
    expect(validateSchedule('Lembrete do pedido', '2026-12-01T10:00', 3).data).toMatchObject({
      body: 'Lembrete do pedido',
      contactId: 3,
    });
    expect(defaultSendAt(new Date(2026, 0, 1, 23, 30))).toBe('2026-01-02T00:30');
  });
});

describe('ticket row preview', () => {
  test('the last message shows without formatting markers, on one line', async () => {
    const { plainPreview } = await import('./TicketListItem');
    expect(plainPreview('*Ana:*\nClaro! _já_ vejo ~isso~')).toBe('Ana: Claro! já vejo isso');
    expect(plainPreview(null)).toBe('');
  });
});

describe('snoozed tickets (issue 40)', () => {
  const snoozedTab: ListFilter = { tab: 'snoozed', queueIds: [], showAll: false };
  const aside = { snooze: { until: null, at: '2026-01-01T10:00:00Z', userId: 1 } };
  test("a snoozed open ticket leaves the open list and is in the snoozed one, the viewer's own unless show all", () => {
    expect(belongsToList(ticket(1, aside), open, attendant)).toBe(false);
    expect(belongsToList(ticket(1, aside), snoozedTab, attendant)).toBe(true);
    expect(belongsToList(ticket(1), snoozedTab, attendant)).toBe(false);
    expect(belongsToList(ticket(1, { ...aside, userId: 2 }), snoozedTab, attendant)).toBe(false);
    expect(belongsToList(ticket(1, { ...aside, userId: 2 }), { ...snoozedTab, showAll: true }, admin)).toBe(true);
    expect(listQuery(snoozedTab)).toMatchObject({ status: 'open', snoozed: 'true' });
    expect(listQuery(open).snoozed).toBeUndefined();
  });
  test('the update of a ticket that woke (snooze null) moves it from the snoozed list back to the open one', () => {
    const pages = (items: Ticket[]) => [{ items, hasMore: false }];
    const woke = {
      action: 'update' as const,
      ticket: ticket(1, { snooze: null, snoozeWoke: { at: 'x', by: 'time' } }),
    };
    expect(applyTicketEventToPages(pages([ticket(1, aside)]), woke, snoozedTab, attendant)[0]!.items).toEqual([]);
    const back = applyTicketEventToPages(pages([]), woke, open, attendant)[0]!.items;
    expect(back.map((t) => [t.id, t.snoozeWoke?.by])).toEqual([[1, 'time']]);
  });
});
