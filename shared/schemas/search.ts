import { z } from 'zod';
import { TICKET_STATUSES } from '../constants';
import { cursorQuery, idList } from './common';

/**
 * GET /search: the company's messages and internal notes by their words (docs/search.md). Words are
 * ANDed, accents and case ignored; `"a phrase"`, `word*` and the last word are prefixes.
 * `from`/`to` are days (YYYY-MM-DD, `to` inclusive) or ISO times.
 */
const dayOrTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/)
  .refine((v) => !Number.isNaN(Date.parse(v)));

export const SearchQuery = cursorQuery.and(
  z.object({
    // not trimmed: a trailing space ends the last word (it is no longer a prefix)
    q: z.string().min(1).max(200),
    from: dayOrTime.optional(),
    to: dayOrTime.optional(),
    queueId: idList.optional(),
    userId: idList.optional(),
    whatsappId: idList.optional(),
    tagId: idList.optional(),
    status: z.union([z.array(z.enum(TICKET_STATUSES)), z.enum(TICKET_STATUSES).transform((s) => [s])]).optional(),
    kind: z.enum(['message', 'note']).optional(),
  }),
);
export type SearchQuery = z.infer<typeof SearchQuery>;

/** [start, end) offsets of matched words */
export type SearchRange = [number, number];

export interface SearchResult {
  /** the message id, or the note id */
  id: string;
  kind: 'message' | 'note';
  text: string;
  createdAt: string;
  ticket: {
    id: number;
    uuid: string;
    status: string;
    queueId: number | null;
    userId: number | null;
    whatsappId: number;
  };
  contact: { id: number; name: string; number: string };
  highlights: { text: SearchRange[]; contactName: SearchRange[]; contactNumber: SearchRange[] };
}

export interface SearchResponse {
  results: SearchResult[];
  hasMore: boolean;
  cursor?: string;
}
