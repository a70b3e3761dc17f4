import { z } from 'zod';
import { TICKET_STATUSES } from '../constants';
import { bodyId, cursorQuery, idList, isoDate, MSG, nullableBodyId, queryBool } from './common';
import { TicketTag } from './tags';
import { CUSTOM_FIELD_KEY, MAX_LINK_VALUE } from './custom-fields';

export const TicketStatus = z.enum(TICKET_STATUSES);

/** Ticket (attendance.md 3). Contact, queue, user and connection are small snapshots kept on the ticket. */
export const Ticket = z.object({
  id: z.number(),
  uuid: z.string(),
  companyId: z.number(),
  status: TicketStatus,
  userId: z.number().nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  queueId: z.number().nullable(),
  queue: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
  whatsappId: z.number(),
  whatsapp: z.object({ id: z.number(), name: z.string() }).nullable(),
  contactId: z.number(),
  contact: z.object({
    id: z.number(),
    name: z.string(),
    number: z.string(),
    profilePicUrl: z.string(),
    isGroup: z.boolean().optional(),
  }),
  lastMessage: z.string(),
  unreadMessages: z.number(),
  isGroup: z.boolean(),
  chatbot: z.boolean(),
  useIntegration: z.boolean(),
  promptId: z.number().nullable(),
  integrationId: z.number().nullable(),
  tags: z.array(TicketTag),
  /** the current service round (queued -> started -> finished, then rated) */
  queuedAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  rating: z.number().nullable(),
  ratingAt: z.string().nullable(),
  /**
   * Service levels (issue 24, shared/sla.ts), set when the ticket enters a queue with a policy: when
   * the clock started, the due instants, the first human reply of the round and the breach marks.
   * Absent on tickets that never met a policy.
   */
  slaStartAt: z.string().nullable().optional(),
  slaFirstResponseDueAt: z.string().nullable().optional(),
  slaResolutionDueAt: z.string().nullable().optional(),
  firstResponseAt: z.string().nullable().optional(),
  slaFirstResponseBreached: z.boolean().optional(),
  slaResolutionBreached: z.boolean().optional(),
  /**
   * When the customer last wrote on this ticket (or, for a ticket an attendant opened, on the
   * contact's latest earlier ticket on the connection): a Cloud API number's 24-hour window follows
   * from it (shared/cloud-window.ts). Absent until the customer writes.
   */
  customerMessageAt: z.string().nullable().optional(),
  /** when a person last wrote to the customer (the automation rules' `no_customer_reply`) */
  agentMessageAt: z.string().nullable().optional(),
  /** values of the company's ticket custom fields by key (issue 40; shared/schemas/custom-fields.ts) */
  customFields: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  /**
   * Snooze (issue 40 item 6): an open ticket put aside until `until` (null: until the customer
   * writes, which wakes any snooze), by `userId` at `at`. A snoozed ticket is listed apart from the
   * open ones (tickets/repo.ts listStatus). Absent when not snoozed; a transition clears it.
   */
  snooze: z.object({ until: z.string().nullable(), at: z.string(), userId: z.number() }).nullable().optional(),
  /** The snooze ended by itself: its time came or the customer wrote. Cleared by the next snooze or transition. */
  snoozeWoke: z
    .object({ at: z.string(), by: z.enum(['time', 'customer']) })
    .nullable()
    .optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Ticket = z.infer<typeof Ticket>;

/** New ticket modal (attendance.md 2.7): created open; the queue is required unless admin (checked by the service). */
export const TicketCreateBody = z.object({
  contactId: bodyId,
  queueId: nullableBodyId.optional(),
  whatsappId: nullableBodyId.optional(),
  userId: nullableBodyId.optional(),
  status: z.literal('open').optional(),
});

/** PUT /tickets/{id} (attendance.md 7): the transition is derived from these fields (4.2). */
export const TicketUpdateBody = z.object({
  status: TicketStatus.optional(),
  userId: nullableBodyId.optional(),
  queueId: nullableBodyId.optional(),
  whatsappId: nullableBodyId.optional(),
  useIntegration: z.boolean().optional(),
  promptId: nullableBodyId.optional(),
  integrationId: nullableBodyId.optional(),
  chatbot: z.boolean().optional(),
});
export type TicketUpdateBody = z.infer<typeof TicketUpdateBody>;

export const TicketsQuery = cursorQuery.extend({
  searchParam: z.string().max(100).optional(),
  tags: idList.optional(),
  users: idList.optional(),
  queueIds: idList.optional(),
  status: TicketStatus.optional(),
  /** tickets created on this day (YYYY-MM-DD) */
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}/)
    .optional(),
  /** tickets updated on this day (YYYY-MM-DD) */
  updatedAt: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}/)
    .optional(),
  showAll: queryBool.optional(),
  withUnreadMessages: queryBool.optional(),
  /** with status open: the snoozed tickets instead of the open ones (issue 40 item 6) */
  snoozed: queryBool.optional(),
  /** tickets whose custom field `field` holds `fieldValue` (read as the field's type), or any value when empty */
  field: z.string().regex(CUSTOM_FIELD_KEY, MSG.invalid).optional(),
  fieldValue: z.string().max(MAX_LINK_VALUE, MSG.long).optional(),
});
export type TicketsQuery = z.infer<typeof TicketsQuery>;

/** The details of ERR_OTHER_OPEN_TICKET: who holds the contact's open ticket. */
export interface OtherOpenTicket {
  ticket: {
    id: number;
    uuid: string;
    user: { id: number; name: string } | null;
    queue: { id: number; name: string } | null;
  };
}

export const RATINGS = [1, 2, 3] as const;
export type Rating = (typeof RATINGS)[number];

/** The longest a ticket may be snoozed. */
export const SNOOZE_MAX_DAYS = 90;
/**
 * POST /tickets/{id}/snooze: until a time (within SNOOZE_MAX_DAYS, checked by the service against
 * its clock: ERR_SNOOZE_TIME_INVALID), or until the customer writes. A customer's message wakes
 * any snooze.
 */
export const TicketSnoozeBody = z
  .object({
    until: isoDate.optional(),
    untilCustomerWrites: z.boolean().optional(),
  })
  .refine((b) => b.until !== undefined || b.untilCustomerWrites === true, { message: MSG.required, path: ['until'] });
export type TicketSnoozeBody = z.infer<typeof TicketSnoozeBody>;
