import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  CloudNumberQualityValue,
  CloudTemplateStatusValue,
  CloudWebhookValue,
  type CloudVerifyQuery,
} from '#shared/schemas/whatsapp-cloud';
import {
  INBOUND_QUEUE,
  ackDedupId,
  inboundGroupId,
  messageDedupId,
  numberQualityRouting,
  templateStatusRouting,
  type InboundEvent,
} from '#shared/whatsapp-protocol';
import { isDualTransport } from '#shared/transports';
import { sharedMessageId } from '#shared/wamid';
import { AppError } from '../errors';
import { getItem } from '../db';
import { log } from '../log';
import { enqueue } from '../queue';
import { openSecret } from '../secrets';
import { findCloudConnection, findWabaConnections, verifyTokenKeys } from '../whatsapp/repo';
import { cloudEvents, numberQualityEvent } from './mapping';
import { templateStatusEvent } from './templates';

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
/** A template's status changed: the change names the WhatsApp Business Account (the entry's id), not a number. */
const TEMPLATE_FIELD = 'message_template_status_update';
/** A number's quality or its portfolio's messaging limit changed: named by the account and the display number. */
const QUALITY_FIELD = 'phone_number_quality_update';
/** The changes that name a business account rather than a phone-number id. */
const ACCOUNT_FIELDS = new Set([TEMPLATE_FIELD, QUALITY_FIELD]);

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

/**
 * The phone-number ids a payload names, and the business accounts of its template changes (read
 * only to find whose app secret signs it).
 */
function namedSenders(raw: Buffer): { numbers: string[]; accounts: string[] } {
  let payload: unknown;
  try {
    payload = JSON.parse(raw.toString('utf8'));
  } catch {
    return { numbers: [], accounts: [] };
  }
  const numbers = new Set<string>();
  const accounts = new Set<string>();
  const entries = (payload as { entry?: unknown })?.entry;
  for (const entry of Array.isArray(entries) ? entries : []) {
    const changes = (entry as { changes?: unknown })?.changes;
    for (const change of Array.isArray(changes) ? changes : []) {
      const { field, value } = (change ?? {}) as {
        field?: unknown;
        value?: { metadata?: { phone_number_id?: unknown } };
      };
      const account = (entry as { id?: unknown }).id;
      if (ACCOUNT_FIELDS.has(String(field)) && typeof account === 'string' && account) accounts.add(account);
      const id = value?.metadata?.phone_number_id;
      if (typeof id === 'string' && id) numbers.add(id);
    }
  }
  return { numbers: [...numbers], accounts: [...accounts] };
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
  const named = namedSenders(raw);
  // an unsigned caller must not make us read the table for every id it lists
  if (named.numbers.length + named.accounts.length > MAX_NUMBERS_PER_WEBHOOK)
    throw new AppError('ERR_INVALID_WEBHOOK_SIGNATURE');
  type Conn = { companyId: number; whatsappId: number; number?: string; dual: boolean };
  const checked = async (connection: {
    whatsapp: { companyId: number; id: number; provider: string; cloudTransport?: { status: string } };
    secrets: { appSecretSealed?: string };
  }) => {
    if (!connection.secrets.appSecretSealed) return undefined;
    const appSecret = await openSecret(connection.secrets.appSecretSealed);
    if (!signatureMatches(raw, signature, appSecret)) throw new AppError('ERR_INVALID_WEBHOOK_SIGNATURE');
    return {
      companyId: connection.whatsapp.companyId,
      whatsappId: connection.whatsapp.id,
      number: (connection.whatsapp as { number?: string }).number,
      dual: isDualTransport(connection.whatsapp),
    };
  };
  const found = new Map<string, Conn>();
  for (const id of named.numbers) {
    const connection = await findCloudConnection(id);
    const conn = connection && (await checked(connection));
    if (conn) found.set(id, conn);
  }
  // a business account's change goes to each of its connections, every one's app secret checked
  const ofAccount = new Map<string, Conn[]>();
  for (const account of named.accounts) {
    const conns: Conn[] = [];
    for (const connection of await findWabaConnections(account)) {
      const conn = await checked(connection);
      if (conn) conns.push(conn);
    }
    if (conns.length) ofAccount.set(account, conns);
  }
  // nothing here could be checked: a payload naming no connection of ours proves nothing
  if (!found.size && !ofAccount.size) throw new AppError('ERR_INVALID_WEBHOOK_SIGNATURE');

  const payload = JSON.parse(raw.toString('utf8')) as {
    entry?: { id?: string; time?: number; changes?: { field?: string; value?: unknown }[] }[];
  };
  let queued = 0;
  for (const entry of payload.entry ?? []) {
    for (const change of entry.changes ?? []) {
      if (change.field === TEMPLATE_FIELD) {
        const value = CloudTemplateStatusValue.safeParse(change.value);
        if (!value.success) {
          log.warn('cloud template change not understood', { issues: value.error.issues.length });
          continue;
        }
        const at = Number(entry.time) || Math.floor(Date.now() / 1000);
        for (const conn of ofAccount.get(entry.id ?? '') ?? []) {
          const event = templateStatusEvent(value.data, { companyId: conn.companyId, whatsappId: conn.whatsappId }, at);
          await enqueue(INBOUND_QUEUE, event, routing(event));
          queued++;
        }
        continue;
      }
      if (change.field === QUALITY_FIELD) {
        const value = CloudNumberQualityValue.safeParse(change.value);
        if (!value.success) {
          log.warn('cloud quality change not understood', { issues: value.error.issues.length });
          continue;
        }
        const at = Number(entry.time) || Math.floor(Date.now() / 1000);
        const digits = value.data.display_phone_number.replace(/\D/g, '');
        // the number it names among the account's connections (the same number may be in several companies)
        for (const conn of ofAccount.get(entry.id ?? '') ?? []) {
          if (!conn.number || conn.number !== digits) continue;
          const event = numberQualityEvent(value.data, conn, at);
          await enqueue(INBOUND_QUEUE, event, routing(event));
          queued++;
        }
        continue;
      }
      if (!WEBHOOK_FIELDS.has(change.field ?? '')) continue;
      const value = CloudWebhookValue.safeParse(change.value);
      if (!value.success) {
        log.warn('cloud webhook change not understood', { issues: value.error.issues.length });
        continue;
      }
      const conn = found.get(value.data.metadata.phone_number_id);
      if (!conn) continue;
      const events = cloudEvents(value.data, { companyId: conn.companyId, whatsappId: conn.whatsappId });
      for (const event of conn.dual ? events.map(asSharedIds) : events) {
        await enqueue(INBOUND_QUEUE, event, routing(event));
        queued++;
      }
    }
  }
  return queued;
}

