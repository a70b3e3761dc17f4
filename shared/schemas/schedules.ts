import { z } from 'zod';
import { MSG, bodyId, cursorQuery } from './common';

/**
 * Scheduled messages (attendance.md 3, 5; management.md "Schedule"). Status PENDENTE waits for its
 * time, AGENDADA is handed to the sender, ENVIADA was sent (sentAt set), ERRO failed after retries,
 * CANCELADA was not sent on purpose (`cancelReason`: the contact wrote first and the schedule asked
 * for that with `cancelIfCustomerWrites`). Saving a CANCELADA or ERRO schedule arms it again.
 */
export const SCHEDULE_STATUSES = ['PENDENTE', 'AGENDADA', 'ENVIADA', 'ERRO', 'CANCELADA'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** Why a schedule was canceled instead of sent. */
export const SCHEDULE_CANCEL_REASONS = ['customerWrote'] as const;
export type ScheduleCancelReason = (typeof SCHEDULE_CANCEL_REASONS)[number];

export interface Schedule {
  id: number;
  companyId: number;
  body: string;
  contactId: number;
  contact?: { id: number; name: string; number: string; profilePicUrl?: string } | null;
  sendAt: string;
  sentAt: string | null;
  status: ScheduleStatus;
  mediaPath: string | null;
  mediaName: string | null;
  mediaUrl?: string;
  userId: number;
  ticketId: number | null;
  /** why the last attempt failed (ERRO) */
  error?: string;
  /** not sent when the contact writes to the company after the schedule was saved and before its time */
  cancelIfCustomerWrites?: boolean;
  /** CANCELADA: why, and when */
  cancelReason?: ScheduleCancelReason | null;
  canceledAt?: string | null;
  createdAt: string;
  updatedAt: string;
}

export const ScheduleBody = z.object({
  body: z.string({ error: MSG.required }).trim().min(5, MSG.short).max(4096, MSG.long),
  contactId: bodyId,
  /** any date the browser can format; stored as ISO UTC */
  sendAt: z
    .string({ error: MSG.required })
    .min(1, MSG.required)
    .refine((v) => !Number.isNaN(Date.parse(v)), MSG.invalid)
    .transform((v) => new Date(v).toISOString()),
  cancelIfCustomerWrites: z.boolean().default(false),
});
export const ScheduleUpdateBody = ScheduleBody.extend({ cancelIfCustomerWrites: z.boolean() }).partial();

export const SchedulesQuery = cursorQuery.extend({
  searchParam: z.string().trim().toLowerCase().max(100).optional(),
  contactId: z.coerce.number().int().positive().optional(),
  userId: z.coerce.number().int().positive().optional(),
});

/** Schedule media: images only (attendance.md 5). */
export const SCHEDULE_MEDIA_EXTENSIONS = ['png', 'jpg', 'jpeg'] as const;
