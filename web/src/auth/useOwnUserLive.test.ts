import { describe, expect, test } from 'vitest';
import { ownUserUpdate } from './useOwnUserLive';
import type { SessionUser } from './types';

const me = {
  id: 7,
  companyId: 3,
  name: 'Ana',
  email: 'ana@example.com',
  profile: 'user',
  allTicket: 'desabled',
  queueIds: [1],
  queues: [{ id: 1, name: 'Vendas', color: '#000' }],
  company: { id: 3, name: 'Loja', dueDate: null },
} as unknown as SessionUser;

describe('the session user follows `user` events about itself', () => {
  test('an update of this user changes profile, queues and visibility and keeps the company', () => {
    const next = ownUserUpdate(me, {
      action: 'update',
      user: {
        id: 7,
        profile: 'admin',
        allTicket: 'enabled',
        queueIds: [2],
        queues: [{ id: 2, name: 'Suporte', color: '#fff' }],
      },
    });
    expect(next).toMatchObject({ profile: 'admin', allTicket: 'enabled', queueIds: [2], company: me.company });
    expect(next?.queues?.map((q) => q.id)).toEqual([2]);
  });

  test("another user's update, a create or no session change nothing", () => {
    expect(ownUserUpdate(me, { action: 'update', user: { id: 8, profile: 'admin' } })).toBeNull();
    expect(ownUserUpdate(me, { action: 'create', user: { id: 7, profile: 'admin' } })).toBeNull();
    expect(ownUserUpdate(null, { action: 'update', user: { id: 7, profile: 'admin' } })).toBeNull();
  });
});
