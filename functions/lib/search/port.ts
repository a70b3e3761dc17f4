import type { TicketViewer } from '#shared/visibility';
import type { ParsedQuery } from './query';

/**
 * The search port (docs/search.md): what the app needs of a full-text index. Two adapters: the
 * embedded index (memory.ts, local runs and tests) and OpenSearch (opensearch.ts, AWS). Both are fed
 * by the same handler from the table's change stream (feed.ts) and hold, per document, the ticket
 * facts the filters and the visibility rules read, kept current when the ticket or contact changes.
 */

/** What filters and visibility read of a ticket, and what a hit shows of it. */
export interface TicketFacts {
  ticketId: number;
  uuid: string;
  status: string;
  queueId: number | null;
  userId: number | null;
  whatsappId: number;
  tagIds: number[];
  contactId: number;
  contactName: string;
  contactNumber: string;
}

export interface SearchDoc extends TicketFacts {
  /** `m:<message id>` or `n:<note id>` */
  docId: string;
  companyId: number;
  kind: 'message' | 'note';
  /** the message id (or the note id as a string) */
  sourceId: string;
  /** text, caption and file name of a message; the note's text */
  text: string;
  /** ISO time */
  createdAt: string;
}

export interface SearchFilters {
  /** ISO times, inclusive */
  from?: string;
  to?: string;
  queueIds?: number[];
  userIds?: number[];
  whatsappIds?: number[];
  tagIds?: number[];
  statuses?: string[];
  kind?: 'message' | 'note';
}

export interface SearchRequest {
  companyId: number;
  query: ParsedQuery;
  filters: SearchFilters;
  viewer: TicketViewer;
  limit: number;
  /** the adapter's own opaque position (after the last hit returned) */
  after?: string;
}

/** [start, end) offsets into `text` of matched words */
export type Range = [number, number];

export interface SearchHit {
  doc: SearchDoc;
  /** where the query matched in `text`, and in the contact's name and number */
  highlights: { text: Range[]; contactName: Range[]; contactNumber: Range[] };
}

export interface SearchPage {
  hits: SearchHit[];
  /** pass back as `after` for the next page; absent on the last page */
  next?: string;
}

export interface SearchPort {
  /** adds or replaces documents (by docId) */
  index(docs: SearchDoc[]): Promise<void>;
  remove(companyId: number, docIds: string[]): Promise<void>;
  /** a ticket changed (status, queue, attendant, tags, connection, its contact's name or number): its documents follow */
  updateTicket(companyId: number, facts: TicketFacts): Promise<void>;
  search(request: SearchRequest): Promise<SearchPage>;
  /** drops a company's whole index (reindex starts from nothing) */
  clear(companyId: number): Promise<void>;
}
