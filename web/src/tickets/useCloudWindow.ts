import { isCloudProvider } from '#shared/constants';
import { cloudWindowLeftMs } from '#shared/cloud-window';
import { useApi } from '../api/swr';
import { asList } from '../realtime/cache';
import { useNow } from '../sla/useNow';
import type { Ticket } from './types';

/**
 * The Cloud API's 24-hour window of a ticket (issue 36, shared/cloud-window.ts): `left` is null for a
 * ticket of a WhatsApp Web connection (with or without the Cloud API attached: WhatsApp Web carries
 * free text at any time), else the milliseconds left (0: closed); `templates` when the connection
 * reaches the Cloud API (its templates can be sent). Ticks every 30 s in the browser.
 */
export function useCloudWindow(ticket: Pick<Ticket, 'whatsappId' | 'customerMessageAt'>): {
  left: number | null;
  templates: boolean;
} {
  const { data } = useApi<unknown>('/whatsapp');
  const connection = asList<{ id: number; provider?: string; cloudTransport?: unknown }>(data, 'whatsapps').find(
    (w) => w.id === ticket.whatsappId,
  );
  const cloud = isCloudProvider(connection?.provider);
  // re-renders every 30 s; the time is read at each render, not at the last tick
  useNow(cloud, 30_000);
  return {
    left: cloud ? cloudWindowLeftMs(ticket.customerMessageAt, Date.now()) : null,
    templates: cloud || Boolean(connection?.cloudTransport),
  };
}
