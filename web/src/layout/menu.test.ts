import { describe, expect, test } from 'vitest';
import { connectionsNeedAttention, hasUnreadChats, visibleMenu, type MenuContext } from './menu';

const keys = (ctx: Partial<MenuContext>) =>
  visibleMenu({ profile: 'user', super: false, plan: {}, cshow: false, ...ctx }).map((m) => m.key);

describe('side menu gating (attendance.md 2.2)', () => {
  test('an attendant sees the user items but no dashboard and no admin section', () => {
    expect(keys({})).toEqual(['tickets', 'quickMessages', 'todolist', 'contacts', 'tags', 'helps', 'notifications']);
  });
  test('the admin section needs drawer-admin-items:view', () => {
    const admin = keys({ profile: 'admin' });
    expect(admin).toEqual(
      expect.arrayContaining(['dashboard', 'connections', 'files', 'queues', 'users', 'financeiro', 'settings']),
    );
    expect(admin).not.toContain('messagesApi');
  });
  test('plan flags gate kanban, schedules, internal chat, prompts, integrations, external API and campaigns', () => {
    const plan = {
      useKanban: true,
      useSchedules: true,
      useInternalChat: true,
      useOpenAi: true,
      useIntegrations: true,
      useExternalApi: true,
      useCampaigns: true,
    };
    expect(keys({ plan })).toEqual(
      expect.arrayContaining(['kanban', 'schedules', 'chats', 'prompts', 'queueIntegration']),
    );
    expect(keys({ plan })).not.toContain('messagesApi');
    expect(keys({ profile: 'admin', plan })).toEqual(
      expect.arrayContaining(['messagesApi', 'campaignsList', 'contactLists', 'campaignsConfig']),
    );
  });
  test('the knowledge base is for admins on plans with useOpenAi', () => {
    expect(keys({ profile: 'admin', plan: { useOpenAi: true } })).toContain('knowledge');
    expect(keys({ profile: 'admin', plan: {} })).not.toContain('knowledge');
    expect(keys({ profile: 'user', plan: { useOpenAi: true } })).not.toContain('knowledge');
  });
  test('the cshow storage flag shows campaigns without the plan flag', () => {
    expect(keys({ profile: 'admin', cshow: true })).toContain('campaignsList');
    expect(keys({ profile: 'admin' })).not.toContain('campaignsList');
  });
  test('announcements only for super users', () => {
    expect(keys({ super: true })).toContain('announcements');
    expect(keys({ profile: 'admin' })).not.toContain('announcements');
  });
  test('the connections warning is raised by qrcode, PAIRING, DISCONNECTED, TIMEOUT or OPENING', () => {
    for (const status of ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'])
      expect(connectionsNeedAttention([{ status: 'CONNECTED' }, { status }])).toBe(true);
    expect(connectionsNeedAttention([{ status: 'CONNECTED' }])).toBe(false);
    expect(connectionsNeedAttention(undefined)).toBe(false);
  });
  test('the connections warning is raised while WhatsApp locks new chats from a number, and not after', () => {
    const now = Date.parse('2026-03-10T12:00:00.000Z');
    const until = '2026-03-10T13:00:00.000Z';
    expect(connectionsNeedAttention([{ status: 'CONNECTED', reachoutLockedUntil: until }], now)).toBe(true);
    expect(connectionsNeedAttention([{ status: 'CONNECTED', reachoutLockedUntil: until }], Date.parse(until) + 1)).toBe(
      false,
    );
  });
  test('the connections warning is raised by a connected Cloud API number Meta flagged or rates RED, and drops once unflagged', () => {
    const line = { status: 'CONNECTED', provider: 'cloud', cloudQuality: 'GREEN' };
    expect(connectionsNeedAttention([line, { ...line, cloudQualityEvent: 'FLAGGED' }])).toBe(true);
    expect(connectionsNeedAttention([line, { ...line, cloudQuality: 'RED' }])).toBe(true);
    expect(connectionsNeedAttention([line, { ...line, cloudQualityEvent: 'UNFLAGGED' }])).toBe(false);
    expect(connectionsNeedAttention([line, { ...line, cloudQuality: 'YELLOW' }])).toBe(false);
  });
});

describe('chat menu dot (2.2)', () => {
  test('shows when the user has unread internal chat messages', () => {
    const chats = [
      {
        users: [
          { userId: 1, unreads: 0 },
          { userId: 2, unreads: 3 },
        ],
      },
    ];
    expect(hasUnreadChats(chats, 2)).toBe(true);
    expect(hasUnreadChats(chats, 1)).toBe(false);
    expect(hasUnreadChats(undefined, 1)).toBe(false);
  });
});
