/** Shapes the attendance screens read (attendance.md section 3; field names as the spec gives them). */
export interface Tag {
  id: number;
  name: string;
  color: string;
}
export interface Queue {
  id: number;
  name: string;
  color: string;
}
export interface Contact {
  id: number;
  name: string;
  number: string;
  email?: string | null;
  profilePicUrl?: string | null;
  isGroup?: boolean;
  extraInfo?: { id?: number; name: string; value: string }[];
  /** custom field values by key (issue 40) */
  customFields?: Record<string, string | number | boolean>;
}
export type TicketStatus = 'open' | 'pending' | 'closed';
export interface Ticket {
  id: number;
  uuid: string;
  status: TicketStatus;
  userId: number | null;
  user?: { id: number; name: string } | null;
  queueId: number | null;
  queue?: Queue | null;
  whatsappId?: number | null;
  whatsapp?: { id?: number; name: string } | null;
  contactId: number;
  contact?: Contact;
  lastMessage?: string | null;
  unreadMessages?: number;
  updatedAt: string;
  createdAt?: string;
  isGroup?: boolean;
  chatbot?: boolean;
  useIntegration?: boolean;
  promptId?: number | null;
  integrationId?: number | null;
  tags?: Tag[];
  /** messages of the ticket the undelivered watchdog flagged */
  undeliveredMessages?: number;
  /** when the customer last wrote (a Cloud API number's 24-hour window: tickets/useCloudWindow.ts) */
  customerMessageAt?: string | null;
  /** service levels (issue 24): see web/src/sla/deadline.ts */
  slaStartAt?: string | null;
  slaFirstResponseDueAt?: string | null;
  slaResolutionDueAt?: string | null;
  firstResponseAt?: string | null;
  slaFirstResponseBreached?: boolean;
  slaResolutionBreached?: boolean;
  /** custom field values by key (issue 40) */
  customFields?: Record<string, string | number | boolean>;
  /** snoozed until `until` (null: until the customer writes); null or absent: not snoozed (issue 40) */
  snooze?: { until: string | null; at: string; userId: number } | null;
  /** the snooze ended by itself (its time came, or the customer wrote): the list marks it */
  snoozeWoke?: { at: string; by: 'time' | 'customer' } | null;
}
export interface Message {
  id: number | string;
  ticketId: number;
  body: string;
  /** the WhatsApp id once known (a message without one cannot be reacted to yet) */
  wid?: string | null;
  fromMe: boolean;
  read?: boolean;
  ack?: number;
  mediaType?: string | null;
  mediaUrl?: string | null;
  isDeleted?: boolean;
  isEdited?: boolean;
  quotedMsg?: Message | null;
  quotedMsgId?: number | string | null;
  contact?: { id?: number; name: string } | null;
  error?: string | null;
  /** no delivery ack a few minutes after the send (the undelivered watchdog) */
  undelivered?: boolean;
  /** the message that resent this one */
  resentAs?: string | null;
  /** a customer's audio as text, when an AI prompt transcribed it */
  transcript?: string | null;
  /** a placeholder for a customer's message that could not be decrypted (the real one replaces it) */
  undecryptable?: boolean;
  /** a connection with two transports: which one carried it (`failedOver`: moved to the Cloud API) */
  transport?: 'web' | 'cloud';
  failedOver?: boolean;
  reactions?: { by: string; emoji: string; fromMe: boolean; at: string; userId?: number }[];
  /** an AI agent's answer: the knowledge articles it was drawn from (issue 39) */
  knowledgeArticles?: { id: number; title: string }[];
  createdAt: string;
  ticket?: Pick<Ticket, 'id' | 'status' | 'createdAt' | 'updatedAt'> & { closedAt?: string | null };
}
export interface Page<T> {
  items: T[];
  hasMore: boolean;
  cursor?: string | null;
  /** total matching, when the API counts (badges) */
  count?: number;
}

/** The API pages lists as `{ tickets, hasMore, cursor }` (or `{ items, ... }`); normalise once. */
export function toPage<T>(data: unknown, key: string): Page<T> {
  const d = (data ?? {}) as Record<string, unknown>;
  const items = (Array.isArray(data) ? data : (d[key] ?? d.items ?? d.records ?? [])) as T[];
  return {
    items,
    hasMore: Boolean(d.hasMore),
    cursor: (d.cursor as string | null | undefined) ?? null,
    ...(typeof d.count === 'number' ? { count: d.count } : {}),
  };
}
