import { describe, it, expect } from 'vitest';
import { canSeeTicket } from './visibility';

const user = { profile: 'user', userId: 5, queueIds: [1, 2], allTicket: 'desabled', showNoQueue: false };

describe('ticket visibility', () => {
  it('admins see every ticket', () => {
    expect(canSeeTicket({ ...user, profile: 'admin', queueIds: [] }, { status: 'open', queueId: 9, userId: 3 })).toBe(
      true,
    );
  });
  it('non-admins see tickets of their own queues and their own tickets, not other queues', () => {
    expect(canSeeTicket(user, { status: 'pending', queueId: 2, userId: null })).toBe(true);
    expect(canSeeTicket(user, { status: 'open', queueId: 9, userId: 5 })).toBe(true);
    expect(canSeeTicket(user, { status: 'open', queueId: 9, userId: 3 })).toBe(false);
  });
  it('tickets without a queue need the no-queue flag or allTicket enabled', () => {
    expect(canSeeTicket(user, { status: 'pending', queueId: null, userId: null })).toBe(false);
    expect(canSeeTicket({ ...user, allTicket: 'enabled' }, { status: 'pending', queueId: null, userId: null })).toBe(
      true,
    );
    expect(canSeeTicket({ ...user, showNoQueue: true }, { status: 'open', queueId: null, userId: null })).toBe(true);
  });
});
