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
  // a flagged page renders behind its guard, which reads the flag when shown
  Component: lazy(
    flag
      ? () =>
          Promise.all([load(), import('./campaigns/CampaignsGate')]).then(([m, g]) => ({ default: g.gated(m.default) }))
      : load,
  ),
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
  page('/chats/:id?', 'private', () => import('./chats/ChatsPage')),
  page('/kanban', 'private', () => import('./kanban/KanbanPage')),
  page('/announcements', 'private', () => import('./announcements/AnnouncementsPage')),
  page('/helps', 'private', () => import('./helps/HelpsPage')),
  page('/financeiro', 'private', () => import('./billing/InvoicesPage')),
  page('/subscription', 'private', () => import('./billing/SubscriptionPage')),
  page('/schedules', 'private', () => import('./schedules/SchedulesPage')),
  page('/files', 'private', () => import('./files/FilesPage')),
  page('/prompts', 'private', () => import('./prompts/PromptsPage')),
  page('/knowledge', 'private', () => import('./knowledge/KnowledgePage')),
  page('/custom-fields', 'private', () => import('./custom-fields/CustomFieldsPage')),
  page('/queue-integration', 'private', () => import('./integrations/IntegrationsPage')),
  page('/messages-api', 'private', () => import('./messages-api/MessagesApiPage')),
  page('/audit', 'private', () => import('./audit/AuditPage')),
  page('/fleet', 'private', () => import('./fleet/FleetPage')),
  page('/notifications', 'private', () => import('./notifications/NotificationsPage')),
  page('/search', 'private', () => import('./search/SearchPage')),
  page('/contact-lists', 'private', () => import('./contact-lists/ContactListsPage'), 'cshow'),
  page(
    '/contact-lists/:contactListId/contacts',
    'private',
    () => import('./contact-lists/ContactListItemsPage'),
    'cshow',
  ),
  page('/campaigns', 'private', () => import('./campaigns/CampaignsPage'), 'cshow'),
  page('/campaign/:campaignId/report', 'private', () => import('./campaigns/CampaignReportPage'), 'cshow'),
  page('/campaigns-config', 'private', () => import('./campaigns/CampaignsConfigPage'), 'cshow'),
];

/**
 * Public pages drawn without MUI (issue 25: the page a phone opens first stays light); App.tsx gives
 * the other public pages MUI's theme.
 */
export const pagesWithoutMui: ReadonlySet<string> = new Set(['/login']);

/**
 * Routes present for this browser. By default every route is registered: the campaign routes check
 * the `cshow` flag (or the plan) when they render, since login may set it after the app started.
 */
export const activeRoutes = (hasFlag: (name: string) => boolean = () => true) =>
  routes.filter((r) => !r.flag || hasFlag(r.flag));
