import { Box, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ConnectionHealth, Whatsapp } from '#shared/schemas/whatsapp';
import { restrictionLines } from './restriction';
import { formatShortDateTime } from '../lib/format';

/**
 * The session health monitor's view of one connection (issue 15): when traffic last moved, the
 * last round-trip probe, the reconnects, and why the socket last closed with what to do about it.
 */
export function HealthCell({
  name,
  health,
  restriction = {},
}: {
  name: string;
  health?: ConnectionHealth;
  /** WhatsApp's warnings before a ban, shown above the rest */
  restriction?: Pick<Whatsapp, 'reachoutLockedUntil' | 'reachoutType' | 'newChatQuota'>;
}) {
  const { t } = useTranslation('connections');
  const warnings = restrictionLines(restriction).map((line) =>
    line.kind === 'reachoutLock' ? (
      <Typography key="lock" role="alert" variant="caption" color="error" sx={{ display: 'block', maxWidth: 320 }}>
        {t('health.reachoutLock', { date: formatShortDateTime(line.until) })}
        {line.type && ` (${line.type})`}
      </Typography>
    ) : (
      <Typography
        key="quota"
        variant="caption"
        color={line.exhausted ? 'error' : 'text.secondary'}
        sx={{ display: 'block', maxWidth: 320 }}
        {...(line.exhausted ? { role: 'alert' } : {})}
      >
        {t('health.newChatQuota', { used: line.used, total: line.total })}
        {line.endsAt && ` · ${t('health.newChatQuotaEnds', { date: formatShortDateTime(line.endsAt) })}`}
        {line.exhausted && ` · ${t('health.newChatQuotaExhausted')}`}
      </Typography>
    ),
  );
  if (!health) return warnings.length ? <Box>{warnings}</Box> : <Typography variant="body2">—</Typography>;
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
      {warnings}
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
