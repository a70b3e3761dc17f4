import { isCloudProvider } from './constants';
import { cloudWindowLeftMs } from './cloud-window';

/**
 * One number, two transports (issue 36): a WhatsApp Web connection may also hold the same number
 * on the Cloud API (`cloudTransport`). Each message then goes through one of them, chosen per
 * message and kept on it (`transport`):
 * - a template goes through the Cloud API (only Meta sends templates);
 * - a group message through WhatsApp Web (the Cloud API has no groups as the product knows them);
 * - a free-form message outside the customer's 24-hour window through WhatsApp Web (Meta would
 *   refuse it there with 131047);
 * - anything else through the connection's preferred transport, or the other one while the
 *   preferred one is down.
 * A send routed to WhatsApp Web that no runner has taken FAILOVER_AFTER_SECONDS later goes through
 * the Cloud API instead (messages/failover.ts): the send is claimed once for both transports.
 */
export const TRANSPORTS = ['web', 'cloud'] as const;
export type Transport = (typeof TRANSPORTS)[number];

/** a send routed to WhatsApp Web and still not taken by a runner this long after is sent through the Cloud API */
export const FAILOVER_AFTER_SECONDS = 20;

interface Connection {
  provider: string;
  status: string;
  cloudTransport?: { status: string } | undefined;
  preferredTransport?: Transport | undefined;
}

/** The connection reaches Meta's Cloud API: a Cloud API connection, or a Web one with the transport attached. */
export const hasCloudTransport = (w: Pick<Connection, 'provider' | 'cloudTransport'>) =>
  isCloudProvider(w.provider) || Boolean(w.cloudTransport);

/** A WhatsApp Web connection that also holds its number on the Cloud API. */
export const isDualTransport = (w: Pick<Connection, 'provider' | 'cloudTransport'> | undefined) =>
  Boolean(w && !isCloudProvider(w.provider) && w.cloudTransport);

export const transportUp = (w: Connection, t: Transport) =>
  t === 'web' ? w.status === 'CONNECTED' : (w.cloudTransport?.status ?? w.status) === 'CONNECTED';

/** The transport a message of this connection goes through (see above); a single-transport connection has one. */
export function chooseTransport(
  w: Connection,
  send: { template?: boolean; group?: boolean; customerMessageAt?: string | null; now: number },
): Transport {
  if (isCloudProvider(w.provider)) return 'cloud';
  if (!w.cloudTransport) return 'web';
  if (send.template) return 'cloud';
  if (send.group || cloudWindowLeftMs(send.customerMessageAt, send.now) === 0) return 'web';
  const preferred = w.preferredTransport ?? 'web';
  const other: Transport = preferred === 'web' ? 'cloud' : 'web';
  return !transportUp(w, preferred) && transportUp(w, other) ? other : preferred;
}
