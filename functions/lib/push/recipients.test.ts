import { describe, expect, it } from 'vitest';
import { pendingTicketRecipients } from './recipients';

const user = (
  id: number,
  profile: 'admin' | 'user',
  queueIds: number[],
  extra: { allTicket?: 'enabled' | 'desabled'; showNoQueue?: boolean } = {},
) => ({
  id,
  profile,
  queueIds,
  allTicket: 'desabled' as 'enabled' | 'desabled',
  showNoQueue: false,
  ...extra,
});
const users = [
  user(1, 'admin', []),
  user(2, 'admin', [20]),
  user(3, 'user', [10]),
  user(4, 'user', [20]),
  user(5, 'user', [], { allTicket: 'enabled' }),
  user(6, 'user', []),
];
const ids = (list: { id: number }[]) => list.map((u) => u.id);

describe('who is told of a pending ticket', () => {
  it("a ticket in a queue: the queue's users and the admins without queues, nobody else", () => {
    expect(ids(pendingTicketRecipients(users, { status: 'pending', queueId: 10, userId: null }))).toEqual([1, 3]);
    expect(ids(pendingTicketRecipients(users, { status: 'pending', queueId: 20, userId: null }))).toEqual([1, 2, 4]);
  });

  it('a ticket without a queue: whoever may see it (admins, allTicket, showNoQueue)', () => {
    const seen = pendingTicketRecipients([...users, user(7, 'user', [10], { showNoQueue: true })], {
      status: 'pending',
      queueId: null,
      userId: null,
    });
    expect(ids(seen)).toEqual([1, 2, 5, 7]);
  });

  it('a ticket pending for one user: that user only', () => {
    expect(ids(pendingTicketRecipients(users, { status: 'pending', queueId: 10, userId: 4 }))).toEqual([4]);
  });
});
