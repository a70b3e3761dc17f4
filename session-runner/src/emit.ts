import { createHash, randomUUID } from 'node:crypto';
import { log } from '#lib/log';
import { enqueue } from '#lib/queue';
import { claimCheckKey, putObject } from '#lib/storage';
import {
  INBOUND_QUEUE,
  INBOUND_INLINE_MAX_BYTES,
  ackDedupId,
  inboundGroupId,
  messageDedupId,
  sendResultDedupId,
  templateStatusRouting,
  numberQualityRouting,
  type InboundEvent,
} from '#shared/whatsapp-protocol';
import { backoff } from './close-policy';

/** Wait before the next attempt at an event the queue did not take: doubling from this, jittered, capped. */
const EMIT_RETRY_BASE_MS = 200;
const EMIT_RETRY_CAP_MS = 30_000;

/** Emits not yet taken by the queue (retries included), for a shutdown to wait for. */
const inFlight = new Set<Promise<void>>();

/**
 * Puts a provider event on the `inbound` FIFO queue. Group: company#connection#chat, so a message
 * and its later acks, edits and deletions stay in order; dedup: the WhatsApp id plus the kind of
 * event, so a provider that reports a message twice produces one message.
 * An event the queue fails to take is tried again with back-off until it is taken: WhatsApp was
 * told we have it, and nobody sends it again. The caller waits, so a chat's order holds. Only a
 * refusal of the event itself (too large, malformed: an SQS client fault) is thrown.
 */
export function emit(event: InboundEvent): Promise<void> {
  const sent = sendUntilTaken(event);
  inFlight.add(sent);
  void sent.finally(() => inFlight.delete(sent)).catch(() => undefined);
  return sent;
}

/** Resolves once every emit started so far, and any started meanwhile, has been taken or refused. */
export async function drainEmits() {
  while (inFlight.size) await Promise.allSettled([...inFlight]);
}

async function sendUntilTaken(event: InboundEvent) {
  // one dedup id for every attempt: an attempt that reached SQS but lost its answer is not doubled
  const { groupId, dedupId } = routing(event);
  let body: InboundEvent | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      body ??= await inlineOrClaimCheck(event, dedupId);
      await enqueue(INBOUND_QUEUE, body, { groupId, dedupId });
      return;
    } catch (err) {
      if (!retryable(err)) throw err;
      if (attempt % 10 === 0)
        log.warn('emit to the inbound queue failed, retrying', {
          companyId: event.companyId,
          whatsappId: event.whatsappId,
          type: event.type,
          attempt,
          error: (err as Error).message,
        });
      await new Promise((r) => setTimeout(r, backoff(attempt, EMIT_RETRY_BASE_MS, EMIT_RETRY_CAP_MS)));
    }
  }
}

/**
 * The event itself, or, when its JSON is larger than the queue takes, a claim check: the event is
 * stored under the company's prefix (one object per dedup id, so a retried emit writes the same
 * one) and the queue carries where it is. R11 of whatsapp-review-3: such an event was refused and lost.
 */
async function inlineOrClaimCheck(event: InboundEvent, dedupId: string): Promise<InboundEvent> {
  const json = JSON.stringify(event);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes <= INBOUND_INLINE_MAX_BYTES) return event;
  const key = claimCheckKey(event.companyId, event.whatsappId, short(dedupId));
  await putObject(key, json, 'application/json');
  log.info('inbound event sent by claim check', { companyId: event.companyId, type: event.type, bytes });
  return { type: 'claimCheck', companyId: event.companyId, whatsappId: event.whatsappId, key, of: event.type, bytes };
}

/** Everything but SQS refusing the request itself: throttling, server faults, the network. */
function retryable(err: unknown) {
  const e = err as { $fault?: string; $retryable?: { throttling?: boolean }; name?: string };
  return e?.$fault !== 'client' || Boolean(e.$retryable?.throttling) || /throttl/i.test(e.name ?? '');
}

const short = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

export function routing(event: InboundEvent): { groupId: string; dedupId: string } {
  const g = (chat: string) => inboundGroupId(event.companyId, event.whatsappId, chat);
  switch (event.type) {
    case 'message':
      return { groupId: g(event.message.chatJid), dedupId: messageDedupId(event.companyId, event.message.wid) };
    case 'ack':
      return { groupId: g(event.chatJid), dedupId: ackDedupId(event.companyId, event.wid, event.ack) };
    case 'edit':
      return { groupId: g(event.chatJid), dedupId: `${event.companyId}:${event.wid}:edit:${short(event.body)}` };
    case 'revoke':
      return { groupId: g(event.chatJid), dedupId: `${event.companyId}:${event.wid}:revoke` };
    case 'reaction':
      return { groupId: g(event.chatJid), dedupId: `${event.companyId}:${event.reactionId}:reaction` };
    case 'undecryptable':
      // its own dedup id: the real message that follows with the same wid must not be taken for it
      return { groupId: g(event.chatJid), dedupId: `${event.companyId}:${event.wid}:undecryptable` };
    case 'sendResult':
      return {
        groupId: g(event.chatJid ?? `ticket:${event.ticketId}`),
        dedupId: sendResultDedupId(event.companyId, event.messageId, event.error),
      };
    case 'checkNumberResult':
      return { groupId: g('check'), dedupId: `${event.companyId}:${event.replyTo}:check` };
    case 'checkNumberResults':
      return {
        groupId: g('check'),
        dedupId: `${event.companyId}:${short(event.results.map((r) => r.replyTo).join('|'))}:checks`,
      };
    case 'call':
      return { groupId: g(event.from), dedupId: `${event.companyId}:${event.callId}:call` };
    case 'addressBook':
      return { groupId: g('address-book'), dedupId: `${event.companyId}:${event.requestId}:book:${event.part}` };
    case 'lidMapping':
      return { groupId: g(event.pn), dedupId: `${event.companyId}:${event.lid}:${event.pn}:lid` };
    case 'templateStatus':
      return templateStatusRouting(event);
    case 'numberQuality':
      return numberQualityRouting(event);
    case 'claimCheck':
      // never routed: the claim check takes the routing of the event it carries
      throw new Error('a claim check is not emitted as such');
    case 'restriction':
      // each is news (a lock set, lifted, a quota used): in order, none dropped as a repeat
      return { groupId: g('restriction'), dedupId: randomUUID() };
    case 'session':
    case 'health':
      // every status change counts, in order (health reports travel with them)
      return { groupId: g('session'), dedupId: randomUUID() };
  }
}
