import { describe, it, expect } from 'vitest';
import { streamsFor } from './list';
import type { Viewer } from './viewer';

const viewer = (profile: string, fields: Record<string, unknown> = {}): Viewer =>
  ({
    profile,
    user: { id: 5, queueIds: [1, 2], allTicket: 'desabled', showNoQueue: false, ...fields },
  }) as unknown as Viewer;
const pks = (v: Viewer, q: Record<string, unknown>, kanban = false) =>
  streamsFor(v, q as any, 9, { kanban }).map((s) => `${s.index} ${s.pk}`);

describe('ticket list partitions (one Query per partition, never a filter over the company)', () => {
  it('"open" without showAll is the attendant\'s own partition, admin or not', () => {
    expect(pks(viewer('user'), { status: 'open' })).toEqual(['gsi3 C#9#TU#5#open']);
    expect(pks(viewer('admin'), { status: 'open' })).toEqual(['gsi3 C#9#TU#5#open']);
  });

  it('an admin with showAll and no queue filter reads the company status partition', () => {
    expect(pks(viewer('admin'), { status: 'open', showAll: true })).toEqual(['gsi1 C#9#TS#open']);
    expect(pks(viewer('admin'), { status: 'pending' })).toEqual(['gsi1 C#9#TS#pending']);
  });

  it('showAll from a role without tickets-manager:showall is ignored', () => {
    expect(pks(viewer('user'), { status: 'open', showAll: true })).toEqual(['gsi3 C#9#TU#5#open']);
  });

  it('a non-admin reads their queues; tickets without a queue only with allTicket enabled or the no-queue flag', () => {
    expect(pks(viewer('user'), { status: 'pending' })).toEqual(['gsi2 C#9#TQ#1#pending', 'gsi2 C#9#TQ#2#pending']);
    expect(pks(viewer('user', { allTicket: 'enabled' }), { status: 'pending' })).toContain('gsi2 C#9#TQ#0#pending');
    expect(pks(viewer('user', { showNoQueue: true }), { status: 'pending' })).toContain('gsi2 C#9#TQ#0#pending');
  });

  it('a queue filter narrows a non-admin to the chosen queues among their own, never others', () => {
    expect(pks(viewer('user'), { status: 'pending', queueIds: [2, 3] })).toEqual(['gsi2 C#9#TQ#2#pending']);
    expect(pks(viewer('admin'), { status: 'pending', queueIds: [3] })).toEqual([
      'gsi2 C#9#TQ#3#pending',
      'gsi2 C#9#TQ#0#pending',
    ]);
  });

  it('an admin with showAll and a queue filter reads the open partition filtered by those queues and no queue', () => {
    const [open, ...rest] = streamsFor(viewer('admin'), { status: 'open', showAll: true, queueIds: [3] } as any, 9, {});
    expect(rest).toEqual([]);
    expect(open).toMatchObject({ index: 'gsi1', pk: 'C#9#TS#open', within: { attr: 'queueId', queueIds: [3, null] } });
  });

  it('the users filter is for admins; a non-admin can only ask for themselves', () => {
    expect(pks(viewer('admin'), { status: 'closed', users: [7, 8] })).toEqual([
      'gsi3 C#9#TU#7#closed',
      'gsi3 C#9#TU#8#closed',
    ]);
    expect(pks(viewer('user'), { status: 'closed', users: [7] })).toEqual([]);
  });

  it('many users or queues are read as one filtered Query of the status partition per status, never dozens', () => {
    const many = Array.from({ length: 50 }, (_, i) => i + 1);
    const byUsers = streamsFor(viewer('admin'), { users: many } as any, 9, {});
    expect(byUsers.map((s) => `${s.index} ${s.pk}`)).toEqual([
      'gsi1 C#9#TS#open',
      'gsi1 C#9#TS#pending',
      'gsi1 C#9#TS#closed',
    ]);
    expect(byUsers[0]!.within).toEqual({ attr: 'gsi3pk', pks: many.map((u) => `C#9#TU#${u}#open`) });
    const byQueues = streamsFor(viewer('user', { queueIds: many }), { status: 'pending' } as any, 9, {});
    expect(byQueues).toHaveLength(1);
    expect(byQueues[0]!.within?.attr).toBe('gsi2pk');
    expect(byQueues[0]!.within?.pks).toHaveLength(50);
  });

  it('kanban reads open and pending by queue; the unread bell reads open and pending', () => {
    // an open ticket with an attendant is not in its queue's partition (one list move less per
    // message): open by queue is the company's open partition filtered by queue
    expect(pks(viewer('user'), {}, true)).toEqual([
      'gsi1 C#9#TS#open',
      'gsi2 C#9#TQ#1#pending',
      'gsi2 C#9#TQ#2#pending',
    ]);
    expect(streamsFor(viewer('user'), {} as any, 9, { kanban: true })[0]!.within).toEqual({
      attr: 'queueId',
      pks: ['C#9#TQ#1#open', 'C#9#TQ#2#open'],
      queueIds: [1, 2],
    });
    expect(pks(viewer('user'), { withUnreadMessages: true })).toEqual([
      'gsi3 C#9#TU#5#open',
      'gsi2 C#9#TQ#1#pending',
      'gsi2 C#9#TQ#2#pending',
    ]);
  });
});
