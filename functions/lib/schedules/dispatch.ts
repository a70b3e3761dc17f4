import { fillVariables, protocolOf } from '#shared/message-variables';
import { contactFieldsFor } from '../custom-fields/variables';
import { queueTimeouts, queues as queueDefs } from '../../../infra/manifest';
import { query, updateItem, type Item } from '../db';
import { nowIso } from '../keys';
import { log } from '../log';
import { enqueue } from '../queue';
import { publish } from '../realtime';
import { requireContact } from '../contacts/repo';
import { getDefaultWhatsapp, listWhatsapps } from '../whatsapp/repo';
import { conversationPk, newMessageId } from '../messages/repo';
import { findOrCreateTicket } from '../tickets/service';
import { assertMaySend } from '../tickets/access';
import { sendMessage } from '../messages/send';
import {
  DUE_SHARDS,
  dueIndex,
  dueShardPk,
  dueUpperBound,
  getStoredSchedule,
  scheduleKeys,
  toStoredSchedule,
  type StoredSchedule,
} from './repo';
import { presentOne } from './service';

/**
 * The way out for scheduled messages (ARCHITECTURE.md "Schedules and campaigns"): the table is the
 * truth and the queue a wake-up signal. The timer claims every due schedule (PENDENTE -> AGENDADA,
 * conditional, so two timer runs never both enqueue one) and enqueues it; the consumer sends it
 * through the normal outbound path and records ENVIADA with sentAt, or ERRO once the queue's last
 * retry has failed.
 *
 * A claimed schedule stays on the due index with a recheck time after every retry of its job should
 * have ended. Found there still AGENDADA, its job was lost (a consumer timeout or throttling sent it
 * to the dead-letter queue without reaching the last-attempt branch): it is enqueued again, or marked
 * ERRO when a send had started (it may have gone out) or after MAX_REQUEUES, so no schedule stays
 * AGENDADA forever.
 */
export const SCHEDULE_QUEUE = 'schedules';
/** At most this many schedules per shard and timer run; the rest wait for the next minute. */
const MAX_PER_SHARD = 500;
/** Lost jobs enqueued again before the schedule is given up as ERRO. */
const MAX_REQUEUES = 2;

export interface ScheduleJob {
  companyId: number;
  scheduleId: number;
}

/** Claims and enqueues everything due at `now` (including what fell due while the system was down). */
export async function dispatchDueSchedules(now = new Date()): Promise<{ enqueued: number }> {
  const bound = dueUpperBound(now.toISOString());
  let enqueued = 0;
  for (let shard = 0; shard < DUE_SHARDS; shard++) {
    let startKey: Item | undefined;
    let seen = 0;
    do {
      const out = await query({ index: 'gsi4', pk: dueShardPk(shard), sk: { lte: bound }, limit: 100, startKey });
      for (const item of out.items) {
        const s = toStoredSchedule(item);
        const handedOver =
          s.status === 'AGENDADA' ? await recover(s, item.gsi4sk, now) : await claim(s, item.gsi4sk, now);
        if (handedOver) enqueued++;
      }
      seen += out.items.length;
      startKey = out.lastKey;
    } while (startKey && seen < MAX_PER_SHARD);
  }
  return { enqueued };
}

/** When every delivery of a job enqueued at `now` has ended, with a margin for the timer's minute. */
function recheckAt(now: Date) {
  const def = queueDefs.find((q) => q.name === SCHEDULE_QUEUE)!;
  const seconds = (def.maxReceiveCount ?? 5) * queueTimeouts(def).visibilityTimeoutSeconds * 2 + 120;
  return new Date(now.getTime() + seconds * 1000).toISOString();
}

