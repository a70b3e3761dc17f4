import { Box, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ConnectionHealth } from '#shared/schemas/whatsapp';
import { formatShortDateTime } from '../lib/format';

/**
 * The session health monitor's view of one connection (issue 15): when traffic last moved, the
 * last round-trip probe, the reconnects, and why the socket last closed with what to do about it.
 */
export function HealthCell({ name, health }: { name: string; health?: ConnectionHealth }) {
  const { t } = useTranslation('connections');
  if (!health) return <Typography variant="body2">—</Typography>;
  const at = (value: string | undefined) => (value ? formatShortDateTime(value) : t('health.never'));
  const rows: [string, string][] = [
    [t('health.inbound'), at(health.lastInboundAt)],
    [t('health.outbound'), at(health.lastOutboundAt)],
    [t('health.ack'), at(health.lastAckAt)],
    [
      t('health.probe'),
      health.probeMs !== undefined
        ? t('health.probeMs', { ms: health.probeMs, at: formatShortDateTime(health.lastProbeAt) })
        : t('health.never'),
    ],
    [t('health.reconnects'), t('health.reconnectsValue', { count: health.reconnects, since: at(health.since) })],
    [t('health.zombieRestarts'), String(health.zombieRestarts)],
    ...(health.undecryptable ? [[t('health.undecryptable'), String(health.undecryptable)] as [string, string]] : []),
  ];
  const last = health.lastDisconnect;
  return (
    <Box component="dl" aria-label={t('health.details', { name })} sx={{ m: 0, textAlign: 'left' }}>
      {rows.map(([label, value]) => (
        <Stack key={label} direction="row" spacing={1}>
          <Typography component="dt" variant="caption" color="text.secondary">
            {label}:
          </Typography>
          <Typography component="dd" variant="caption" sx={{ m: 0 }}>
            {value}
          </Typography>
        </Stack>
      ))}
      {last && (
        <>
          <Typography component="dt" variant="caption" color="text.secondary">
            {t('health.lastDisconnect', { at: formatShortDateTime(last.at) })}:
          </Typography>
          <Typography component="dd" variant="caption" sx={{ m: 0, display: 'block', maxWidth: 320 }}>
            {t(`reasons.${last.reason}`)}
            {last.code !== undefined && ` (${last.code})`}
          </Typography>
        </>
      )}
    </Box>
  );
}
