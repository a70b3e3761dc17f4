/** Role permissions (attendance.md section 6; management.md section 6). */
export const PROFILES = ['user', 'admin', 'supervisor'] as const;
export type Profile = (typeof PROFILES)[number];

export const PERMISSIONS = [
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
  'tags:kanban',
  /** the company's audit trail (GET /audit); super users read every company's */
  'audit:view',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ADMIN: readonly Permission[] = PERMISSIONS;

export const ROLE_PERMISSIONS: Record<Profile, readonly Permission[]> = {
  user: [],
  // The supervisor profile exists only to set the kanban flag on tags (management.md section 6).
  supervisor: ['tags:kanban'],
  admin: ADMIN,
};

export function can(profile: string | undefined, permission: Permission): boolean {
  return (ROLE_PERMISSIONS[profile as Profile] ?? []).includes(permission);
}
