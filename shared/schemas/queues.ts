import { z } from 'zod';
import { HHMM } from '../business-hours';
import { MSG, bodyId, bodyInt, name2to50, nullableBodyId } from './common';

/** One weekday row of business hours; an empty time means closed. */
export const DaySchedule = z.object({
  weekday: z.string().max(30),
  weekdayEn: z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']),
  startTime: z.union([z.string().regex(HHMM, MSG.invalid), z.literal('')]),
  endTime: z.union([z.string().regex(HHMM, MSG.invalid), z.literal('')]),
});
export type DaySchedule = z.infer<typeof DaySchedule>;
export const Schedules = z.array(DaySchedule).max(7);

const text = z.string().max(4096, MSG.long);

/**
 * How a queue's pending tickets reach attendants (issue 24): `manual` (they accept them) or
 * `roundRobin` (handed in turn to the queue's online attendants below their maxOpenTickets).
 */
export const ASSIGNMENT_MODES = ['manual', 'roundRobin'] as const;
export type AssignmentMode = (typeof ASSIGNMENT_MODES)[number];
/** Service-level targets (issue 24): null or '' is no target; whole minutes (1 min-7 days) and hours (1 h-1 year). */
const slaTarget = (max: number) =>
  z.union(
    [z.null(), z.literal('').transform(() => null), bodyInt.pipe(z.number().min(1, MSG.invalid).max(max, MSG.long))],
    {
      error: MSG.invalid,
    },
  );
export const SLA_MAX_FIRST_RESPONSE_MINUTES = 7 * 24 * 60;
export const SLA_MAX_RESOLUTION_HOURS = 366 * 24;

/** The queue modal (management.md "Queues", sections 3 and 5). */
export const QueueBody = z.object({
  name: name2to50,
  color: z.string({ error: MSG.required }).trim().min(3, MSG.short).max(9, MSG.long),
  greetingMessage: text.optional(),
  outOfHoursMessage: text.optional(),
  orderQueue: z
    .union([z.null(), z.literal('').transform(() => null), bodyInt.pipe(z.number().min(0).max(100000))])
    .optional(),
  schedules: Schedules.optional(),
  integrationId: nullableBodyId.optional(),
  promptId: nullableBodyId.optional(),
  assignment: z.enum(ASSIGNMENT_MODES, { error: MSG.invalid }).optional(),
  slaFirstResponseMinutes: slaTarget(SLA_MAX_FIRST_RESPONSE_MINUTES).optional(),
  slaResolutionHours: slaTarget(SLA_MAX_RESOLUTION_HOURS).optional(),
  slaBusinessHours: z.boolean({ error: MSG.invalid }).optional(),
});
export type QueueBody = z.infer<typeof QueueBody>;
export const QueueUpdateBody = QueueBody.partial();
export type QueueUpdateBody = z.infer<typeof QueueUpdateBody>;

export interface Queue {
  id: number;
  companyId: number;
  name: string;
  color: string;
  greetingMessage: string;
  outOfHoursMessage: string;
  orderQueue: number | null;
  schedules: DaySchedule[];
  integrationId: number | null;
  promptId: number | null;
  /** absent on queues made before issue 24: manual */
  assignment?: AssignmentMode;
  /** service-level policy (issue 24, shared/sla.ts); absent on queues saved before it: no targets */
  slaFirstResponseMinutes?: number | null;
  slaResolutionHours?: number | null;
  slaBusinessHours?: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A chatbot option of a queue (management.md "Queue option"); parentId null is the top level. */
export interface QueueOption {
  id: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: string;
  option: string;
  createdAt: string;
  updatedAt: string;
  children?: QueueOption[];
}

/** The parent option; null, '' or -1 is the top level. */
const parentId = z
  .union([z.null(), z.literal(''), bodyInt])
  .transform((v) => (v === '' || v === null || v === -1 ? null : v))
  .pipe(z.number().int().positive(MSG.invalid).nullable());

export const QueueOptionBody = z.object({
  queueId: bodyId,
  parentId: parentId.optional(),
  title: z.string().trim().max(200, MSG.long).optional(),
  message: text.optional(),
  option: z
    .union([z.string().trim().max(20, MSG.long), z.number()])
    .transform(String)
    .optional(),
});
export const QueueOptionUpdateBody = QueueOptionBody.omit({ queueId: true, parentId: true }).partial();

/** `GET /queue-options?queueId&parentId`: parentId -1 (or absent) is the top level. */
export const QueueOptionsQuery = z.object({
  queueId: z.coerce.number().int().positive(),
  parentId: z
    .union([z.literal(''), z.coerce.number().int()])
    .transform((v) => (v === '' || v === -1 ? null : v))
    .pipe(z.number().int().positive(MSG.invalid).nullable())
    .optional(),
});
