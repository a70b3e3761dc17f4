import type { User } from '#shared/schemas/accounts';
import type { PushKind } from '#shared/schemas/push';
import type { Ticket } from '#shared/schemas/tickets';
import { batchGet } from '../db';
import { AppError } from '../errors';
import { listUsers, toUser, userKeys } from '../accounts/users';
import { getStoredTicket, toTicket } from '../tickets/repo';
import { enqueue } from '../queue';
import { eachLimit } from '../each-limit';
import { log } from '../log';
import { vapidKeys, type VapidKeys } from '../secrets';
import { PUSH_QUEUE, type Notification, type PushJob } from './jobs';
import { pendingTicketRecipients } from './recipients';
import {
  deleteSubscription,
  getSubscription,
  listCompanySubscriptions,
  listUserSubscriptions,
  type StoredSubscription,
} from './repo';
import { sendPush } from './sender';
import { pushTexts } from './texts';

/** Deliveries in flight at once per job. */
export const DELIVERY_CONCURRENCY = 8;
/** A failed delivery goes back on the queue, sent again this much later (then by SQS's own retries). */
const RETRY_DELAY_SECONDS = 10;
/** Seconds a push service keeps a notification for a device that is offline. */
const TTL_SECONDS: Record<PushKind, number> = {
  pendingTicket: 60 * 60,
  ticketMessage: 6 * 60 * 60,
  chatMention: 6 * 60 * 60,
  slaBreach: 60 * 60,
  connectionAlert: 24 * 60 * 60,
};
/** Up to this many users, their devices are read user by user; more, the company's devices at once. */
const PER_USER_READS = 3;

interface Target {
  sub: StoredSubscription;
  notification: Notification;
}

const ticketLink = (t: Pick<Ticket, 'uuid'>) => ({ url: `/tickets/${t.uuid}`, tag: `ticket-${t.uuid}` });

/** One push job from the queue: works out the devices, sends, removes the gone ones. */
export async function runPushJob(job: PushJob) {
  // no keys yet (the seed fills them after a deployment): the queue tries again
  const keys = await vapidKeys();
  if (!keys) throw new Error('no VAPID keys');
  if (job.kind === 'deliver') return redeliver(job, keys);
  const targets = await targetsOf(job);
  const failed: Target[] = [];
  await eachLimit(targets, DELIVERY_CONCURRENCY, async (target) => {
    if (!(await deliver(target, keys))) failed.push(target);
  });
  // each failed device is retried on its own, so the ones that got it are not sent it twice
  for (const { sub, notification } of failed)
    await enqueue(
      PUSH_QUEUE,
      { kind: 'deliver', companyId: sub.companyId, userId: sub.userId, subscriptionId: sub.id, notification },
      { delaySeconds: RETRY_DELAY_SECONDS },
    );
  return { devices: targets.length, failed: failed.length };
}

/** Sends to one device; false when it should be tried again. A gone device is removed. */
async function deliver({ sub, notification }: Target, keys: VapidKeys): Promise<boolean> {
  const result = await sendPush(sub, notification, keys);
  if (result.outcome === 'sent') return true;
  if (result.outcome === 'gone') {
    log.info('push subscription gone', { subscriptionId: sub.id, userId: sub.userId, status: result.status });
    await forget(sub);
    return true;
  }
  log.warn('push delivery failed', {
    subscriptionId: sub.id,
    userId: sub.userId,
    kind: notification.payload.kind,
    status: result.status,
    error: result.error,
  });
  return false;
}

async function redeliver(job: Extract<PushJob, { kind: 'deliver' }>, keys: VapidKeys) {
  const sub = await getSubscription(job.companyId, job.subscriptionId);
  // unsubscribed or handed to another user meanwhile: nothing to retry
  if (!sub || sub.userId !== job.userId) return { devices: 0, failed: 0 };
  if (!(await deliver({ sub, notification: job.notification }, keys))) throw new Error('push delivery failed again');
  return { devices: 1, failed: 0 };
}

async function forget(sub: StoredSubscription) {
  await deleteSubscription(sub.companyId, sub.userId, sub.id).catch((err) => {
    if (!(err instanceof AppError && err.code === 'ERR_PUSH_SUBSCRIPTION_NOT_FOUND')) throw err;
  });
}

