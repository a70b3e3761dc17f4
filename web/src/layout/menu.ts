import { can } from '#shared/permissions';
import type { PlanFeature } from '#shared/plans';
import { CONNECTION_WARNING_STATUSES, type ConnectionStatus } from '#shared/constants';
import { cloudNeedsAttention, type CloudHealth } from '../connections/cloud-health';

/** Who is looking at the menu: role, super flag, plan flags and the campaign storage flag. */
export interface MenuContext {
  profile: string | undefined;
  super: boolean;
  plan: Partial<Record<PlanFeature, boolean>> | null;
  /** the `cshow` browser storage flag */
  cshow: boolean;
  /** an expired company's admin session: only the invoices are listed (issue 10) */
  restricted?: boolean;
}

export interface MenuEntry {
  key: string;
  to: string;
  section: 'main' | 'campaigns' | 'admin';
  show(ctx: MenuContext): boolean;
}

const always = () => true;
const feature = (f: PlanFeature) => (ctx: MenuContext) => Boolean(ctx.plan?.[f]);
const admin = (ctx: MenuContext) => can(ctx.profile, 'drawer-admin-items:view');

/** The side menu of attendance.md 2.2, in display order. */
export const MENU: MenuEntry[] = [
  { key: 'dashboard', to: '/', section: 'main', show: (c) => can(c.profile, 'dashboard:view') },
  { key: 'tickets', to: '/tickets', section: 'main', show: always },
  { key: 'kanban', to: '/kanban', section: 'main', show: feature('useKanban') },
  { key: 'quickMessages', to: '/quick-messages', section: 'main', show: always },
  { key: 'todolist', to: '/todolist', section: 'main', show: always },
  { key: 'contacts', to: '/contacts', section: 'main', show: always },
  { key: 'schedules', to: '/schedules', section: 'main', show: feature('useSchedules') },
  { key: 'tags', to: '/tags', section: 'main', show: always },
  { key: 'chats', to: '/chats', section: 'main', show: feature('useInternalChat') },
  { key: 'helps', to: '/helps', section: 'main', show: always },
  { key: 'notifications', to: '/notifications', section: 'main', show: always },
  // Campaigns sit in the admin section (2.2: "campaigns" is listed among the admin items).
  {
    key: 'campaignsList',
    to: '/campaigns',
    section: 'campaigns',
    show: (c) => admin(c) && (Boolean(c.plan?.useCampaigns) || c.cshow),
  },
  {
    key: 'contactLists',
    to: '/contact-lists',
    section: 'campaigns',
    show: (c) => admin(c) && (Boolean(c.plan?.useCampaigns) || c.cshow),
  },
  {
    key: 'campaignsConfig',
    to: '/campaigns-config',
    section: 'campaigns',
    show: (c) => admin(c) && (Boolean(c.plan?.useCampaigns) || c.cshow),
  },
  { key: 'announcements', to: '/announcements', section: 'main', show: (c) => c.super },
  { key: 'prompts', to: '/prompts', section: 'main', show: feature('useOpenAi') },
  // the AI agent's knowledge (issue 39): the admins', on plans with AI
  { key: 'knowledge', to: '/knowledge', section: 'main', show: (c) => admin(c) && Boolean(c.plan?.useOpenAi) },
  { key: 'queueIntegration', to: '/queue-integration', section: 'main', show: feature('useIntegrations') },
  { key: 'connections', to: '/connections', section: 'admin', show: admin },
  { key: 'files', to: '/files', section: 'admin', show: admin },
  { key: 'queues', to: '/queues', section: 'admin', show: admin },
  // custom fields of contacts and tickets (issue 40)
  { key: 'customFields', to: '/custom-fields', section: 'admin', show: admin },
  { key: 'users', to: '/users', section: 'admin', show: admin },
  {
    key: 'messagesApi',
    to: '/messages-api',
    section: 'admin',
    show: (c) => admin(c) && Boolean(c.plan?.useExternalApi),
  },
  { key: 'financeiro', to: '/financeiro', section: 'admin', show: admin },
  { key: 'settings', to: '/settings', section: 'admin', show: admin },
  { key: 'audit', to: '/audit', section: 'admin', show: (c) => c.super || can(c.profile, 'audit:view') },
  { key: 'fleet', to: '/fleet', section: 'admin', show: (c) => c.super },
];

export const visibleMenu = (ctx: MenuContext) =>
  MENU.filter((m) => (ctx.restricted ? m.key === 'financeiro' : m.show(ctx)));

/** The signed-in user's menu context (the side menu and the command bar's pages list the same entries). */
export const menuContextOf = (auth: {
  user: { profile?: string; super?: boolean } | null;
  plan: MenuContext['plan'];
  restricted?: boolean;
}): MenuContext => ({
  profile: auth.user?.profile,
  super: Boolean(auth.user?.super),
  plan: auth.plan,
  cshow: localStorage.getItem('cshow') !== null,
  restricted: auth.restricted,
});

/**
 * The Connections warning: any connection waiting for a QR scan, pairing, down, timed out or opening,
 * a Cloud API number Meta flagged or rates low, or a number WhatsApp locked new chats from.
 */
export const connectionsNeedAttention = (
  list: ({ status: string; reachoutLockedUntil?: string } & CloudHealth)[] | undefined,
  now = Date.now(),
) =>
  (list ?? []).some(
    (c) =>
      (CONNECTION_WARNING_STATUSES as string[]).includes(c.status as ConnectionStatus) ||
      cloudNeedsAttention(c) ||
      (c.reachoutLockedUntil !== undefined && Date.parse(c.reachoutLockedUntil) > now),
  );

/** The chat item's dot: the user has unread internal chat messages (2.2). */
export const hasUnreadChats = (
  records: { users?: { userId: number; unreads?: number }[] }[] | undefined,
  userId: number | undefined,
) => (records ?? []).some((chat) => (chat.users ?? []).some((u) => u.userId === userId && (u.unreads ?? 0) > 0));
