import { describe, it, expect } from 'vitest';
import { can, PERMISSIONS } from './permissions';

describe('role permissions (attendance.md section 6)', () => {
  it('a user has no static permissions', () => {
    for (const p of PERMISSIONS) expect(can('user', p)).toBe(false);
  });
  it('an admin has the ten permissions of the spec', () => {
    for (const p of [
      'dashboard:view',
      'drawer-admin-items:view',
      'tickets-manager:showall',
      'user-modal:editProfile',
      'user-modal:editQueues',
      'ticket-options:deleteTicket',
      'contacts-page:deleteContact',
      'connections-page:actionButtons',
      'connections-page:addConnection',
      'connections-page:editOrDeleteConnection',
    ] as const)
      expect(can('admin', p)).toBe(true);
  });
  it('only admin and supervisor may set the kanban flag on tags', () => {
    expect(can('admin', 'tags:kanban')).toBe(true);
    expect(can('supervisor', 'tags:kanban')).toBe(true);
    expect(can('user', 'tags:kanban')).toBe(false);
    expect(can('supervisor', 'dashboard:view')).toBe(false);
  });
  it('an unknown profile has nothing', () => {
    expect(can('hacker', 'dashboard:view')).toBe(false);
    expect(can(undefined, 'dashboard:view')).toBe(false);
  });
});
