import type { InboundEvent, MessagePricing } from '#shared/whatsapp-protocol';
import type { CloudUsageMonth } from '#shared/schemas/whatsapp-cloud';
import { queryAll, transact, updateItem, updateTx } from '../db';
import { AppError } from '../errors';
import { nowIso, pad } from '../keys';
import { log } from '../log';
import { getMessageByWid } from '../messages/repo';
import { getWhatsapp, toWhatsapp, whatsappKeys } from '../whatsapp/repo';
import { publishWhatsapp } from '../whatsapp/service';
import { alertOnHealthChange } from './quality';

/**
 * What a Cloud API connection's messages cost and how its number fares, from Meta's webhooks:
 * - each message Meta prices (a status's `pricing`) is counted once, by category, charged or free,
 *   on `C#<cid>` / `WUSAGE#<pad(whatsappId)>#<YYYY-MM>` (the month of the status, UTC, as Meta's
 *   pricing analytics count); the message keeps its `pricing`, which is what makes a repeated or
 *   later status count nothing;
 * - Meta's quality events and messaging limit land on the connection (`applyNumberQuality`).
 */

export const usageKeys = (companyId: number, whatsappId: number, month: string) => ({
  pk: `C#${companyId}`,
  sk: `WUSAGE#${pad(whatsappId)}#${month}`,
});
const usagePrefix = (whatsappId: number) => `WUSAGE#${pad(whatsappId)}#`;

/** Meta's categories are lower-case words (marketing, utility, authentication_international ...). */
const category = (name: string) => (/^[a-z_]{1,40}$/.test(name) ? name : 'other');

/** Counts a message's price once (false: not ours, or counted already). */
export async function recordPricing(companyId: number, wid: string, pricing: MessagePricing): Promise<boolean> {
  const found = await getMessageByWid(companyId, wid);
  if (!found) return false;
  const kind = category(pricing.category);
  const month = new Date(pricing.at * 1000).toISOString().slice(0, 7);
  try {
    await transact([
      updateTx(found.key, {
        set: { pricing: { category: kind, charged: pricing.charged } },
        condition: 'attribute_exists(pk) AND attribute_not_exists(pricing)',
      }),
      updateTx(usageKeys(companyId, found.whatsappId, month), {
        set: { companyId, whatsappId: found.whatsappId, month, updatedAt: nowIso() },
        add: { [`${pricing.charged ? 'charged' : 'free'}_${kind}`]: 1 },
      }),
    ]);
    return true;
  } catch (err) {
    if (err instanceof AppError && err.code === 'ERR_CONFLICT') return false;
    throw err;
  }
}

/** GET /whatsapp/{id}/usage: the connection's months, newest first, messages by category. */
export async function listUsage(companyId: number, whatsappId: number): Promise<CloudUsageMonth[]> {
  const items = await queryAll({ pk: `C#${companyId}`, sk: { beginsWith: usagePrefix(whatsappId) } });
  return items
    .map((item) => {
      const charged: Record<string, number> = {};
      const free: Record<string, number> = {};
      for (const [field, value] of Object.entries(item)) {
        const m = /^(charged|free)_(.+)$/.exec(field);
        if (m && typeof value === 'number') (m[1] === 'charged' ? charged : free)[m[2]!] = value;
      }
      const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
      return { month: String(item.month), charged, free, totalCharged: sum(charged), totalFree: sum(free) };
    })
    .sort((a, b) => b.month.localeCompare(a.month));
}

/**
 * Meta's quality event for the number (webhook `phone_number_quality_update`): kept on the
 * connection with its messaging limit when it tells one; an event older than the one kept changes
 * nothing. A flag, a downgrade or a lower limit tells the admins.
 */
export async function applyNumberQuality(event: Extract<InboundEvent, { type: 'numberQuality' }>) {
  const before = await getWhatsapp(event.companyId, event.whatsappId);
  if (!before) return;
  const at = new Date(event.at * 1000).toISOString();
  const item = await updateItem(whatsappKeys(event.companyId, event.whatsappId), {
    set: {
      cloudQualityEvent: event.event,
      cloudQualityEventAt: at,
      ...(event.messagingLimit !== undefined ? { cloudMessagingLimit: event.messagingLimit } : {}),
      updatedAt: nowIso(),
    },
    // Meta's times are seconds: events of the same second apply in the order they came (one FIFO group)
    condition: 'attribute_exists(pk) AND (attribute_not_exists(cloudQualityEventAt) OR cloudQualityEventAt <= :at)',
    conditionValues: { ':at': at },
  });
  if (!item) {
    log.info('cloud quality event older than the one kept: ignored', { whatsappId: event.whatsappId, at });
    return;
  }
  await publishWhatsapp(toWhatsapp(item));
  await alertOnHealthChange(before, { event: event.event, messagingLimit: event.messagingLimit });
}
