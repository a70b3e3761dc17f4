import { ACK } from '#shared/whatsapp-protocol';
import { CAMPAIGN_MESSAGE_FIELDS, type PauseReason, type WaitReason } from '#shared/schemas/campaigns';
import type { Message } from '#shared/schemas/messages';
import { fillVariables, protocolOf } from '#shared/message-variables';
import { contactFieldsFor } from '../custom-fields/variables';
import { config } from '../config';
import { AppError } from '../errors';
import { getItem, query, queryAll, transact, updateItem, updateTx, type Item } from '../db';
import { isRateLimitCode } from '../whatsapp-cloud/graph';
import { nowIso } from '../keys';
import { log } from '../log';
import { createContact } from '../contacts/service';
import { findContactByNumber, getContact } from '../contacts/repo';
import { getWhatsapp } from '../whatsapp/repo';
import { findOrCreateTicket } from '../tickets/service';
import { sendMessage } from '../messages/send';
import { getFileList } from '../files/repo';
import { mediaKindOf } from '#shared/schemas/messages';
import {
  campaignDueIndex,
  campaignKeys,
  companyCampaigns,
  getStoredCampaign,
  shippingKeys,
  shippingPk,
  toStoredCampaign,
  type StoredCampaign,
  type StoredShipping,
} from './repo';
import { acquire, pauseConnection, pauseReasonOf, restrictionWait, spacingMs } from './limiter';
import { campaignSettings } from './settings';
import { enqueueCampaignJob, MAX_DELAY_SECONDS, type CampaignJob } from './jobs';
import { announceCampaign } from './events';

/** Tries of one contact's send before it is recorded as failed. */
export const SEND_ATTEMPTS = 3;
/**
 * Meta may refuse a send it had taken for its rate limits (a `failed` status with 131056, 130429 ...):
 * the contact is sent again after this many pacing seconds, doubled at each retry, up to
 * RATE_RETRIES times, instead of counting as failed.
 */
const RATE_RETRIES = 3;
const RATE_RETRY_SECONDS = 60;
/** A connection that is not connected is looked at again after this many pacing seconds. */
const DISCONNECTED_RETRY_SECONDS = 30;
/** The due index watches a running campaign this long after its next expected step (lost jobs). */
const WATCH_MARGIN_MS = 10 * 60 * 1000;

const secondMs = () => config().campaignSecondMs;

/** The wait after this send: messageInterval, or greaterInterval after every longerIntervalAfter sends. */
export function intervalAfter(
  sinceLonger: number,
  s: { messageInterval: number; longerIntervalAfter: number; greaterInterval: number },
) {
  return s.longerIntervalAfter > 0 && sinceLonger >= s.longerIntervalAfter
    ? { seconds: s.greaterInterval, sinceLonger: 0 }
    : { seconds: s.messageInterval, sinceLonger };
}

/**
 * Waits before the same step again: a short wait is a delayed job; a long one (the daily cap) is the
 * due index at the resume time, where the campaigns timer restarts the chain.
 */
async function wait(
  c: StoredCampaign,
  job: Extract<CampaignJob, { kind: 'send' }>,
  ms: number,
  reason: WaitReason | null,
  /** when the wait ends, when a limit named it (a lock's end) */
  endsAt = Date.now() + ms,
) {
  const long = ms > MAX_DELAY_SECONDS * 1000;
  if (long || reason !== (c.waitReason ?? null)) {
    const resumeAt = new Date(endsAt).toISOString();
    const updated = await updateItem(campaignKeys(c.companyId, c.id), {
      set: {
        waitReason: reason,
        resumeAt: reason ? resumeAt : null,
        ...campaignDueIndex(
          c.companyId,
          c.id,
          long ? resumeAt : new Date(Date.now() + ms + WATCH_MARGIN_MS).toISOString(),
        ),
      },
      condition: '#status = :running AND #step = :step',
      conditionNames: { '#status': 'status', '#step': 'step' },
      conditionValues: { ':running': 'EM_ANDAMENTO', ':step': job.step },
    });
    if (!updated) return;
    await announceCampaign(updated, 'update');
  }
  if (!long) await enqueueCampaignJob({ ...job, notBefore: undefined }, ms);
}

