import { z } from 'zod';
import { MSG, cursorQuery } from './common';

/** Priority 1 high, 2 medium, 3 low (management.md 3, 9); new announcements are low. */
export const ANNOUNCEMENT_PRIORITIES = [1, 2, 3] as const;
export const ANNOUNCEMENT_DEFAULT_PRIORITY = 3;
/** The media an announcement accepts (management.md 5: png, jpg, jpeg). */
export const ANNOUNCEMENT_MEDIA_TYPES = ['image/png', 'image/jpeg'] as const;

export const Announcement = z.object({
  id: z.number(),
  title: z.string(),
  text: z.string(),
  priority: z.number(),
  status: z.boolean(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  /** a short-lived download URL of the media */
  mediaUrl: z.string().optional(),
  /** whether the reading user has opened it (lists for the popover) */
  read: z.boolean().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Announcement = z.infer<typeof Announcement>;

const priority = z.coerce
  .number({ error: MSG.invalid })
  .int(MSG.invalid)
  .refine((p) => (ANNOUNCEMENT_PRIORITIES as readonly number[]).includes(p), MSG.invalid);

/** status arrives as a boolean, or as 'active'/'inactive', 'true'/'false' from forms. */
const status = z
  .union([z.boolean(), z.enum(['true', 'false', 'active', 'inactive'])])
  .transform((v) => v === true || v === 'true' || v === 'active');

/** Announcement form (management.md 5): title and text required. */
export const AnnouncementBody = z.object({
  title: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(200, MSG.long),
  text: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(5000, MSG.long),
  priority: priority.optional(),
  status: status.optional(),
});
export const AnnouncementUpdateBody = AnnouncementBody.partial();

export const AnnouncementsQuery = cursorQuery.extend({
  searchParam: z.string().max(100).optional(),
  /** `active`: only the active ones, as every user sees them (the top-bar popover) */
  status: z.enum(['active', 'all']).optional(),
});
