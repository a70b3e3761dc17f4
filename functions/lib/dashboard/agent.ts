import { isSatisfied } from '#shared/sla';
import type { AgentMetrics } from '#shared/schemas/knowledge';
import type { StoredTicket } from '../tickets/repo';
import { nowIso } from '../keys';
import { bumpDay, dayOf, type DayCounter } from './aggregates';

/**
 * How the AI agent does, for managers (issue 39 item 6), kept as counters on the dashboard's day
 * items (aggregates.ts) by the writes that change them, so the dashboard reads them with the rest:
 * - `aiResolved` / `peopleResolved`: closes, on the close day, of tickets the agent resolved (it held
 *   the ticket when it was closed, it answered on it, and no person ever took it or sent a message
 *   on it) and of tickets a person handled;
 * - `aiHandOffs`: the agent handed a ticket to people (the prompt let go of it without a close), on
 *   the day it did;
 * - `aiRatingCount` / `aiRatingSum` / `aiSatisfied` and the `people…` twins: the customers' ratings
 *   (1-3, the existing rating after close) of tickets each resolved, on the rating day;
 * - `aiCalls` / `aiTokens`: every model call of the company (prompts/spend.ts meteredChat), on its day.
 * The ticket keeps what decides it: `aiAnswered` and `personTouched` (sticky, set by the messages and
 * writes that make them true) and `resolvedBy` (set by the close, cleared by a reopen).
 */
export type ResolvedBy = 'agent' | 'person';

/** A person holds the ticket now or did at some point (the sticky flag is written with the ticket). */
export const personTouched = (t: Pick<StoredTicket, 'userId' | 'personTouched'>) =>
  Boolean(t.personTouched) || (t.userId !== null && t.userId !== undefined);

/**
 * Who resolved a ticket being closed (`before`: as it was, `after`: closed): the agent when its
 * prompt still held it, it had answered and no person ever touched it; a person when one did;
 * nobody (a close by a timer of a ticket nobody handled) otherwise.
 */
export function resolvedByAtClose(before: StoredTicket, after: StoredTicket): ResolvedBy | undefined {
  if (personTouched(before) || personTouched(after)) return 'person';
  if (before.promptId !== null && before.promptId !== undefined && before.aiAnswered) return 'agent';
  return undefined;
}

/** The counters a ticket change adds (close, hand-off), for aggregates' one ADD on today's item. */
export function agentChangeFields(before: StoredTicket, after: StoredTicket): Partial<Record<DayCounter, number>> {
  const out: Partial<Record<DayCounter, number>> = {};
  const closed = before.status !== 'closed' && after.status === 'closed';
  if (closed && after.resolvedBy === 'agent') out.aiResolved = 1;
  if (closed && after.resolvedBy === 'person') out.peopleResolved = 1;
  const released = before.promptId !== null && before.promptId !== undefined && after.promptId === null;
  if (released && after.status !== 'closed') out.aiHandOffs = 1;
  return out;
}

/** A customer's rating (1-3) of a resolved ticket, on the side that resolved it. */
export function agentRatingFields(t: Pick<StoredTicket, 'resolvedBy'>, rating: number) {
  if (!t.resolvedBy) return {};
  const side = t.resolvedBy === 'agent' ? 'ai' : 'people';
  return {
    [`${side}RatingCount`]: 1,
    [`${side}RatingSum`]: rating,
    [`${side}Satisfied`]: isSatisfied(rating) ? 1 : 0,
  } as Partial<Record<DayCounter, number>>;
}

/**
 * The agent handed a ticket to people, counted on today's item. The ticket service calls it for
 * every hand-off that releases the prompt (`promptId` back to null without a close, as
 * assistant.ts handToPeople does); an agent that hands off some other way calls it itself.
 */
export function countAgentHandOff(companyId: number, at = nowIso()) {
  return bumpDay(companyId, dayOf(at), { aiHandOffs: 1 });
}

/** A model call's cost, counted on today's item (beside the month's spend item). */
export function countAiCall(companyId: number, tokens: number, at = nowIso()) {
  return bumpDay(companyId, dayOf(at), { aiCalls: 1, aiTokens: tokens });
}

const share = (part: number, whole: number) => (whole ? Math.round((part / whole) * 1000) / 10 : null);

function csat(count: number, sum: number, satisfied: number) {
  return {
    ratings: count,
    satisfied,
    percent: share(satisfied, count),
    average: count ? Math.round((sum / count) * 100) / 100 : null,
  };
}

/** The period's agent metrics from the summed day counters (`total(field)`). */
export function agentMetrics(total: (field: string) => number): AgentMetrics {
  const resolved = total('aiResolved');
  const handOffs = total('aiHandOffs');
  return {
    resolved,
    peopleResolved: total('peopleResolved'),
    handOffs,
    handOffRate: share(handOffs, handOffs + resolved),
    csat: {
      agent: csat(total('aiRatingCount'), total('aiRatingSum'), total('aiSatisfied')),
      people: csat(total('peopleRatingCount'), total('peopleRatingSum'), total('peopleSatisfied')),
    },
    spend: { calls: total('aiCalls'), tokens: total('aiTokens') },
  };
}
