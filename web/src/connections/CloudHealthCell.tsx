import { Alert, Box, Chip, Stack, Tooltip, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { formatShortDateTime } from '../lib/format';
import { QUALITY_COLOR, cloudWarning, qualityLevel, type CloudHealth } from './cloud-health';
import { formatCount, limitView } from './cloud-usage';

/**
 * A Cloud API number's health (the Connections page's health column): Meta's quality rating as a
 * coloured chip, the messaging limit, and a warning while Meta flags the number or rates it low.
 * Between 220 and 300 px wide: on a phone the table scrolls sideways rather than squeezing the warning.
 */
export function CloudHealthCell({ name, health }: { name: string; health: CloudHealth }) {
  const { t, i18n } = useTranslation('connections');
  const level = qualityLevel(health);
  const limit = limitView(health.cloudMessagingLimit);
  const warning = cloudWarning(health);
  const limitText =
    limit.kind === 'unlimited'
      ? t('cloud.limitUnlimited')
      : t(limit.kind === 'count' ? 'cloud.limitCount' : 'cloud.limitDefault', {
          customers: formatCount(limit.customers, i18n.language),
        });
  return (
    <Box sx={{ minWidth: 220, maxWidth: 300 }}>
      <Box component="dl" aria-label={t('cloud.details', { name })} sx={{ m: 0, textAlign: 'left' }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography component="dt" variant="caption" color="text.secondary">
            {t('cloud.quality')}:
          </Typography>
          <Box component="dd" sx={{ m: 0 }}>
            <Chip size="small" color={QUALITY_COLOR[level]} label={t(`cloud.level.${level}`)} data-quality={level} />
          </Box>
        </Stack>
        <Stack direction="row" spacing={1}>
          <Tooltip title={t('cloud.limitHelp')}>
            <Typography component="dt" variant="caption" color="text.secondary">
              {t('cloud.limit')}:
            </Typography>
          </Tooltip>
          <Typography component="dd" variant="caption" sx={{ m: 0 }}>
            {limitText}
          </Typography>
        </Stack>
      </Box>
      {warning && (
        <Alert
          severity="error"
          variant="outlined"
          sx={{ mt: 0.5, py: 0, px: 1, typography: 'caption', '& .MuiAlert-icon': { fontSize: 18, mr: 0.5 } }}
        >
          {warning === 'flagged'
            ? t('cloud.flagged', { at: formatShortDateTime(health.cloudQualityEventAt) })
            : t('cloud.lowQuality')}
        </Alert>
      )}
    </Box>
  );
}
