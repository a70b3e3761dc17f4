import { useTranslation } from 'react-i18next';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { notify } from '../components/toast';

interface AiBudgetEvent {
  action: 'update';
  spent: boolean;
  limit: number | null;
}

/**
 * The company's monthly AI cap was reached (event `aiBudget`, sent to admins once a month): a warning
 * that the AI agent stopped and tickets go to people; the audit trail keeps it too. The prompts
 * texts load when the event comes, so the layout never waits for them.
 */
export function useAiBudgetToasts() {
  const { i18n } = useTranslation();
  useRealtimeEvent<AiBudgetEvent>('aiBudget', (data) => {
    if (data.action !== 'update' || !data.spent) return;
    void i18n
      .loadNamespaces('prompts')
      .then(() => notify.warning(i18n.t('prompts:aiBudgetSpent', { limit: data.limit ?? '' })));
  });
}
