import { z } from 'zod';
import { MSG, cursorQuery } from './common';

/** Quick messages (attendance.md 3, management.md "Quick messages" and section 3). */
export interface QuickMessage {
  id: number;
  companyId: number;
  userId: number;
  shortcode: string;
  message: string;
  /** shared with every user of the company; otherwise only its owner (and admins) see it */
  geral: boolean;
  status?: string;
  mediaPath: string | null;
  mediaName: string | null;
  isMedia: boolean;
  /** short-lived download URL of the media, when there is one */
  mediaUrl?: string;
  createdAt: string;
  updatedAt: string;
}

const geral = z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => v === true || v === 'true');

export const QuickMessageBody = z.object({
  shortcode: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(100, MSG.long),
  message: z.string().max(4096, MSG.long).optional(),
  geral: geral.optional(),
  status: z.string().max(20).optional(),
});
export const QuickMessageUpdateBody = QuickMessageBody.partial();

export const QuickMessagesQuery = cursorQuery.extend({
  searchParam: z.string().trim().toLowerCase().max(100).optional(),
  userId: z.coerce.number().int().positive().optional(),
});
export const QuickMessagesListQuery = z.object({
  userId: z.coerce.number().int().positive().optional(),
  companyId: z.coerce.number().optional(),
});
