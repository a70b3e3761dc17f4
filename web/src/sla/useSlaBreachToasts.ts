import { useTranslation } from 'react-i18next';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { notify } from '../components/toast';

interface BreachEvent {
  action: 'breach';
  ticketId: number;
  ticket?: { contact?: { name?: string } };
}

/** A missed deadline reaches the ticket's attendant and the admins (event `sla`): a warning toast. */
export function useSlaBreachToasts() {
  const { t } = useTranslation('sla');
  useRealtimeEvent<BreachEvent>('sla', (data) => {
    if (data.action !== 'breach') return;
    notify.warning(t('breach', { id: data.ticketId, name: data.ticket?.contact?.name ?? '' }));
  });
}
