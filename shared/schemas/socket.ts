import { z } from 'zod';
import { TICKET_STATUSES } from '../constants';

/**
 * What a browser may send on the socket (the `$default` route; issue 35): only the rooms the product
 * has. A chat box is one ticket, named by its id (a positive integer, or its decimal digits); a
 * ticket list is one status tab; the notification room has no name. Anything else is refused whole,
 * and nothing of it is stored or sent back.
 */
const ticketId = z.union([
  z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .regex(/^[1-9]\d{0,14}$/)
    .transform(Number),
]);

export const ClientMessage = z.union([
  z.object({ action: z.enum(['joinChatBox', 'leaveChatBox', 'typing']), value: ticketId }),
  z.object({ action: z.enum(['joinTickets', 'leaveTickets']), value: z.enum(TICKET_STATUSES) }),
  // these take no value: one sent along is ignored, never kept
  z.object({ action: z.enum(['joinNotification', 'leaveNotification', 'userStatus', 'ping', 'idle', 'active']) }),
]);
export type ClientMessage = z.infer<typeof ClientMessage>;