/**
 * WhatsApp lifted the connection's reach-out lock, or renewed its new-chat quota, before the end it
 * had stated: the connection's campaigns that wait for either go on now, not at that end. Each moves
 * to a new step, so the delayed job of its wait is stale when it comes; its next step looks at the
 * connection again (a limit still in force makes it wait anew).
 */
export async function resumeRestrictedCampaigns(companyId: number, whatsappId: number) {
  const waiting = await queryAll({
    ...companyCampaigns(companyId),
    filter: '#status = :running AND #w = :w AND #reason IN (:lock, :quota)',
    filterNames: { '#status': 'status', '#w': 'whatsappId', '#reason': 'waitReason' },
    filterValues: { ':running': 'EM_ANDAMENTO', ':w': whatsappId, ':lock': 'reachoutLock', ':quota': 'newChatQuota' },
  });
  for (const c of waiting.map(toStoredCampaign)) {
    const step = (c.step ?? 0) + 1;
    const moved = await updateItem(campaignKeys(companyId, c.id), {
      set: { step, ...campaignDueIndex(companyId, c.id, new Date(Date.now() + WATCH_MARGIN_MS).toISOString()) },
      condition: '#status = :running AND #step = :step',
      conditionNames: { '#status': 'status', '#step': 'step' },
      conditionValues: { ':running': 'EM_ANDAMENTO', ':step': c.step ?? 0 },
    });
    if (moved) await enqueueCampaignJob({ kind: 'send', companyId, campaignId: c.id, step });
  }
}

/** Stops a running campaign with a reason (and the connection, so no other campaign keeps sending into a ban). */
export async function pauseCampaign(c: Pick<StoredCampaign, 'companyId' | 'id' | 'whatsappId'>, reason: PauseReason) {
  const updated = await updateItem(campaignKeys(c.companyId, c.id), {
    set: { status: 'PAUSADA', pauseReason: reason, waitReason: null, updatedAt: nowIso() },
    remove: ['gsi4pk', 'gsi4sk'],
    condition: '#status = :running',
    conditionNames: { '#status': 'status' },
    conditionValues: { ':running': 'EM_ANDAMENTO' },
  });
  if (!updated) return;
  log.warn('campaign paused', { companyId: c.companyId, campaignId: c.id, reason });
  if (reason !== 'connectionPaused' && c.whatsappId) await pauseConnection(c.companyId, c.whatsappId, reason);
  await announceCampaign(updated, 'update');
}

/**
 * One paced step of a running campaign: the job of the campaign's current `step` takes the
 * connection's next slot from the limiter, claims the next pending shipping item (the campaign's
 * step and cursor move with the item's pending -> sending in one transaction, so a redelivered or
 * stale job claims nothing), sends, then enqueues the next step after the interval. No item left:
 * the campaign is FINALIZADA.
 */