async function targetsOf(job: Exclude<PushJob, { kind: 'deliver' }>): Promise<Target[]> {
  switch (job.kind) {
    case 'pendingTicket': {
      const ticket = await loadTicket(job.companyId, job.ticketId);
      // accepted, closed or moved since: the job for where it went covers it
      if (ticket?.status !== 'pending' || ticket.queueId !== job.queueId || ticket.userId !== job.userId) return [];
      const users = pendingTicketRecipients(await listUsers(job.companyId), ticket);
      return devicesOf(job.companyId, users, 'pendingTicket', (user) => {
        const t = pushTexts(user.language);
        return {
          payload: {
            kind: 'pendingTicket',
            title: t.pendingTicket,
            body: `${ticket.contact.name} · ${ticket.queue?.name ?? t.noQueue}`,
            ...ticketLink(ticket),
          },
          urgency: 'normal',
          ttl: TTL_SECONDS.pendingTicket,
        };
      });
    }
    case 'ticketMessage': {
      const users = await usersById(job.companyId, [job.userId]);
      return devicesOf(job.companyId, users, 'ticketMessage', (user) => ({
        payload: {
          kind: 'ticketMessage',
          title: job.contactName,
          body:
            job.reason === 'snoozeWoke'
              ? pushTexts(user.language).snoozeWoke
              : job.preview || pushTexts(user.language).media,
          ...ticketLink({ uuid: job.ticketUuid }),
        },
        urgency: 'high',
        ttl: TTL_SECONDS.ticketMessage,
      }));
    }
    case 'chatMention': {
      const users = await usersById(job.companyId, job.userIds);
      return devicesOf(job.companyId, users, 'chatMention', (user) => ({
        payload: {
          kind: 'chatMention',
          title: pushTexts(user.language).mention(job.senderName, job.chatTitle),
          body: job.preview,
          url: `/chats/${job.chatUuid}`,
          tag: `chat-${job.chatUuid}`,
        },
        urgency: 'high',
        ttl: TTL_SECONDS.chatMention,
      }));
    }
    case 'slaBreach': {
      const ticket = await loadTicket(job.companyId, job.ticketId);
      if (!ticket) return [];
      const ids = job.userIds ?? (ticket.userId !== null ? [ticket.userId] : undefined);
      const users = ids
        ? await usersById(job.companyId, ids)
        : pendingTicketRecipients(await listUsers(job.companyId), ticket);
      return devicesOf(job.companyId, users, 'slaBreach', (user) => ({
        payload: {
          kind: 'slaBreach',
          title: pushTexts(user.language).slaBreach,
          body: ticket.contact.name,
          ...ticketLink(ticket),
        },
        urgency: 'high',
        ttl: TTL_SECONDS.slaBreach,
      }));
    }
    case 'connectionAlert': {
      const admins = (await listUsers(job.companyId)).filter((u) => u.profile === 'admin');
      return devicesOf(job.companyId, admins, 'connectionAlert', (user) => {
        const t = pushTexts(user.language);
        return {
          payload: {
            kind: 'connectionAlert',
            title: t.connectionAlert(job.connectionName),
            body: t.connectionReason[job.reason](job.quality ?? ''),
            url: '/connections',
            tag: `connection-${job.whatsappId}`,
          },
          urgency: 'normal',
          ttl: TTL_SECONDS.connectionAlert,
        };
      });
    }
  }
}

async function loadTicket(companyId: number, ticketId: number) {
  const stored = await getStoredTicket(companyId, ticketId);
  return stored ? toTicket(stored) : undefined;
}

/** The company's users among `ids` (a deleted user is no longer told anything). */
async function usersById(companyId: number, ids: number[]): Promise<User[]> {
  if (!ids.length) return [];
  return (await batchGet([...new Set(ids)].map((id) => userKeys(companyId, id)))).map(toUser);
}

/** The devices of `users` that want `kind`, each with its user's notification. */
async function devicesOf(
  companyId: number,
  users: User[],
  kind: PushKind,
  notificationFor: (user: User) => Notification,
): Promise<Target[]> {
  if (!users.length) return [];
  const byId = new Map(users.map((u) => [u.id, u]));
  const subs =
    users.length <= PER_USER_READS
      ? (await Promise.all(users.map((u) => listUserSubscriptions(companyId, u.id)))).flat()
      : await listCompanySubscriptions(companyId, kind);
  return (
    subs
      // a kind added after the device subscribed is on until its user turns it off
      .filter((sub) => (sub.preferences[kind] ?? true) && byId.has(sub.userId))
      .map((sub) => ({ sub, notification: notificationFor(byId.get(sub.userId)!) }))
  );
}
