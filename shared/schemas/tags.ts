import { z } from 'zod';
import { MSG, bodyId, cursorQuery, idList, nullableBodyId } from './common';

/** Tag (management.md 3): kanban is 0 or 1; ticketsCount is kept by the ticket-tag writes. */
export const Tag = z.object({
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  color: z.string(),
  kanban: z.union([z.literal(0), z.literal(1)]),
  userId: z.number().nullable(),
  ticketsCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Tag = z.infer<typeof Tag>;

/** The tag chip a ticket carries. */
export const TicketTag = z.object({ id: z.number(), name: z.string(), color: z.string() });
export type TicketTag = z.infer<typeof TicketTag>;

const kanbanFlag = z
  .union([z.literal(0), z.literal(1), z.boolean(), z.enum(['0', '1'])])
  .transform((v) => (v === true || v === 1 || v === '1' ? 1 : 0) as 0 | 1);

/** Tag form (management.md 5): name required, at least 3 characters. */
export const TagBody = z.object({
  name: z.string({ error: MSG.required }).trim().min(3, MSG.short).max(50, MSG.long),
  color: z.string().trim().max(30).optional(),
  kanban: kanbanFlag.optional(),
  userId: nullableBodyId.optional(),
});
export const TagUpdateBody = TagBody.partial();

export const TagsQuery = cursorQuery.extend({ searchParam: z.string().max(100).optional() });

export const TagSyncBody = z.object({
  ticketId: bodyId,
  /** the ticket's full tag set after the change: tag objects or ids */
  tags: z.array(z.union([z.object({ id: bodyId }).passthrough(), bodyId])).max(50),
});

export const KanbanQuery = z.object({
  queueIds: idList.optional(),
  showAll: z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .optional()
    .transform((v) => v === true || v === 'true'),
  cursor: z.string().optional(),
});
