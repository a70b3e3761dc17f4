import type { Whatsapp } from '#shared/schemas/whatsapp';

export type RestrictionLine =
  | { kind: 'reachoutLock'; until: string; type?: string }
  | { kind: 'newChatQuota'; used: number; total: number; endsAt?: string; exhausted: boolean };

/**
 * What WhatsApp told the session about its limits, as the connection's row shows it: the reach-out
 * lock while it holds (new chats refused until its end), and the cycle's new-chat quota while its
 * cycle runs (a warning once used up).
 */
export function restrictionLines(
  w: Pick<Whatsapp, 'reachoutLockedUntil' | 'reachoutType' | 'newChatQuota'>,
  now = Date.now(),
): RestrictionLine[] {
  const lines: RestrictionLine[] = [];
  if (w.reachoutLockedUntil && Date.parse(w.reachoutLockedUntil) > now)
    lines.push({
      kind: 'reachoutLock',
      until: w.reachoutLockedUntil,
      ...(w.reachoutType ? { type: w.reachoutType } : {}),
    });
  const quota = w.newChatQuota;
  if (quota && !(quota.endsAt && Date.parse(quota.endsAt) <= now))
    lines.push({ kind: 'newChatQuota', ...quota, exhausted: quota.used >= quota.total });
  return lines;
}
