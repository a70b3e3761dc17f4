import { Alert } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Campaign } from '#shared/schemas/campaigns';
import { formatDateTime } from '../lib/format';

/** Why the ban-risk limiter paused the campaign, or why a running one is waiting. */
export function PauseNotice({
  campaign,
}: {
  campaign: Pick<Campaign, 'status' | 'pauseReason' | 'waitReason' | 'resumeAt'>;
}) {
  const { t } = useTranslation('campaigns');
  if (campaign.status === 'PAUSADA')
    return (
      <Alert severity="error" role="alert">
        {t(`pauseReason.${campaign.pauseReason ?? 'failures'}`)}
      </Alert>
    );
  if (campaign.status === 'EM_ANDAMENTO' && campaign.waitReason)
    return (
      <Alert severity="warning">
        {t(`waitReason.${campaign.waitReason}`, { date: formatDateTime(campaign.resumeAt ?? null) })}
      </Alert>
    );
  return null;
}
