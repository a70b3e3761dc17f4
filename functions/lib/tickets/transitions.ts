import type { TicketStatus } from '#shared/constants';
import type { StoredTicket } from './repo';

/** The fields PUT /tickets/{id} and the inbound pipeline may change. */
export interface TicketChanges {
  status?: TicketStatus;
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number;
  useIntegration?: boolean;
  promptId?: number | null;
  integrationId?: number | null;
  chatbot?: boolean;
}

export type TransitionKind =
  | 'accept'
  | 'reopen'
  | 'return'
  | 'close'
  | 'transferQueue'
  | 'transferUser'
  | 'requeue'
  | 'edit';

/**
 * The status table of attendance.md 4.2, as a pure function of the ticket, the requested fields
 * and the acting user:
 * - pending -accept-> open, userId of the actor (queue kept)
 * - closed -reopen-> open, userId of the actor, queue kept (or the one sent)
 * - open -return-> pending, no user
 * - open|pending -resolve-> closed, user and queue kept, integration/prompt cleared
 * - open|pending -transfer to a queue without a user-> pending, userId null
 * - open|pending -transfer to a user-> open, userId set
 * Any transition ends a snooze (issue 40 item 6).
 * It also advances the service round: queuedAt when the ticket (re)enters a queue, startedAt
 * when someone takes it, finishedAt when it is closed.
 */
export function applyTransition(
  before: StoredTicket,
  changes: TicketChanges,
  actorUserId: number | null,
  now: string,
): { after: StoredTicket; kind: TransitionKind } {
  const after: StoredTicket = { ...before };
  for (const field of ['whatsappId', 'useIntegration', 'promptId', 'integrationId', 'chatbot'] as const) {
    if (changes[field] !== undefined) Object.assign(after, { [field]: changes[field] });
  }
  const queueChanged = changes.queueId !== undefined && changes.queueId !== before.queueId;
  const assignTo = changes.userId !== undefined && changes.userId !== null ? changes.userId : null;
  let kind: TransitionKind = 'edit';

  if (changes.status === 'closed') {
    if (before.status !== 'closed') {
      kind = 'close';
      after.status = 'closed';
      if (changes.userId !== undefined) after.userId = changes.userId;
      if (changes.queueId !== undefined) after.queueId = changes.queueId;
      after.useIntegration = false;
      after.promptId = null;
      after.integrationId = null;
      after.chatbot = false;
      after.finishedAt = now;
    }
  } else if (before.status === 'closed') {
    if (changes.status === 'open') {
      kind = 'reopen';
      after.status = 'open';
      after.userId = assignTo ?? actorUserId;
      if (changes.queueId !== undefined) after.queueId = changes.queueId;
      newRound(after, now, true);
    } else if (changes.status === 'pending') {
      kind = 'requeue';
      after.status = 'pending';
      after.userId = null;
      if (changes.queueId !== undefined) after.queueId = changes.queueId;
      newRound(after, now, false);
    }
  } else if (queueChanged) {
    after.queueId = changes.queueId ?? null;
    if (assignTo !== null && changes.status !== 'pending') {
      kind = 'transferUser';
      take(after, before, assignTo, now);
    } else {
      kind = 'transferQueue';
      toQueue(after, now);
    }
  } else if (changes.status === 'pending' || (changes.status === undefined && changes.userId === null)) {
    if (before.status === 'open') {
      kind = 'return';
      toQueue(after, now);
    }
  } else if (changes.status === 'open' || assignTo !== null) {
    const userId = assignTo ?? actorUserId;
    if (before.status === 'pending') {
      kind = userId === actorUserId ? 'accept' : 'transferUser';
      take(after, before, userId, now);
    } else if (userId !== before.userId) {
      kind = 'transferUser';
      after.userId = userId;
    }
  }
  // closing, returning, transferring or taking a ticket over ends its snooze and its "woke" mark
  // (null, not absent: a client merging the update into its copy sees them go)
  if (kind !== 'edit') {
    if (after.snooze) after.snooze = null;
    if (after.snoozeWoke) after.snoozeWoke = null;
  }
  return { after, kind };
}

function take(after: StoredTicket, before: StoredTicket, userId: number | null, now: string) {
  after.status = 'open';
  after.userId = userId;
  if (before.status !== 'open') after.startedAt = now;
}

function toQueue(after: StoredTicket, now: string) {
  after.status = 'pending';
  after.userId = null;
  after.queuedAt = now;
  after.startedAt = null;
}

function newRound(after: StoredTicket, now: string, started: boolean) {
  after.round = (after.round ?? 1) + 1;
  after.queuedAt = now;
  after.startedAt = started ? now : null;
  after.finishedAt = null;
  after.rating = null;
  after.ratingAt = null;
  delete after.resolvedBy;
}
