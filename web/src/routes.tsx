import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * The route table (attendance.md 2.1; management.md adds its screens here). One lazy route is one
 * line: `page('/path', 'private', () => import('./area/AreaPage'))` where the module default-exports
 * the page. Private pages render inside the main layout; `flag: 'cshow'` routes exist only when the
 * browser storage flag of that name is present (campaign screens).
 */
export interface AppRoute {
  path: string;
  kind: 'public' | 'private';
  Component: LazyExoticComponent<ComponentType>;
  flag?: 'cshow';
}

const page = (
  path: string,
  kind: AppRoute['kind'],
  load: () => Promise<{ default: ComponentType }>,
  flag?: AppRoute['flag'],
): AppRoute => ({
  path,
  kind,
  Component: lazy(load),
  flag,
});

export const routes: AppRoute[] = [
  page('/login', 'public', () => import('./login/LoginPage')),
  page('/signup', 'public', () => import('./signup/SignupPage')),
  page('/forgetpsw', 'public', () => import('./reset/ResetPasswordPage')),

  page('/', 'private', () => import('./dashboard/DashboardPage')),
  page('/tickets/:ticketId?', 'private', () => import('./tickets/TicketsPage')),
  page('/todolist', 'private', () => import('./todolist/TodoListPage')),
  page('/connections', 'private', () => import('./connections/ConnectionsPage')),
  page('/queues', 'private', () => import('./queues/QueuesPage')),
  page('/users', 'private', () => import('./users/UsersPage')),
  page('/contacts', 'private', () => import('./contacts/ContactsPage')),
  page('/tags', 'private', () => import('./tags/TagsPage')),
  page('/quick-messages', 'private', () => import('./quick-messages/QuickMessagesPage')),
  page('/settings', 'private', () => import('./settings/SettingsPage')),
];

/** Routes present for this browser (the campaign routes need the `cshow` storage flag). */
export const activeRoutes = (hasFlag: (name: string) => boolean = (n) => localStorage.getItem(n) !== null) =>
  routes.filter((r) => !r.flag || hasFlag(r.flag));
