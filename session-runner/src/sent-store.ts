import { getItem, updateItem } from '#lib/db';
import { ttlIn } from '#lib/keys';
import { SENT_TTL_SECONDS, sentKeys } from '#lib/messages/sent-claim';

/**
 * What the runner knows about a message it sends, by WhatsApp id: `C#<cid>#WSENT` / `<wid>` with
 * - `sendingAt`: claimed before the send, conditionally, so a redelivered send command (a crash
 *   after the send, a send slower than the queue's visibility timeout) is recognised and not sent again;
 * - `sentAt` + `content` once the provider took it (the content answers WhatsApp's retry requests);
 * - `failedAt` when the provider refused it;
 * - `via: cloud` when a connection's Cloud API transport claimed it instead (functions/lib/messages/sent-claim.ts).
 * A small item of the runner's own, keyed by what the command carries (company and wid): the
 * stored message's key needs the contact, which the command does not carry.
 */

interface SentItem {
  sendingAt?: number;
  sentAt?: number;
  failedAt?: number;
  content?: string;
  via?: string;
}

/** What happened to an earlier attempt at this send (`elsewhere`: the connection's Cloud API transport has it). */
export type EarlierAttempt = 'sent' | 'failed' | 'unknown' | 'elsewhere';

/** Claims the send of `wid`; when an earlier attempt claimed it, says how that attempt ended. */
export async function claimSend(
  companyId: number,
  wid: string,
): Promise<{ claimed: true } | { claimed: false; earlier: EarlierAttempt }> {
  const claimed = await updateItem(sentKeys(companyId, wid), {
    set: { sendingAt: Date.now(), ttl: ttlIn(SENT_TTL_SECONDS) },
    condition: 'attribute_not_exists(sendingAt)',
  });
  if (claimed) return { claimed: true };
  const item = await getItem<SentItem>(sentKeys(companyId, wid));
  if (item?.via === 'cloud') return { claimed: false, earlier: 'elsewhere' };
  return { claimed: false, earlier: item?.sentAt ? 'sent' : item?.failedAt ? 'failed' : 'unknown' };
}

export async function recordSent(companyId: number, wid: string, content: unknown) {
  await updateItem(sentKeys(companyId, wid), {
    set: { sentAt: Date.now(), content: content === undefined ? undefined : JSON.stringify(content) },
  });
}

export async function recordFailed(companyId: number, wid: string) {
  await updateItem(sentKeys(companyId, wid), { set: { failedAt: Date.now() } });
}

/**
 * The content of a message we sent, as the provider handed it over (plain JSON: the provider
 * restores its own types), for its retry requests. Read consistently: a retry request can come
 * right after the send recorded it.
 */
export async function sentContent(companyId: number, wid: string): Promise<unknown | undefined> {
  const item = await getItem<SentItem>(sentKeys(companyId, wid), { consistent: true });
  return item?.content ? JSON.parse(item.content) : undefined;
}
