import { createHash } from 'node:crypto';

/**
 * The push services a browser's subscription endpoint may name (Chrome and Edge on Android and
 * desktop use FCM, Firefox Mozilla's autopush, Edge on Windows WNS, Safari Apple's). The server POSTs
 * to the endpoint the client gave, so anything else is refused: no request to an address of the
 * client's choosing (SSRF).
 */
export const PUSH_SERVICE_HOSTS = ['fcm.googleapis.com', 'updates.push.services.mozilla.com', 'web.push.apple.com'];
/** any host under these (one label or more) */
export const PUSH_SERVICE_DOMAINS = ['push.services.mozilla.com', 'notify.windows.com', 'push.apple.com'];

/**
 * Whether `endpoint` is an https URL on a known push service, on the default port, without
 * credentials. `localOrigin` (the local stack's fake push service, never set on AWS) is accepted
 * too, for its `/push/` paths only.
 */
export function isAllowedPushEndpoint(endpoint: string, localOrigin?: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (localOrigin && url.origin === new URL(localOrigin).origin) return url.pathname.startsWith('/push/');
  if (url.protocol !== 'https:' || url.port !== '') return false;
  const host = url.hostname;
  return PUSH_SERVICE_HOSTS.includes(host) || PUSH_SERVICE_DOMAINS.some((domain) => host.endsWith(`.${domain}`));
}

/** A subscription's id: one per endpoint (the first 32 hex digits of its sha256). */
export const endpointId = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex').slice(0, 32);
