import { getItem, updateItem } from '../db';
import { ttlIn } from '../keys';

/**
 * The claim of a send, by WhatsApp id: `C#<cid>#WSENT` / `<wid>`. The session runner claims it
 * (`sendingAt`, conditionally) before it sends (session-runner/src/sent-store.ts keeps the rest of
 * the item: the outcome and the content for WhatsApp's retry requests). On a connection with two
 * transports the Cloud API side claims the same item (`via: cloud`), so one send goes through one
 * transport only, whichever claimed it first.
 */
export const sentKeys = (companyId: number, wid: string) => ({ pk: `C#${companyId}#WSENT`, sk: wid });
/** Kept for retry requests and redeliveries; SQS gives up on a command long before this. */
export const SENT_TTL_SECONDS = 7 * 24 * 3600;

/**
 * Gives a Cloud API claim back (Meta refused the send, so nothing went out): a runner may claim it
 * now. False when the claim is not the Cloud API's.
 */
export async function releaseCloudClaim(companyId: number, wid: string): Promise<boolean> {
  const released = await updateItem(sentKeys(companyId, wid), {
    remove: ['sendingAt', 'via'],
    condition: 'via = :cloud',
    conditionValues: { ':cloud': 'cloud' },
  });
  return Boolean(released);
}

/**
 * Claims the send of `wid` for the Cloud API. True when it is now, or already was, the Cloud API's;
 * false when a session runner claimed it (its outcome is the runner's, whatever it was).
 */
export async function claimForCloud(companyId: number, wid: string): Promise<boolean> {
  const claimed = await updateItem(sentKeys(companyId, wid), {
    set: { sendingAt: Date.now(), via: 'cloud', ttl: ttlIn(SENT_TTL_SECONDS) },
    condition: 'attribute_not_exists(sendingAt)',
  });
  if (claimed) return true;
  return (await getItem<{ via?: string }>(sentKeys(companyId, wid), { consistent: true }))?.via === 'cloud';
}