/**
 * A number with both transports: Meta's ids become the device ids they carry (shared/wamid.ts), the
 * ids the WhatsApp Web side sees, so a message told by both sides is one message (the second is a
 * repeat), and statuses find our messages whichever side sent them.
 */
function asSharedIds(event: InboundEvent): InboundEvent {
  if (event.type === 'ack') return { ...event, wid: sharedMessageId(event.wid) };
  if (event.type === 'reaction')
    return { ...event, wid: sharedMessageId(event.wid), reactionId: sharedMessageId(event.reactionId) };
  if (event.type !== 'message') return event;
  const { message } = event;
  return {
    ...event,
    message: {
      ...message,
      wid: sharedMessageId(message.wid),
      transport: 'cloud',
      ...(message.quotedWid ? { quotedWid: sharedMessageId(message.quotedWid) } : {}),
    },
  };
}

function routing(event: InboundEvent) {
  const group = (chat: string) => inboundGroupId(event.companyId, event.whatsappId, chat);
  if (event.type === 'message')
    return { groupId: group(event.message.chatJid), dedupId: messageDedupId(event.companyId, event.message.wid) };
  if (event.type === 'ack')
    return { groupId: group(event.chatJid), dedupId: ackDedupId(event.companyId, event.wid, event.ack, event.error) };
  if (event.type === 'reaction')
    return { groupId: group(event.chatJid), dedupId: `${event.companyId}:${event.reactionId}:reaction` };
  if (event.type === 'templateStatus') return templateStatusRouting(event);
  if (event.type === 'numberQuality') return numberQualityRouting(event);
  throw new Error(`no routing for ${event.type}`);
}
