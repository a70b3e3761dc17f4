import { dueInstants, hasPolicy } from '#shared/sla';
import { deleteItem, putItem } from '../db';
import { dueAcrossShards, dueShardPk } from '../due';
import { pad } from '../keys';
import { getQueue } from '../queues/repo';
import type { StoredTicket } from '../tickets/repo';
import { countFirstResponse, countResolution } from './metrics';

/**
 * The service-level clock of a ticket (issue 24, shared/sla.ts). tickets/service.ts calls
 * `startSlaClock` inside a ticket's change (creation, transition) and `afterSlaChange` after it is
 * written; messages/send.ts calls `countIfFirstResponse` after an attendant's message.
 *
 * Wake-ups: `SLADUE#<(cid+ticketId) % 4>` / `<dueAt>#<kind>#<cid>#<pad(ticketId)>` (functions/lib/due.ts),
 * one per due instant set; the `sla` timer reads what is due and checks the ticket (sla/breach.ts),
 * so a wake-up made stale by a reply, a close or a new clock does nothing.
 */
export type SlaKind = 'firstResponse' | 'resolution';
export interface SlaWake {
  kind: SlaKind;
  companyId: number;
  ticketId: number;
  dueAt: string;
  attempts?: number;
}

export const SLA_DUE_PREFIX = 'SLADUE';
export const SLA_DUE_SHARDS = 4;
export const slaWakeKeys = (w: Pick<SlaWake, 'kind' | 'companyId' | 'ticketId' | 'dueAt'>) => ({
  pk: dueShardPk(SLA_DUE_PREFIX, (w.companyId + w.ticketId) % SLA_DUE_SHARDS),
  sk: `${w.dueAt}#${w.kind}#${w.companyId}#${pad(w.ticketId)}`,
});
export const dueSlaWakes = (now: Date, limit = 100) =>
  dueAcrossShards<SlaWake>(SLA_DUE_PREFIX, SLA_DUE_SHARDS, now, limit);
export const putSlaWake = (w: SlaWake) => putItem({ ...slaWakeKeys(w), ...w });
export const removeSlaWake = (w: SlaWake) => deleteItem(slaWakeKeys(w));

const SLA_FIELDS = [
  'slaStartAt',
  'slaFirstResponseDueAt',
  'slaResolutionDueAt',
  'slaFirstResponseBreached',
  'slaResolutionBreached',
] as const;

/**
 * A ticket entering a queue (created in one, transferred, returned, reopened, requeued) starts a new
 * clock from `now` under that queue's policy, or loses its deadlines when the queue has none. A new
 * wait (queuedAt moved) also forgets the round's first response. Changes `after` in place.
 */
export async function startSlaClock(before: StoredTicket | null, after: StoredTicket, now: string) {
  const newWait = !before || after.queuedAt !== before.queuedAt;
  const entered = newWait || after.queueId !== before.queueId;
  if (!entered || after.status === 'closed') return;
  // absent, not null: the message that answers sets it where absent (tickets/repo.ts bumpTicket)
  if (newWait) delete after.firstResponseAt;
  const queue = after.queueId !== null ? await getQueue(after.companyId, after.queueId) : undefined;
  if (!queue || !hasPolicy(queue)) {
    // only tickets that had a clock carry the fields
    if (SLA_FIELDS.some((f) => after[f] !== undefined && after[f] !== null && after[f] !== false))
      Object.assign(after, {
        slaStartAt: null,
        slaFirstResponseDueAt: null,
        slaResolutionDueAt: null,
        slaFirstResponseBreached: false,
        slaResolutionBreached: false,
      });
    return;
  }
  const due = dueInstants(queue, new Date(now), queue.schedules);
  Object.assign(after, {
    slaStartAt: now,
    // already answered in this wait (a transfer to an attendant of another queue): no first-response deadline
    slaFirstResponseDueAt: after.firstResponseAt ? null : due.firstResponseDueAt,
    slaResolutionDueAt: due.resolutionDueAt,
    slaFirstResponseBreached: false,
    slaResolutionBreached: false,
  });
}

/** After a ticket write: wake-ups for the deadlines it set, and the resolution time when it closed. */
export async function afterSlaChange(before: StoredTicket | null, after: StoredTicket) {
  const wakes: Promise<unknown>[] = [];
  const arm = (kind: SlaKind, dueAt: string | null | undefined, previous: string | null | undefined) => {
    if (dueAt && dueAt !== previous)
      wakes.push(putSlaWake({ kind, companyId: after.companyId, ticketId: after.id, dueAt }));
  };
  if (after.status !== 'closed') {
    arm('firstResponse', after.slaFirstResponseDueAt, before?.slaFirstResponseDueAt);
    arm('resolution', after.slaResolutionDueAt, before?.slaResolutionDueAt);
  }
  if (after.finishedAt && !before?.finishedAt) wakes.push(countResolution(after.companyId, after) ?? Promise.resolve());
  await Promise.all(wakes);
}

/**
 * An attendant's message was stored: the ticket's move set `firstResponseAt` only where the wait
 * had none (tickets/repo.ts bumpTicket), so it is this message's time exactly when this message
 * was the first response. Then its time from the start of the wait is counted, once.
 */
export async function countIfFirstResponse(before: StoredTicket, after: StoredTicket, userId: number, at: string) {
  if (before.firstResponseAt || after.firstResponseAt !== at) return;
  await countFirstResponse(after.companyId, after, userId, at);
}
