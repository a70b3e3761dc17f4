/**
 * Automatic assignment (issue 24). A queue whose `assignment` is `roundRobin` hands each waiting
 * ticket (pending, in the queue, nobody on it) to its attendants in turn: online, not away, below
 * their maxOpenTickets (round-robin.ts). A ticket nobody can take waits, oldest first, and is
 * handed out when a slot frees up (a close, a transfer away, a delete, a capacity raised) or an
 * attendant comes online (`onUserAvailable`). The handing-out is the accept of the chosen user
 * through `updateTicket`, so it publishes what a manual accept publishes; its transaction moves the
 * user's open-ticket counter only while `open < max` and the queue's round-robin pointer only from
 * the value read (both on the list counters' item, counts.ts), so concurrent arrivals never overfill
 * anyone: the loser reads again and chooses again.
 */
import type { Ticket } from '#shared/schemas/tickets';
import type { User } from '#shared/schemas/accounts';
import { query, type Item } from '../db';
import { AppError } from '../errors';
import { log } from '../log';
import { userStatuses } from '../presence/status';
import { getUser, listUsers } from '../accounts/users';
import { getQueue, getQueues } from '../queues/repo';
import { ticketIndex, type StoredTicket } from './repo';
import { chooseAssignee } from './round-robin';
import { readAssignState } from './counts';
import { onTicketMoved, updateTicket } from './service';

/** A ticket automatic assignment may hand out: pending in a queue, nobody on it, no bot holding it. */
export const isWaiting = (t: Pick<Ticket, 'status' | 'userId' | 'queueId' | 'useIntegration'>) =>
  t.status === 'pending' && t.userId === null && t.queueId !== null && !t.useIntegration;

/**
 * Which of `userIds` can take a ticket now: those whose status is `online` (a live socket in a tab
 * that is not idle; presence/status.ts). One Query (the company's users' presence attributes).
 */
export async function availableUserIds(companyId: number, userIds: number[]): Promise<Set<number>> {
  const statuses = await userStatuses(companyId);
  return new Set(userIds.filter((id) => statuses.get(id) === 'online'));
}

type Outcome = 'assigned' | 'nobody' | 'gone';

/** Each lost race means another hand-out succeeded; a short random pause spreads the retries. */
const ASSIGN_ATTEMPTS = 20;
const backoff = (attempt: number) => new Promise((r) => setTimeout(r, Math.random() * Math.min(100, 10 * attempt)));

/**
 * Hands one ticket of the queue to the next attendant: reads who is in the queue, available and
 * below capacity, then accepts the ticket in their name. A lost race (the slot or the pointer moved)
 * reads again; 'gone' when the ticket stopped waiting meanwhile.
 */
async function assignOne(companyId: number, queueId: number, ticketId: number, users: User[]): Promise<Outcome> {
  const members = users.filter((u) => u.queueIds?.includes(queueId));
  if (!members.length) return 'nobody';
  for (let attempt = 0; attempt < ASSIGN_ATTEMPTS; attempt++) {
    if (attempt) await backoff(attempt);
    const [state, available] = await Promise.all([
      readAssignState(companyId),
      availableUserIds(
        companyId,
        members.map((u) => u.id),
      ),
    ]);
    const last = state.lastOf(queueId);
    const chosen = chooseAssignee(
      members.map((u) => ({ userId: u.id, open: state.openOf(u.id), max: u.maxOpenTickets ?? null })),
      available,
      last,
    );
    if (chosen === null) return 'nobody';
    const user = members.find((u) => u.id === chosen)!;
    try {
      const ticket = await updateTicket(
        companyId,
        ticketId,
        { status: 'open', userId: chosen },
        { userId: chosen, profile: user.profile },
        undefined,
        {
          only: (t) => isWaiting(t) && t.queueId === queueId,
          check: { userId: chosen, max: user.maxOpenTickets ?? null, queueId, last },
        },
      );
      return ticket.userId === chosen && ticket.status === 'open' ? 'assigned' : 'gone';
    } catch (err) {
      if (err instanceof AppError && err.code === 'ERR_CONFLICT') continue;
      throw err;
    }
  }
  log.warn('automatic assignment gave up after concurrent hand-outs', { companyId, queueId, ticketId });
  return 'nobody';
}

/** One waiting ticket of the queue to its next attendant in turn (an automation rule's round robin). */
export async function assignInTurn(companyId: number, queueId: number, ticketId: number) {
  return assignOne(companyId, queueId, ticketId, await listUsers(companyId));
}

const WAITING_PAGE = 25;

/**
 * Hands the queue's waiting tickets out, oldest activity first, until nobody can take one. Safe to
 * run twice at once: each hand-out re-checks that its ticket still waits in this queue. `also`: a
 * ticket that just started waiting, tried last if the index does not list it yet.
 */
export async function drainQueue(companyId: number, queueId: number, known: { users?: User[]; also?: number } = {}) {
  const queue = await getQueue(companyId, queueId);
  if (queue?.assignment !== 'roundRobin') return;
  const users = known.users ?? (await listUsers(companyId));
  let startKey: Item | undefined;
  let seenAlso = false;
  do {
    const page = await query<StoredTicket>({
      index: 'gsi2',
      pk: ticketIndex.queue(companyId, queueId, 'pending'),
      forward: true,
      limit: WAITING_PAGE,
      startKey,
    });
    for (const ticket of page.items.filter(isWaiting)) {
      seenAlso ||= ticket.id === known.also;
      if ((await assignOne(companyId, queueId, ticket.id, users)) === 'nobody') return;
    }
    startKey = page.lastKey;
  } while (startKey);
  if (known.also !== undefined && !seenAlso) await assignOne(companyId, queueId, known.also, users);
}

/**
 * A user came online, back from away, got room (a ticket of theirs closed or moved away, a higher
 * capacity) or joined queues: their automatic queues' waiting tickets go out (to them while they
 * have room, or in turn with the others available). Called by the presence work, $connect, the
 * ticket and user services.
 */
export async function onUserAvailable(companyId: number, userId: number, known?: User): Promise<void> {
  const user = known ?? (await getUser(companyId, userId));
  if (!user?.queueIds?.length) return;
  const queues = (await getQueues(companyId, user.queueIds)).filter((q) => q.assignment === 'roundRobin');
  if (!queues.length) return;
  const users = await listUsers(companyId);
  for (const queue of queues) await drainQueue(companyId, queue.id, { users });
}

/** The attendant a ticket counts against: an open ticket's user, else nobody. */
const holderOf = (t: Pick<Ticket, 'status' | 'userId'> | null) =>
  t && t.status === 'open' && t.userId !== null ? t.userId : null;

/**
 * What a ticket's change means for assignment (before null: created; after null: deleted): a ticket
 * that starts waiting in a queue is handed out; a slot its attendant gave up is filled. Runs after
 * the change is stored and published; a failure is logged and leaves the ticket waiting.
 */
async function ticketMoved(companyId: number, before: StoredTicket | null, after: StoredTicket | null) {
  try {
    const freed = holderOf(before);
    if (freed !== null && freed !== holderOf(after)) await onUserAvailable(companyId, freed);
    if (after && isWaiting(after) && !(before && isWaiting(before) && before.queueId === after.queueId))
      await drainQueue(companyId, after.queueId!, { also: after.id });
  } catch (err) {
    log.error('automatic assignment failed', {
      companyId,
      ticketId: (after ?? before)?.id,
      error: (err as Error).message,
    });
  }
}

onTicketMoved(ticketMoved);
