import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { CloudWebhookValue, type CloudVerifyQuery } from '#shared/schemas/whatsapp-cloud';
import {
  INBOUND_QUEUE,
  ackDedupId,
  inboundGroupId,
  messageDedupId,
  type InboundEvent,
} from '#shared/whatsapp-protocol';
import { AppError } from '../errors';
import { getItem } from '../db';
import { log } from '../log';
import { enqueue } from '../queue';
import { openSecret } from '../secrets';
import { findCloudConnection, verifyTokenKeys } from '../whatsapp/repo';
import { cloudEvents } from './mapping';

/**
 * Meta's webhook for Cloud API connections (`/webhooks/whatsapp-cloud`): the verification
 * handshake, and the notifications, checked against the app secret of the connection each names
 * before anything of them reaches the product, then put on the `inbound` queue as normalized
 * events (the runner's path from there on).
 */

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest();
/** Meta batches the numbers of one app in a notification; far more than a few is no delivery of Meta's. */
const MAX_NUMBERS_PER_WEBHOOK = 25;
/** The webhook fields the product reads: customers' messages and statuses, and Coexistence echoes. */
const WEBHOOK_FIELDS = new Set(['messages', 'smb_message_echoes']);

/**
 * `GET`: Meta subscribes with `hub.mode=subscribe`, `hub.verify_token` and `hub.challenge`; the
 * challenge is echoed only for a verify token some Cloud API connection holds (found by its hash,
 * then compared in constant time). Anything else is ERR_INVALID_WEBHOOK_TOKEN.
 */
export async function answerVerification(query: CloudVerifyQuery): Promise<string> {
  const mode = query['hub.mode'];
  const token = query['hub.verify_token'];
  const challenge = query['hub.challenge'];
  if (mode !== 'subscribe' || !token || challenge === undefined) throw new AppError('ERR_INVALID_WEBHOOK_TOKEN', 403);
  const hash = sha256(token);
  const guard = await getItem<{ verifyTokenHash?: string }>(verifyTokenKeys(hash.toString('hex')));
  const stored = guard?.verifyTokenHash ? Buffer.from(guard.verifyTokenHash, 'hex') : undefined;
  if (!stored || stored.length !== hash.length || !timingSafeEqual(stored, hash))
    throw new AppError('ERR_INVALID_WEBHOOK_TOKEN', 403);
  return challenge;
}

/** `sha256=<hex>` of HMAC-SHA256 over the raw bytes, compared in constant time. */
export function signatureMatches(raw: Buffer, header: string | undefined, appSecret: string): boolean {
  const given = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '')?.[1];
  if (!given) return false;
  const expected = createHmac('sha256', appSecret).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

/** The phone-number ids a payload names (read only to find whose app secret signs it). */
function namedNumbers(raw: Buffer): string[] {
  let payload: unknown;
  try {
    payload = JSON.parse(raw.toString('utf8'));
  } catch {
    return [];
  }
  const ids = new Set<string>();
  const entries = (payload as { entry?: unknown })?.entry;
  for (const entry of Array.isArray(entries) ? entries : []) {
    const changes = (entry as { changes?: unknown })?.changes;
    for (const change of Array.isArray(changes) ? changes : []) {
      const id = (change as { value?: { metadata?: { phone_number_id?: unknown } } })?.value?.metadata?.phone_number_id;
      if (typeof id === 'string' && id) ids.add(id);
    }
  }
  return [...ids];
}

/**
 * `POST`: the raw body (as Meta sent it: never re-serialized) must carry a signature that the app
 * secret of every known connection it names accepts; otherwise ERR_INVALID_WEBHOOK_SIGNATURE and
 * nothing is stored. Then each change of field `messages` becomes events on the `inbound` queue,
 * grouped per connection and chat, deduplicated by wamid and kind of event (Meta redelivers; the
 * consumer is idempotent beyond the queue's 5-minute window). Changes of numbers no connection
 * holds are dropped. Answers how many events were queued.
 */
export async function acceptNotification(raw: Buffer, signature: string | undefined): Promise<number> {
  if (!signature) throw new AppError('ERR_INVALID_WEBHOOK_SIGNATURE');
  const named = namedNumbers(raw);
  // an unsigned caller must not make us read the table for every id it lists
  if (named.length > MAX_NUMBERS_PER_WEBHOOK) throw new AppError('ERR_INVALID_WEBHOOK_SIGNATURE');
  const found = new Map<string, { companyId: number; whatsappId: number }>();
  for (const id of named) {
    const connection = await findCloudConnection(id);
    if (!connection?.secrets.appSecretSealed) continue;
    const appSecret = await openSecret(connection.secrets.appSecretSealed);
    if (!signatureMatches(raw, signature, appSecret)) throw new AppError('ERR_INVALID_WEBHOOK_SIGNATURE');
    found.set(id, { companyId: connection.whatsapp.companyId, whatsappId: connection.whatsapp.id });
  }
  // nothing here could be checked: a payload naming no connection of ours proves nothing
  if (!found.size) throw new AppError('ERR_INVALID_WEBHOOK_SIGNATURE');

  const payload = JSON.parse(raw.toString('utf8')) as { entry?: { changes?: { field?: string; value?: unknown }[] }[] };
  let queued = 0;
  for (const entry of payload.entry ?? []) {
    for (const change of entry.changes ?? []) {
      if (!WEBHOOK_FIELDS.has(change.field ?? '')) continue;
      const value = CloudWebhookValue.safeParse(change.value);
      if (!value.success) {
        log.warn('cloud webhook change not understood', { issues: value.error.issues.length });
        continue;
      }
      const conn = found.get(value.data.metadata.phone_number_id);
      if (!conn) continue;
      for (const event of cloudEvents(value.data, conn)) {
        await enqueue(INBOUND_QUEUE, event, routing(event));
        queued++;
      }
    }
  }
  return queued;
}

function routing(event: InboundEvent) {
  const group = (chat: string) => inboundGroupId(event.companyId, event.whatsappId, chat);
  if (event.type === 'message')
    return { groupId: group(event.message.chatJid), dedupId: messageDedupId(event.companyId, event.message.wid) };
  if (event.type === 'ack')
    return { groupId: group(event.chatJid), dedupId: ackDedupId(event.companyId, event.wid, event.ack, event.error) };
  throw new Error(`no routing for ${event.type}`);
}