export async function sendStep(job: Extract<CampaignJob, { kind: 'send' }>) {
  if (job.notBefore && job.notBefore > Date.now()) return enqueueCampaignJob(job, job.notBefore - Date.now());
  const c = await getStoredCampaign(job.companyId, job.campaignId, true);
  if (c?.status !== 'EM_ANDAMENTO' || c.step !== job.step || !c.whatsappId) return;
  const paused = pauseReasonOf(c);
  if (paused) return pauseCampaign(c, paused);
  const whatsapp = await getWhatsapp(c.companyId, c.whatsappId);
  if (!whatsapp) return finish(c, job.step);
  if (whatsapp.status !== 'CONNECTED') return wait(c, job, DISCONNECTED_RETRY_SECONDS * secondMs(), 'connectionDown');
  // WhatsApp locked new chats from the number, or its new-chat quota is used up: wait for the end
  const now = Date.now();
  const restricted = restrictionWait(whatsapp, now);
  if (restricted) return wait(c, job, restricted.ms, restricted.reason, now + restricted.ms);
  const next = await nextPending(c);
  if (!next) return finish(c, job.step);
  const settings = await campaignSettings(c.companyId);
  const { seconds, sinceLonger } = intervalAfter((c.sinceLonger ?? 0) + 1, settings);
  const spacing = spacingMs(seconds, whatsapp, secondMs());
  const slot = await acquire(c.companyId, whatsapp, spacing);
  if (!slot.ok) {
    if ('paused' in slot) return pauseCampaign(c, 'connectionPaused');
    return wait(c, job, slot.waitMs, slot.reason === 'dailyCap' ? 'dailyCap' : null);
  }
  const step = job.step + 1;
  try {
    await transact([
      updateTx(campaignKeys(c.companyId, c.id), {
        set: {
          step,
          cursor: next.sk,
          sinceLonger,
          waitReason: null,
          resumeAt: null,
          updatedAt: nowIso(),
          ...campaignDueIndex(c.companyId, c.id, new Date(Date.now() + spacing + WATCH_MARGIN_MS).toISOString()),
        },
        condition: '#status = :running AND #step = :step',
        conditionNames: { '#status': 'status', '#step': 'step' },
        conditionValues: { ':running': 'EM_ANDAMENTO', ':step': job.step },
      }),
      updateTx(shippingKeys(c.companyId, c.id, next.number), {
        set: { status: 'sending', sendingAt: nowIso() },
        condition: '#status = :pending',
        conditionNames: { '#status': 'status' },
        conditionValues: { ':pending': 'pending' },
      }),
    ]);
  } catch (err) {
    if (err instanceof AppError && err.code === 'ERR_CONFLICT') return;
    throw err;
  }
  // The next step waits `spacing` from this message's hand-over, not from the slot: the work of a
  // send (contact, ticket, message) varies in length, and a wait counted from the slot lets a slow
  // send and a quick next one reach WhatsApp closer together than the interval.
  try {
    await deliver(c, next);
  } finally {
    await enqueueCampaignJob({ kind: 'send', companyId: c.companyId, campaignId: c.id, step }, spacing);
  }
}

async function nextPending(c: StoredCampaign): Promise<(StoredShipping & { sk: string }) | undefined> {
  const pk = shippingPk(c.companyId, c.id);
  for (let startKey: Item | undefined, first = true; first || startKey; first = false) {
    const out = await query({
      pk,
      sk: c.cursor ? { between: [`${c.cursor}\u0000`, 'S#\uffff'] } : { beginsWith: 'S#' },
      limit: 50,
      startKey,
    });
    const found = out.items.find((i) => i.status === 'pending');
    if (found) return found as StoredShipping & { sk: string };
    startKey = out.lastKey;
  }
  return undefined;
}

async function finish(c: StoredCampaign, step: number) {
  const updated = await updateItem(campaignKeys(c.companyId, c.id), {
    set: { status: 'FINALIZADA', completedAt: nowIso(), waitReason: null, resumeAt: null, updatedAt: nowIso() },
    remove: ['gsi4pk', 'gsi4sk'],
    condition: '#status = :running AND #step = :step',
    conditionNames: { '#status': 'status', '#step': 'step' },
    conditionValues: { ':running': 'EM_ANDAMENTO', ':step': step },
  });
  if (updated) await announceCampaign(updated, 'update');
}

/** The variant's text with the variables of section 9 and the company's campaign variables filled in. */
export function campaignText(
  template: string,
  name: string,
  ticketId: number,
  variables: { key: string; value: string }[],
  now = new Date(),
  contactFields?: Record<string, string>,
) {
  const filled = fillVariables(template, {
    contactName: name,
    now,
    protocol: protocolOf(now, ticketId),
    contactFields,
  });
  const custom = new Map(variables.map((v) => [v.key.toLowerCase(), v.value]));
  return filled.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, key: string) => custom.get(key.toLowerCase()) ?? whole);
}

async function contactFor(c: StoredCampaign, s: StoredShipping) {
  if (s.contactId) {
    const found = await getContact(c.companyId, s.contactId);
    if (found) return found;
  }
  const known = await findContactByNumber(c.companyId, s.number);
  if (known) return known;
  try {
    return await createContact(c.companyId, { name: s.name, number: s.number, email: '' } as never);
  } catch (err) {
    if (!(err instanceof AppError && err.code === 'ERR_DUPLICATED_CONTACT')) throw err;
    const winner = await findContactByNumber(c.companyId, s.number);
    if (!winner) throw err;
    return winner;
  }
}