async function claim(s: StoredSchedule, dueKey: string, now: Date): Promise<boolean> {
  const key = scheduleKeys(s.companyId, s.id);
  // The due key in the condition makes an edit between the Query and the claim win (new sendAt).
  const claimed = await updateItem(key, {
    set: {
      status: 'AGENDADA',
      queuedAt: nowIso(),
      updatedAt: nowIso(),
      ...dueIndex(s.companyId, s.id, recheckAt(now)),
    },
    condition: '#status = :pending AND #due = :due',
    conditionNames: { '#status': 'status', '#due': 'gsi4sk' },
    conditionValues: { ':pending': 'PENDENTE', ':due': dueKey },
  });
  if (!claimed) return false;
  try {
    await enqueue(SCHEDULE_QUEUE, { companyId: s.companyId, scheduleId: s.id } satisfies ScheduleJob);
    return true;
  } catch (err) {
    // Not handed over: back on the due index for the next run.
    log.error('schedule not enqueued', { companyId: s.companyId, scheduleId: s.id, error: (err as Error).message });
    await updateItem(key, {
      set: { status: 'PENDENTE', ...dueIndex(s.companyId, s.id, s.sendAt) },
      condition: 'attribute_exists(pk)',
    });
    return false;
  }
}

/** A claimed schedule whose job never finished: enqueue it again, or give up as ERRO. */
async function recover(s: StoredSchedule, dueKey: string, now: Date): Promise<boolean> {
  const requeues = s.requeues ?? 0;
  if (s.sendingAt || requeues >= MAX_REQUEUES) {
    log.warn('schedule job lost; marked as failed', { companyId: s.companyId, scheduleId: s.id, requeues });
    await finish(s, { status: 'ERRO', error: 'ERR_SENDING_WAPP_MSG' }, ['sendingAt'], dueKey);
    return false;
  }
  const moved = await updateItem(scheduleKeys(s.companyId, s.id), {
    set: { requeues: requeues + 1, queuedAt: nowIso(), ...dueIndex(s.companyId, s.id, recheckAt(now)) },
    condition: '#status = :queued AND #due = :due AND attribute_not_exists(#sending)',
    conditionNames: { '#status': 'status', '#due': 'gsi4sk', '#sending': 'sendingAt' },
    conditionValues: { ':queued': 'AGENDADA', ':due': dueKey },
  });
  if (!moved) return false;
  log.warn('schedule job lost; enqueued again', { companyId: s.companyId, scheduleId: s.id, requeues: requeues + 1 });
  await enqueue(SCHEDULE_QUEUE, { companyId: s.companyId, scheduleId: s.id } satisfies ScheduleJob);
  return true;
}

const maxAttempts = () => queueDefs.find((q) => q.name === SCHEDULE_QUEUE)?.maxReceiveCount ?? 5;

/** `{{protocol}}`: the date and the ticket id, as the product numbers its services. */

/**
 * Whether the contact wrote to the company (any connection) at or after `since`: one Query per
 * connection on the contact's conversation from the message id of that second on, keeping the
 * contact's own messages. Run at send time for schedules that ask for it, so the inbound path pays
 * nothing.
 */
export async function contactWroteSince(companyId: number, contactId: number, since: string) {
  const from = `M#${newMessageId(Date.parse(since), 0).slice(0, 9)}`;
  for (const w of await listWhatsapps(companyId)) {
    let startKey: Item | undefined;
    do {
      const out = await query({
        pk: conversationPk(companyId, contactId, w.id),
        sk: { between: [from, 'M#~'] },
        filter: '#fromMe = :false',
        filterNames: { '#fromMe': 'fromMe' },
        filterValues: { ':false': false },
        projection: ['id'],
        limit: 100,
        startKey,
      });
      if (out.items.length) return true;
      startKey = out.lastKey;
    } while (startKey);
  }
  return false;
}

/**
 * Sends one claimed schedule. `attempt` is the queue's receive count: a failure throws so the
 * queue retries with back-off, and the last allowed attempt records ERRO instead of throwing.
 *
 * With `cancelIfCustomerWrites`, a contact's message since the schedule was saved cancels it
 * (CANCELADA, reason customerWrote) instead.
 *
 * At most once: `sendingAt` is set before the outbound path runs and cleared when it fails
 * cleanly. A delivery that finds it still set means an earlier attempt died mid-send (it may have
 * gone out), so the schedule is marked ERRO rather than sent a second time.
 */
