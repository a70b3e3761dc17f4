import type { ErrorCode } from './errors';
import type { Permission } from './permissions';

/**
 * Realtime events (attendance.md section 4.3, management.md section 7). Each event travels on the
 * company's channel as `{ event, data }`, where `event` is `company-<companyId>-<name>` as the
 * clients of the well-known inboxes expect, and `data` carries an `action`.
 */
export const EVENT_NAMES = [
  'ticket',
  'appMessage',
  'contact',
  'user',
  'queue',
  'tag',
  'quickMessage',
  'setting',
  'schedule',
  'whatsapp',
  'whatsappSession',
  'auth',
  'chat',
  'announcement',
  'contactList',
  'contactListItem',
  'campaign',
  'file',
  'prompt',
  'queueIntegration',
  'payment',
  'ticketNote',
  // issue 24: a user's status (online, away, offline), who views a ticket, who is typing in it
  'presence',
  'ticketViewers',
  'typing',
  /** a service-level deadline missed (issue 24): to the ticket's attendant and the admins */
  'sla',
  /** a Cloud API connection's message templates (issue 36): one changed (`update`, `delete`) or all synced (`reload`) */
  'whatsappTemplate',
  /** the agent's unanswered questions (issue 39): one drafted into an article (`update`) or dismissed (`delete`); to admins */
  'knowledgeUnanswered',
  /** the company's monthly AI cap was reached (issue 39): to admins, once per month */
  'aiBudget',
  /** the knowledge base (issue 39): an article or document created, changed or deleted; to admins */
  'knowledge',
  /** a custom field definition created, changed or deleted (issue 40); to the whole company */
  'customField',
  /** a contact segment created, changed or deleted (issue 40); to the whole company */
  'segment',
  /** an automation rule created, changed or deleted (issue 40); to admins */
  'automationRule',
  /** a rule ran on a ticket (issue 40): the run as logged; to those who may see the ticket */
  'automationRun',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export type EventAction =
  | 'create'
  | 'update'
  | 'delete'
  | 'updateUnread'
  | 'reload'
  | 'new-message'
  | 'CONCLUIDA'
  | 'breach';

export interface RealtimeMessage<T = unknown> {
  event: string;
  data: T & { action: EventAction };
}

export const channelEvent = (companyId: number, name: EventName) => `company-${companyId}-${name}`;

/**
 * Who may receive an event. Every event is company-scoped; an audience narrows it further.
 * - `ticket`: connections that may see the ticket (room joined, queue membership, role)
 * - `user`: every connection of one user
 * - `users`: every connection of these users (the members of an internal chat)
 * - `admins`: admin connections only
 * - `permission`: connections whose profile holds the permission (`without`: those whose profile lacks it)
 * - `superUsers`: connections of super users only
 */
export type Audience =
  | { kind: 'company' }
  | { kind: 'user'; userId: number; exceptConnectionId?: string }
  | { kind: 'users'; userIds: number[] }
  | { kind: 'admins' }
  | { kind: 'permission'; permission: Permission; without?: boolean }
  | { kind: 'superUsers' }
  | {
      kind: 'ticket';
      ticketId: number;
      status: string;
      queueId: number | null;
      userId: number | null;
    };

/** Messages a browser sends on the socket (the `$default` route). */
export const CLIENT_ACTIONS = [
  'joinChatBox',
  'leaveChatBox',
  'joinTickets',
  'leaveTickets',
  'joinNotification',
  'leaveNotification',
  'userStatus',
  'ping',
  // issue 24: typing in a chat box (value: ticket id; the browser sends at most one per TYPING_SIGNAL_MS),
  // and this tab's idleness (no input for the company's awayAfterMinutes) and activity again
  'typing',
  'idle',
  'active',
] as const;
export type ClientAction = (typeof CLIENT_ACTIONS)[number];

/**
 * The server's answer on the socket to a browser's message (the message's shape: schemas/socket.ts):
 * `ready` when done, `error` with a catalogued code when refused. Neither carries anything the
 * browser sent but the action, and that only once checked against CLIENT_ACTIONS. `typing` gets no
 * answer.
 */
export type SocketReply =
  | { event: 'ready'; data: { action: ClientAction } }
  | { event: 'error'; data: { action: ClientAction | null; error: ErrorCode } };