/**
 * Sends one contact's message through the normal outbound path (ticket found or created, message
 * stored with its WhatsApp id, send command queued), then the file list's files. A clean failure
 * is tried again SEND_ATTEMPTS times, then recorded on the contact's shipping item.
 */
async function deliver(c: StoredCampaign, s: StoredShipping & { sk: string }, again = false) {
  const key = shippingKeys(c.companyId, c.id, s.number);
  let lastError = 'ERR_SENDING_WAPP_MSG';
  for (let attempt = 1; attempt <= SEND_ATTEMPTS; attempt++) {
    try {
      const contact = await contactFor(c, s);
      const { ticket } = await findOrCreateTicket(c.companyId, {
        contactId: contact.id,
        whatsappId: c.whatsappId!,
        isGroup: false,
        fromMe: true,
      });
      const { variables } = await campaignSettings(c.companyId);
      const link = { campaignId: c.id, shipping: s.number };
      if (c.template) {
        // a Cloud API campaign: its template alone, each value filled for this contact
        const fields = await contactFieldsFor(
          c.companyId,
          contact,
          ...Object.values({ ...c.template.header, ...c.template.body }),
        );
        const fill = (values?: Record<string, string>) =>
          values &&
          Object.fromEntries(
            Object.entries(values).map(([k, v]) => [
              k,
              campaignText(v, contact.name, ticket.id, variables, new Date(), fields),
            ]),
          );
        const { name, language, header, body } = c.template;
        const message = await sendMessage(c.companyId, ticket, {
          body: '',
          template: { name, language, header: fill(header), body: fill(body) },
          automatic: true,
          campaign: link,
        });
        await markSent(c, key, message.id, attempt, again);
        return;
      }
      const template = c[CAMPAIGN_MESSAGE_FIELDS[s.variant - 1] ?? 'message1'] || c.message1;
      const fields = await contactFieldsFor(c.companyId, contact, template);
      const body = campaignText(template, contact.name, ticket.id, variables, new Date(), fields);
      const media =
        c.mediaPath && c.mediaMimetype
          ? {
              key: c.mediaPath,
              mimetype: c.mediaMimetype,
              fileName: c.mediaName ?? 'file',
              kind: mediaKindOf(c.mediaMimetype),
            }
          : undefined;
      const message = await sendMessage(c.companyId, ticket, { body, media, automatic: true, campaign: link });
      const files = c.fileListId ? await getFileList(c.companyId, c.fileListId) : undefined;
      for (const option of files?.options ?? []) {
        if (!option.path || !option.mediaType) continue;
        await sendMessage(c.companyId, ticket, {
          body: option.name,
          media: {
            key: option.path,
            mimetype: option.mediaType,
            fileName: option.path.split('/').pop() ?? 'file',
            kind: mediaKindOf(option.mediaType),
          },
          automatic: true,
        });
      }
      await markSent(c, key, message.id, attempt, again);
      return;
    } catch (err) {
      lastError = (err as { code?: string }).code ?? (err as Error).message;
      log.warn('campaign send failed', { companyId: c.companyId, campaignId: c.id, attempt, error: lastError });
      if (attempt < SEND_ATTEMPTS) await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
  const failed = await updateItem(key, {
    set: { status: 'failed', error: lastError, attempts: SEND_ATTEMPTS },
    remove: ['sendingAt'],
    condition: '#status = :sending',
    conditionNames: { '#status': 'status' },
    conditionValues: { ':sending': 'sending' },
  });
  // a send again was counted as sent the first time
  if (failed) await bump(c.companyId, c.id, again ? { failed: 1 } : { sent: 1, failed: 1 });
}

/**
 * A `redeliver` job: the contact whose send Meta refused for its rate limits is sent again, while
 * the campaign runs or after it finished (a cancelled or paused one sends nothing more).
 */
export async function redeliverStep(job: Extract<CampaignJob, { kind: 'redeliver' }>) {
  if (job.notBefore && job.notBefore > Date.now()) return enqueueCampaignJob(job, job.notBefore - Date.now());
  const c = await getStoredCampaign(job.companyId, job.campaignId, true);
  if (!c?.whatsappId || (c.status !== 'EM_ANDAMENTO' && c.status !== 'FINALIZADA')) return;
  const key = shippingKeys(c.companyId, c.id, job.number);
  const s = await getItem<StoredShipping & { sk: string }>(key);
  if (s?.status !== 'sending') return;
  await deliver(c, s, true);
}

/** The contact's shipping item is sent (once: a second hand-over of the same item counts nothing). */
async function markSent(
  c: StoredCampaign,
  key: ReturnType<typeof shippingKeys>,
  messageId: string,
  attempt: number,
  again = false,
) {
  const updated = await updateItem(key, {
    set: { status: 'sent', sentAt: nowIso(), messageId, attempts: attempt },
    remove: ['sendingAt'],
    condition: '#status = :sending',
    conditionNames: { '#status': 'status' },
    conditionValues: { ':sending': 'sending' },
  });
  if (updated && !again) await bump(c.companyId, c.id, { sent: 1 });
}

/** Moves the campaign's counters, publishes, and pauses the campaign when a threshold is crossed. */
async function bump(companyId: number, campaignId: number, add: Record<string, number>) {
  const updated = await updateItem(campaignKeys(companyId, campaignId), {
    add,
    set: { updatedAt: nowIso() },
    condition: 'attribute_exists(pk)',
  });
  if (!updated) return;
  const c = updated as unknown as StoredCampaign;
  await announceCampaign(updated, 'update');
  const reason = c.status === 'EM_ANDAMENTO' ? pauseReasonOf(c) : null;
  if (reason) await pauseCampaign(c, reason);
}

/**
 * A campaign message's ack or failure (from the inbound pipeline): the contact's shipping item
 * records deliveredAt / readAt or the failure once (conditional), and the campaign's counters move.
 */
export async function noteCampaignMessage(companyId: number, message: Message) {
  const link = message.campaign;
  if (!link) return;
  const key = shippingKeys(companyId, link.campaignId, link.shipping);
  const at = nowIso();
  if (message.error && isRateLimitCode(message.providerError?.code)) {
    // once per refused message (a repeated status finds it noted), while retries are left
    const retry = await updateItem(key, {
      set: { status: 'sending', retriedMessageId: message.id },
      add: { rateRetries: 1 },
      condition:
        'messageId = :mid AND attribute_type(deliveredAt, :null) AND ' +
        '(attribute_not_exists(retriedMessageId) OR retriedMessageId <> :mid) AND ' +
        '(attribute_not_exists(rateRetries) OR rateRetries < :max)',
      conditionValues: { ':mid': message.id, ':null': 'NULL', ':max': RATE_RETRIES },
    });
    if (retry) {
      const retries = Number(retry.rateRetries ?? 1);
      const waitMs = RATE_RETRY_SECONDS * 2 ** (retries - 1) * secondMs();
      log.info('campaign send refused by Meta for its rate limits: sent again later', {
        companyId,
        campaignId: link.campaignId,
        retries,
      });
      await enqueueCampaignJob(
        { kind: 'redeliver', companyId, campaignId: link.campaignId, number: link.shipping },
        waitMs,
      );
      return;
    }
  }
  if (message.error) {
    const failed = await updateItem(key, {
      set: { error: message.error, failedCounted: true },
      condition: 'attribute_type(deliveredAt, :null) AND attribute_not_exists(failedCounted)',
      conditionValues: { ':null': 'NULL' },
    });
    if (failed) await bump(companyId, link.campaignId, { failed: 1 });
    return;
  }
  const add: Record<string, number> = {};
  if (message.ack >= ACK.delivered) {
    const delivered = await updateItem(key, {
      set: { deliveredAt: at },
      condition: 'attribute_exists(pk) AND attribute_type(deliveredAt, :null)',
      conditionValues: { ':null': 'NULL' },
    });
    if (delivered) add.delivered = 1;
  }
  if (message.ack >= ACK.read) {
    const read = await updateItem(key, {
      set: { readAt: at },
      condition: 'attribute_exists(pk) AND attribute_type(readAt, :null)',
      conditionValues: { ':null': 'NULL' },
    });
    if (read) add.read = 1;
  }
  if (Object.keys(add).length) await bump(companyId, link.campaignId, add);
}
