/** An attendant of a queue as the round robin sees them. */
export interface Candidate {
  userId: number;
  /** open tickets assigned to them now */
  open: number;
  /** most open tickets automatic assignment gives them; null: no limit */
  max: number | null;
}

/** Whether automatic assignment may give the candidate one more ticket. */
export const hasRoom = (c: Candidate) => c.max === null || c.open < c.max;

/**
 * The round-robin rule (issue 24): among the queue's attendants who are available and below their
 * capacity, the first after the one chosen last (`last`, by user id, wrapping around); the lowest
 * id when the queue never chose anyone or `last` left it. Null when nobody can take a ticket.
 */
export function chooseAssignee(candidates: Candidate[], available: Set<number>, last: number | null): number | null {
  const eligible = candidates
    .filter((c) => available.has(c.userId) && hasRoom(c))
    .map((c) => c.userId)
    .sort((a, b) => a - b);
  if (!eligible.length) return null;
  if (last === null) return eligible[0]!;
  return eligible.find((id) => id > last) ?? eligible[0]!;
}
