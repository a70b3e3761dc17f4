import { describe, it, expect } from 'vitest';
import { applyTransition } from './transitions';
import type { StoredTicket } from './repo';

const T0 = '2026-01-01T10:00:00.000Z';
const NOW = '2026-01-01T10:05:00.000Z';

function ticket(fields: Partial<StoredTicket> = {}): StoredTicket {
  return {
    id: 1,
    uuid: 'u',
    companyId: 1,
    status: 'pending',
    userId: null,
    user: null,
    queueId: 7,
    queue: { id: 7, name: 'Sales', color: '#fff' },
    whatsappId: 3,
    whatsapp: { id: 3, name: 'Main' },
    contactId: 9,
    contact: { id: 9, name: 'Ana', number: '5511999999999', profilePicUrl: '' },
    lastMessage: '',
    unreadMessages: 0,
    isGroup: false,
    chatbot: true,
    useIntegration: true,
    promptId: 4,
    integrationId: 5,
    tags: [],
    tagIds: [],
    queuedAt: T0,
    startedAt: null,
    finishedAt: null,
    rating: null,
    ratingAt: null,
    createdAt: T0,
    updatedAt: T0,
    createdDay: '2026-01-01',
    round: 1,
    version: 1,
    ...fields,
  };
}

describe('ticket status transitions (attendance.md 4.2)', () => {
  it('pending -accept-> open with the actor as user, queue kept, round started', () => {
    const { after, kind } = applyTransition(ticket(), { status: 'open', userId: 42 }, 42, NOW);
    expect(kind).toBe('accept');
    expect(after).toMatchObject({ status: 'open', userId: 42, queueId: 7, startedAt: NOW, queuedAt: T0 });
  });

  it('accept without a userId assigns the actor', () => {
    expect(applyTransition(ticket(), { status: 'open' }, 42, NOW).after.userId).toBe(42);
  });

  it('pending assigned to someone else is a transfer to that user, not an accept', () => {
    const { after, kind } = applyTransition(ticket(), { status: 'open', userId: 8 }, 42, NOW);
    expect(kind).toBe('transferUser');
    expect(after).toMatchObject({ status: 'open', userId: 8 });
  });

  it('closed -reopen-> open with the actor, queue kept, a new round', () => {
    const closed = ticket({ status: 'closed', userId: 8, startedAt: T0, finishedAt: T0, rating: 2, ratingAt: T0 });
    const { after, kind } = applyTransition(closed, { status: 'open', userId: 42, queueId: 7 }, 42, NOW);
    expect(kind).toBe('reopen');
    expect(after).toMatchObject({
      status: 'open',
      userId: 42,
      queueId: 7,
      round: 2,
      queuedAt: NOW,
      startedAt: NOW,
      finishedAt: null,
      rating: null,
    });
  });

  it('open -return-> pending with no user, queue kept, back in the queue', () => {
    const open = ticket({ status: 'open', userId: 42, startedAt: T0 });
    const { after, kind } = applyTransition(open, { status: 'pending', userId: null, queueId: 7 }, 42, NOW);
    expect(kind).toBe('return');
    expect(after).toMatchObject({ status: 'pending', userId: null, queueId: 7, queuedAt: NOW, startedAt: null });
  });

  it('open -resolve-> closed, user and queue kept, integration and prompt cleared, round finished', () => {
    const open = ticket({ status: 'open', userId: 42, startedAt: T0 });
    const { after, kind } = applyTransition(open, { status: 'closed' }, 42, NOW);
    expect(kind).toBe('close');
    expect(after).toMatchObject({
      status: 'closed',
      userId: 42,
      queueId: 7,
      useIntegration: false,
      promptId: null,
      integrationId: null,
      chatbot: false,
      finishedAt: NOW,
    });
  });

  it('open or pending -transfer to a queue without a user-> pending, userId null', () => {
    for (const before of [ticket({ status: 'open', userId: 42, startedAt: T0 }), ticket()]) {
      const { after, kind } = applyTransition(before, { queueId: 8, userId: null, status: 'pending' }, 42, NOW);
      expect(kind).toBe('transferQueue');
      expect(after).toMatchObject({ status: 'pending', userId: null, queueId: 8, queuedAt: NOW });
    }
  });

  it('open -transfer to a user-> open with that user (same or another queue)', () => {
    const open = ticket({ status: 'open', userId: 42, startedAt: T0 });
    const sameQueue = applyTransition(open, { userId: 8, queueId: 7, status: 'open' }, 42, NOW);
    expect(sameQueue.kind).toBe('transferUser');
    expect(sameQueue.after).toMatchObject({ status: 'open', userId: 8, queueId: 7, startedAt: T0 });
    const otherQueue = applyTransition(open, { userId: 8, queueId: 9, status: 'open' }, 42, NOW);
    expect(otherQueue.after).toMatchObject({ status: 'open', userId: 8, queueId: 9 });
  });

  it('queue routing by the bot (only queueId) moves a pending ticket into the queue', () => {
    const { after, kind } = applyTransition(ticket({ queueId: null, queue: null }), { queueId: 7 }, null, NOW);
    expect(kind).toBe('transferQueue');
    expect(after).toMatchObject({ status: 'pending', queueId: 7, userId: null });
  });

  it('closing a closed ticket changes nothing', () => {
    const closed = ticket({ status: 'closed', finishedAt: T0 });
    const { after, kind } = applyTransition(closed, { status: 'closed' }, 42, NOW);
    expect(kind).toBe('edit');
    expect(after.finishedAt).toBe(T0);
  });
});

describe('snooze (issue 40)', () => {
  const snoozed = () =>
    ticket({
      status: 'open',
      userId: 2,
      snooze: { until: '2026-01-02T09:00:00.000Z', at: T0, userId: 2 },
      snoozeWoke: { at: T0, by: 'time' },
    });
  it('any transition ends a snooze and its mark', () => {
    for (const changes of [
      { status: 'closed' as const },
      { status: 'pending' as const, userId: null },
      { userId: 5 },
      { queueId: 8 },
    ]) {
      const { after, kind } = applyTransition(snoozed(), changes, 2, NOW);
      expect(kind, JSON.stringify(changes)).not.toBe('edit');
      expect(after.snooze, JSON.stringify(changes)).toBeNull();
      expect(after.snoozeWoke, JSON.stringify(changes)).toBeNull();
    }
  });
  it('an edit keeps it', () => {
    const { after } = applyTransition(snoozed(), { chatbot: false }, 2, NOW);
    expect(after.snooze).toEqual(snoozed().snooze);
  });
});
