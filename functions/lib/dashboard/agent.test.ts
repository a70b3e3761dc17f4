import { describe, expect, it } from 'vitest';
import type { StoredTicket } from '../tickets/repo';
import { agentChangeFields, agentMetrics, agentRatingFields, resolvedByAtClose } from './agent';

const ticket = (over: Partial<StoredTicket> = {}) =>
  ({ status: 'pending', userId: null, promptId: 7, aiAnswered: true, ...over }) as StoredTicket;

describe("the AI agent's metrics (issue 39 item 6)", () => {
  it("a close is the agent's only while its prompt holds the ticket, it answered and no person ever touched it", () => {
    const closed = (t: StoredTicket) => ({ ...t, status: 'closed', promptId: null }) as StoredTicket;
    expect(resolvedByAtClose(ticket(), closed(ticket()))).toBe('agent');
    // a person took it at some point (sticky), holds it, closes it as its user, or wrote on it
    expect(resolvedByAtClose(ticket({ personTouched: true }), closed(ticket()))).toBe('person');
    expect(resolvedByAtClose(ticket({ userId: 3 }), closed(ticket({ userId: 3 })))).toBe('person');
    expect(resolvedByAtClose(ticket(), closed(ticket({ userId: 3 })))).toBe('person');
    // handed off already, or never answered by the AI: nobody's
    expect(resolvedByAtClose(ticket({ promptId: null }), closed(ticket()))).toBeUndefined();
    expect(resolvedByAtClose(ticket({ aiAnswered: false }), closed(ticket()))).toBeUndefined();
  });

  it('a hand-off is the prompt letting go of a ticket that stays open; a close counts the side that resolved it', () => {
    expect(agentChangeFields(ticket(), ticket({ promptId: null }))).toEqual({ aiHandOffs: 1 });
    expect(agentChangeFields(ticket(), ticket({ status: 'closed', promptId: null, resolvedBy: 'agent' }))).toEqual({
      aiResolved: 1,
    });
    expect(agentChangeFields(ticket({ promptId: null }), ticket({ status: 'closed', resolvedBy: 'person' }))).toEqual({
      peopleResolved: 1,
    });
    expect(agentChangeFields(ticket(), ticket({ promptId: 8 }))).toEqual({});
  });

  it('ratings go to the side that resolved the ticket; rates and CSAT are null without data', () => {
    expect(agentRatingFields({ resolvedBy: 'agent' }, 1)).toEqual({ aiRatingCount: 1, aiRatingSum: 1, aiSatisfied: 0 });
    expect(agentRatingFields({ resolvedBy: 'person' }, 3)).toEqual({
      peopleRatingCount: 1,
      peopleRatingSum: 3,
      peopleSatisfied: 1,
    });
    expect(agentRatingFields({}, 3)).toEqual({});
    const none = agentMetrics(() => 0);
    expect(none.handOffRate).toBeNull();
    expect(none.csat.agent).toEqual({ ratings: 0, satisfied: 0, percent: null, average: null });
    const counts: Record<string, number> = {
      aiResolved: 2,
      aiHandOffs: 1,
      aiRatingCount: 3,
      aiRatingSum: 7,
      aiSatisfied: 2,
    };
    const m = agentMetrics((f) => counts[f] ?? 0);
    expect(m.handOffRate).toBe(33.3);
    expect(m.csat.agent).toEqual({ ratings: 3, satisfied: 2, percent: 66.7, average: 2.33 });
  });
});
