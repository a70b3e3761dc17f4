import webpush from 'web-push';
import { config } from '../config';
import type { VapidKeys } from '../secrets';
import { isAllowedPushEndpoint } from './endpoint';
import type { Notification } from './jobs';
import type { StoredSubscription } from './repo';

/** A push service that does not answer within this is a failure (retried by the queue). */
export const PUSH_TIMEOUT_MS = 10_000;

export type PushOutcome =
  | { outcome: 'sent'; status: number }
  /** the push service no longer knows the subscription (404, 410): it is removed */
  | { outcome: 'gone'; status?: number }
  | { outcome: 'failed'; status?: number; error?: string };

/** The VAPID `sub` claim: VAPID_SUBJECT, else the app's own https origin (AWS). */
function vapidSubject() {
  const { vapidSubject: subject, appOrigin } = config();
  if (subject) return subject;
  if (appOrigin?.startsWith('https://')) return appOrigin;
  throw new Error('VAPID_SUBJECT is not set and APP_ORIGIN is not https');
}

/**
 * Sends one notification to one device: web-push encrypts it for the subscription (RFC 8291,
 * aes128gcm) and signs the VAPID header; the request itself goes out with fetch, with a timeout and
 * without following redirects (the endpoint was checked, where it redirects to was not).
 */
export async function sendPush(
  sub: StoredSubscription,
  notification: Notification,
  keys: VapidKeys,
): Promise<PushOutcome> {
  // checked again on the way out: a subscription stored under an older rule is dropped, never sent to
  if (!isAllowedPushEndpoint(sub.endpoint, config().pushFakeOrigin)) return { outcome: 'gone' };
  const details = webpush.generateRequestDetails(
    { endpoint: sub.endpoint, keys: sub.keys },
    JSON.stringify(notification.payload),
    {
      vapidDetails: { subject: vapidSubject(), publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: notification.ttl,
      urgency: notification.urgency,
      contentEncoding: 'aes128gcm',
    },
  );
  const headers = Object.fromEntries(
    Object.entries(details.headers)
      .filter(([name]) => name.toLowerCase() !== 'content-length')
      .map(([name, value]) => [name, String(value)]),
  );
  try {
    const res = await fetch(details.endpoint, {
      method: 'POST',
      headers,
      body: new Uint8Array(details.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    await res.arrayBuffer().catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return { outcome: 'sent', status: res.status };
    if (res.status === 404 || res.status === 410) return { outcome: 'gone', status: res.status };
    return { outcome: 'failed', status: res.status };
  } catch (err) {
    return { outcome: 'failed', error: (err as Error).message };
  }
}
