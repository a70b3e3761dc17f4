import type { Ticket } from '#shared/schemas/tickets';
import type { Message } from '#shared/schemas/messages';
import { enqueue } from '../queue';
import { log } from '../log';
import { PUSH_QUEUE, type PushJob } from './jobs';

/**
 * What other modules call when something worth a push happens. Each enqueues one job (an SQS send)
 * and returns: the push queue's consumer finds who is told, their devices and preferences, and
 * sends. Best effort: a push that cannot be queued is logged, never fails the caller (an inbound
 * message, a ticket change, a chat message).
 */
async function queuePush(job: PushJob) {
  try {
    await enqueue(PUSH_QUEUE, job);
  } catch (err) {
    log.error('push not queued', { kind: job.kind, companyId: job.companyId, error: (err as Error).message });
  }
}

/** Most characters of a message a notification shows. */
export const PREVIEW_CHARS = 160;
export const preview = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
};

type TicketScope = Pick<Ticket, 'id' | 'status' | 'queueId' | 'userId'>;

/**
 * A ticket became pending in a queue (new, routed by the chatbot, transferred) or pending for a
 * user: the queue's users (admins without queues: all) or that user are told.
 */
export async function notifyPendingTicket(companyId: number, before: TicketScope | null, after: TicketScope) {
  if (after.status !== 'pending') return;
  const moved = before?.status !== 'pending' || before.queueId !== after.queueId || before.userId !== after.userId;
  if (!moved) return;
  await queuePush({
    kind: 'pendingTicket',
    companyId,
    ticketId: after.id,
    queueId: after.queueId,
    userId: after.userId,
  });
}

/** A customer wrote on a ticket assigned to someone: that attendant is told. */
export async function notifyTicketMessage(
  companyId: number,
  ticket: Pick<Ticket, 'id' | 'uuid' | 'status' | 'userId' | 'contact'>,
  message: Pick<Message, 'fromMe' | 'body' | 'mediaType'>,
) {
  if (message.fromMe || ticket.userId === null || (ticket.status !== 'open' && ticket.status !== 'pending')) return;
  await queuePush({
    kind: 'ticketMessage',
    companyId,
    ticketId: ticket.id,
    ticketUuid: ticket.uuid,
    userId: ticket.userId,
    contactName: ticket.contact?.name ?? '',
    preview: preview(message.body),
  });
}

/** A ticket's snooze ended at its time (tickets/snooze.ts): its attendant is told, as for a customer's message. */
export async function notifySnoozeWoke(
  companyId: number,
  ticket: Pick<Ticket, 'id' | 'uuid' | 'status' | 'userId' | 'contact'>,
) {
  if (ticket.userId === null || ticket.status !== 'open') return;
  await queuePush({
    kind: 'ticketMessage',
    companyId,
    ticketId: ticket.id,
    ticketUuid: ticket.uuid,
    userId: ticket.userId,
    contactName: ticket.contact?.name ?? '',
    preview: '',
    reason: 'snoozeWoke',
  });
}

/** Members named with `@Name` in an internal chat message are told (the sender never). */
export async function notifyChatMention(
  companyId: number,
  chat: { uuid: string; title: string },
  sender: { id: number; name: string },
  userIds: number[],
  text: string,
) {
  const told = userIds.filter((id) => id !== sender.id);
  if (!told.length) return;
  await queuePush({
    kind: 'chatMention',
    companyId,
    chatUuid: chat.uuid,
    chatTitle: chat.title,
    senderName: sender.name,
    userIds: told,
    preview: preview(text),
  });
}

/**
 * A ticket missed its service-level deadline: `userIds`, else its attendant, else the users the
 * pending-ticket rule tells. (The SLA feature calls this once it exists.)
 */
export async function notifySlaBreach(companyId: number, ticketId: number, userIds?: number[]) {
  await queuePush({ kind: 'slaBreach', companyId, ticketId, ...(userIds ? { userIds } : {}) });
}

/**
 * A Cloud API number's health got worse (its quality rating fell, Meta flagged it or lowered its
 * messaging limit): the company's admins are told, with the connection's name and why.
 */
export async function notifyConnectionAlert(alert: Omit<Extract<PushJob, { kind: 'connectionAlert' }>, 'kind'>) {
  await queuePush({ kind: 'connectionAlert', ...alert });
}
