import type { Whatsapp } from '#shared/schemas/whatsapp';
import { notifyConnectionAlert } from '../push/notify';

/**
 * A Cloud API number's health as Meta reports it: its quality rating (GREEN, YELLOW, RED; UNKNOWN
 * for a number too new to have one), Meta's quality events and its portfolio's messaging limit.
 * When it gets worse the company's admins are told (Web Push `connectionAlert`).
 */

const RANK: Record<string, number> = { GREEN: 3, YELLOW: 2, RED: 1 };

/** The rating fell (GREEN to YELLOW or RED, YELLOW to RED); an unknown rating on either side is no fall. */
export function qualityDropped(before: string | undefined, after: string | undefined) {
  const from = RANK[before?.toUpperCase() ?? ''];
  const to = RANK[after?.toUpperCase() ?? ''];
  return from !== undefined && to !== undefined && to < from;
}

/** A known messaging limit went down (-1 is unlimited, the highest). */
export function limitLowered(before: number | undefined, after: number | undefined) {
  if (before === undefined || after === undefined) return false;
  const size = (n: number) => (n === -1 ? Number.POSITIVE_INFINITY : n);
  return size(after) < size(before);
}

export type HealthChange = { quality?: string; messagingLimit?: number; event?: string };

/** Why the admins should hear of this change, if they should: flagged first, then quality, then the limit. */
export function alertReason(before: Pick<Whatsapp, 'cloudQuality' | 'cloudMessagingLimit'>, after: HealthChange) {
  if (after.event === 'FLAGGED') return 'flagged' as const;
  if (qualityDropped(before.cloudQuality, after.quality)) return 'qualityDropped' as const;
  if (after.event === 'DOWNGRADE' || limitLowered(before.cloudMessagingLimit, after.messagingLimit))
    return 'limitLowered' as const;
  return undefined;
}

/** Tells the company's admins when the change makes the number's health worse. */
export async function alertOnHealthChange(before: Whatsapp, after: HealthChange) {
  const reason = alertReason(before, after);
  if (!reason) return;
  await notifyConnectionAlert({
    companyId: before.companyId,
    whatsappId: before.id,
    connectionName: before.name,
    reason,
    ...(after.quality ? { quality: after.quality.toUpperCase() } : {}),
  });
}
