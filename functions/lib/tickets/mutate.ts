/**
 * Changes to one stored ticket that other modules make too (messages, tags, the chatbot's rating):
 * kept apart from service.ts, whose lifecycle rules send messages and ask for ratings, so those
 * modules can change a ticket without importing it back.
 */
import type { Ticket, Rating } from '#shared/schemas/tickets';
import { transact, updateItem, type TransactItem } from '../db';
import { AppError } from '../errors';
import { nowIso } from '../keys';
import { bumpDays, dayOf, userFields } from '../dashboard/aggregates';
import { agentRatingFields } from '../dashboard/agent';
import { requireStoredTicket, roundKeys, ticketPutTx, toTicket, type StoredTicket } from './repo';
import { publishToTicket } from './events';
import { listCountTx, type AssignCheck } from './counts';
import { countRating } from '../sla/metrics';

/**
 * Read-modify-write of one ticket with optimistic locking (`version`), retried on a concurrent
 * write. The list counters (counts.ts, also the attendants' open-ticket counts) move in the same
 * transaction. `extra` adds items to it; `mapConflict` names the error of a failed extra item
 * (index within `extra`). `assign`: an automatic assignment's conditions on the counters (the
 * assignee below capacity, the queue's pointer unmoved); when one fails: ERR_CONFLICT.
 */
export async function mutateTicket(
  companyId: number,
  id: number,
  change: (before: StoredTicket) => StoredTicket | null | Promise<StoredTicket | null>,
  opts: {
    extra?: (before: StoredTicket, after: StoredTicket) => TransactItem[];
    mapConflict?: (index: number, before: StoredTicket, after: StoredTicket) => Promise<AppError> | AppError;
    /** the ticket as the caller just read it: the first attempt skips the read (the version check still guards it) */
    initial?: StoredTicket;
    assign?: AssignCheck;
  } = {},
): Promise<{ before: StoredTicket; after: StoredTicket; changed: boolean }> {
  for (let attempt = 0; attempt < 6; attempt++) {
    const before = attempt === 0 && opts.initial ? opts.initial : await requireStoredTicket(companyId, id);
    const next = await change({ ...before, tags: [...before.tags], tagIds: [...(before.tagIds ?? [])] });
    if (!next) return { before, after: before, changed: false };
    const after: StoredTicket = { ...next, version: before.version + 1 };
    const extra = opts.extra?.(before, after) ?? [];
    const counts = listCountTx(before, after, opts.assign);
    let conflict: number | undefined;
    try {
      await transact([ticketPutTx(after, before.version), ...extra, ...counts], (index) => {
        conflict = index;
        return new AppError('ERR_CONFLICT');
      });
      return { before, after, changed: true };
    } catch (err) {
      if (conflict === undefined || !(err instanceof AppError)) {
        // a transaction met another on the same items (the list counters' item is shared): retry shortly
        if (err instanceof AppError && err.code === 'ERR_CONFLICT') {
          await new Promise((r) => setTimeout(r, Math.random() * 20 * (attempt + 1)));
          continue;
        }
        throw err;
      }
      if (conflict === 0) continue; // someone wrote the ticket in between: read it again
      if (conflict > extra.length) throw new AppError('ERR_CONFLICT'); // the assignee's last slot or the turn went meanwhile
      throw opts.mapConflict ? await opts.mapConflict(conflict - 1, before, after) : err;
    }
  }
  throw new AppError('ERR_CONFLICT');
}

/**
 * Reading a ticket's messages: unreadMessages back to 0 and `ticket` updateUnread to its viewers.
 * `known`: the ticket as the reader just read it (its version still guards the write).
 */
export async function resetUnread(companyId: number, ticketId: number, known?: StoredTicket): Promise<Ticket> {
  const { after, changed } = await mutateTicket(
    companyId,
    ticketId,
    (t) => (t.unreadMessages > 0 ? { ...t, unreadMessages: 0 } : null),
    { initial: known },
  );
  const ticket = toTicket(after);
  if (changed) await publishToTicket(companyId, ticket, 'ticket', { action: 'updateUnread', ticketId, ticket });
  return ticket;
}

/** The contact's answer to the rating question (1-3): feeds the attendant's rating on the dashboard. */
export async function recordRating(companyId: number, ticketId: number, rating: Rating): Promise<void> {
  const now = nowIso();
  const { after, changed } = await mutateTicket(companyId, ticketId, (t) =>
    t.rating !== null && t.rating !== undefined ? null : { ...t, rating, ratingAt: now },
  );
  if (!changed) return;
  await updateItem(roundKeys(companyId, ticketId, after.round), {
    set: { rating, ratingAt: now, ticketId, userId: after.userId },
  });
  // the attendant's rating and the AI agent's CSAT split (dashboard/agent.ts) in one ADD on today's item
  await Promise.all([
    bumpDays(companyId, [
      [
        dayOf(now),
        {
          ...(after.userId !== null ? userFields(after.userId, { ratingSum: rating, ratingCount: 1 }) : {}),
          ...agentRatingFields(after, rating),
        },
      ],
    ]),
    countRating(companyId, after, rating, now),
  ]);
}
