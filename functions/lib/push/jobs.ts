import type { PushPayload } from '#shared/schemas/push';

/** The manifest queue (standard) the push jobs go through, off every request and inbound path. */
export const PUSH_QUEUE = 'push';

export type Urgency = 'very-low' | 'low' | 'normal' | 'high';

/** One message for one device: what it shows, how urgent, how long the push service may keep it. */
export interface Notification {
  payload: PushPayload;
  urgency: Urgency;
  /** seconds */
  ttl: number;
}

/**
 * A job on the push queue. The first four are events (who is told is worked out by the consumer);
 * `deliver` is one device's notification again, after a failure other than "gone".
 */
export type PushJob =
  | { kind: 'pendingTicket'; companyId: number; ticketId: number; queueId: number | null; userId: number | null }
  | {
      kind: 'ticketMessage';
      companyId: number;
      ticketId: number;
      ticketUuid: string;
      userId: number;
      contactName: string;
      preview: string;
      /** not a message: the ticket's snooze ended (the notification says so) */
      reason?: 'snoozeWoke';
    }
  | {
      kind: 'chatMention';
      companyId: number;
      chatUuid: string;
      chatTitle: string;
      senderName: string;
      userIds: number[];
      preview: string;
    }
  | { kind: 'slaBreach'; companyId: number; ticketId: number; userIds?: number[] }
  | {
      kind: 'connectionAlert';
      companyId: number;
      whatsappId: number;
      connectionName: string;
      /**
       * the number's quality fell (to `quality`), Meta flagged it, or lowered its messaging limit
       * (Cloud API); WhatsApp locked new chats from it `until` (WhatsApp Web)
       */
      reason: 'qualityDropped' | 'flagged' | 'limitLowered' | 'reachoutLocked';
      quality?: string;
      until?: string;
    }
  | { kind: 'deliver'; companyId: number; userId: number; subscriptionId: string; notification: Notification };