export async function sendSchedule(job: ScheduleJob, attempt: number) {
  const s = await getStoredSchedule(job.companyId, job.scheduleId);
  // Deleted, edited back to PENDENTE, or already done: nothing to send (redelivery is harmless).
  if (s?.status !== 'AGENDADA') return;
  const key = scheduleKeys(s.companyId, s.id);
  const started = await updateItem(key, {
    set: { sendingAt: nowIso() },
    condition: '#status = :queued AND attribute_not_exists(#sending)',
    conditionNames: { '#status': 'status', '#sending': 'sendingAt' },
    conditionValues: { ':queued': 'AGENDADA' },
  });
  if (!started) {
    const current = await getStoredSchedule(s.companyId, s.id);
    if (current?.status === 'AGENDADA' && current.sendingAt) {
      log.warn('schedule attempt interrupted earlier; not resent', { companyId: s.companyId, scheduleId: s.id });
      await finish(s, { status: 'ERRO', error: 'ERR_SENDING_WAPP_MSG', attempts: attempt });
    }
    return;
  }
  let ticketId: number;
  try {
    if (s.cancelIfCustomerWrites && (await contactWroteSince(s.companyId, s.contactId, s.armedAt ?? s.createdAt))) {
      log.info('schedule canceled: the contact wrote first', { companyId: s.companyId, scheduleId: s.id });
      await finish(s, { status: 'CANCELADA', cancelReason: 'customerWrote', canceledAt: nowIso() }, ['sendingAt']);
      return;
    }
    const whatsapp = await getDefaultWhatsapp(s.companyId);
    const contact = await requireContact(s.companyId, s.contactId);
    const { ticket } = await findOrCreateTicket(s.companyId, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      isGroup: contact.isGroup,
      fromMe: true,
    });
    // the soft lock: a conversation someone else holds is theirs, whoever wrote the schedule
    assertMaySend({ userId: s.userId }, ticket);
    const now = new Date();
    const body = fillVariables(s.body, {
      contactName: contact.name,
      now,
      protocol: protocolOf(now, ticket.id),
      contactFields: await contactFieldsFor(s.companyId, contact, s.body),
    });
    const media = s.mediaPath
      ? {
          key: s.mediaPath,
          mimetype: s.mediaMimetype ?? 'image/jpeg',
          fileName: s.mediaName ?? 'image.jpg',
          kind: 'image' as const,
        }
      : undefined;
    await sendMessage(s.companyId, ticket, { body, media, userId: s.userId, automatic: true });
    ticketId = ticket.id;
  } catch (err) {
    const error = (err as { code?: string }).code ?? (err as Error).message;
    log.warn('schedule send failed', { companyId: s.companyId, scheduleId: s.id, attempt, error });
    // a clean failure: nothing went out, so the next attempt may send
    await updateItem(key, { remove: ['sendingAt'], condition: 'attribute_exists(pk)' });
    // a locked ticket is a rule, not a hiccup: recorded at once rather than retried
    if (attempt < maxAttempts() && error !== 'ERR_TICKET_LOCKED') throw err;
    await finish(s, { status: 'ERRO', error, attempts: attempt });
    return;
  }
  await finish(s, { status: 'ENVIADA', sentAt: nowIso(), ticketId }, ['sendingAt']);
}

/** Records the outcome and takes the schedule off the due index; `dueKey` guards against a concurrent recovery. */
async function finish(s: StoredSchedule, set: Record<string, unknown>, remove: string[] = [], dueKey?: string) {
  const updated = await updateItem(scheduleKeys(s.companyId, s.id), {
    set: { ...set, updatedAt: nowIso() },
    remove: [...remove, 'gsi4pk', 'gsi4sk'],
    condition: dueKey ? '#status = :queued AND #due = :due' : '#status = :queued',
    conditionNames: { '#status': 'status', ...(dueKey ? { '#due': 'gsi4sk' } : {}) },
    conditionValues: { ':queued': 'AGENDADA', ...(dueKey ? { ':due': dueKey } : {}) },
  });
  if (updated) await publish(s.companyId, 'schedule', { action: 'update', schedule: await presentOne(updated) });
}
