import { Chip } from '@mui/material';
import ScheduleIcon from '@mui/icons-material/Schedule';
import { useTranslation } from 'react-i18next';
import { isCloudProvider } from '#shared/constants';
import { cloudWindowLeftMs } from '#shared/cloud-window';
import { useApi } from '../api/swr';
import { asList } from '../realtime/cache';
import { useNow } from '../sla/useNow';
import type { Ticket } from './types';

/** The last hour of a window is shown in amber. */
const AMBER_MS = 3_600_000;

/**
 * The Cloud API's 24-hour window of a ticket (issue 36, shared/cloud-window.ts): null for a ticket of
 * a WhatsApp Web connection, else the milliseconds left (0: closed). Ticks every 30 s in the browser.
 */
export function useCloudWindow(ticket: Pick<Ticket, 'whatsappId' | 'customerMessageAt'>): number | null {
  const { data } = useApi<unknown>('/whatsapp');
  const connection = asList<{ id: number; provider?: string }>(data, 'whatsapps').find(
    (w) => w.id === ticket.whatsappId,
  );
  const cloud = isCloudProvider(connection?.provider);
  // re-renders every 30 s; the time is read at each render, not at the last tick
  useNow(cloud, 30_000);
  return cloud ? cloudWindowLeftMs(ticket.customerMessageAt, Date.now()) : null;
}

/**
 * Time left in a window, rounded down to the minute: `23 h 59 min` right after the customer wrote
 * (rounding to the nearest would show a whole day), `5 min`, `< 1 min`.
 */
export function formatWindowLeft(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return '< 1 min';
  const hours = Math.floor(minutes / 60);
  return hours ? `${hours} h ${String(minutes % 60).padStart(2, '0')} min` : `${minutes} min`;
}

/** The window's chip in the ticket's header: time left, amber in the last hour, red once closed. */
export function CloudWindowChip({ left }: { left: number | null }) {
  const { t } = useTranslation('tickets');
  if (left === null) return null;
  const closed = left === 0;
  const label = closed ? t('window.closed') : t('window.left', { time: formatWindowLeft(left) });
  return (
    <Chip
      role="timer"
      aria-label={label}
      title={t('window.help')}
      size="small"
      icon={<ScheduleIcon />}
      color={closed ? 'error' : left < AMBER_MS ? 'warning' : 'default'}
      variant={closed || left < AMBER_MS ? 'filled' : 'outlined'}
      label={label}
    />
  );
}
