import { useEffect } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { FleetView } from '#shared/schemas/fleet';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { useAuth } from '../auth/AuthProvider';
import { PageFrame } from '../components/PageFrame';
import { formatMemory } from './fleet-format';
import { FleetQueues } from './FleetQueues';

/** No realtime event carries the fleet: the view is read again on this beat while the page is open. */
const REFRESH_MS = 15_000;

const when = (iso: string) => new Date(iso).toLocaleString();

/**
 * The operator's view of the WhatsApp fleet (issue 23, item 6), super users only: the session
 * runners, the platform's queues, every session that should run with its holder and why it is in its
 * state, and the sessions WhatsApp stopped for good (no holder: nothing runs them until a new start).
 */
export default function FleetPage() {
  const { t } = useTranslation('fleet');
  const { user } = useAuth();
  const isSuper = Boolean(user?.super);
  const { data, error, isLoading, mutate } = useApi<FleetView>(isSuper ? '/fleet' : null, undefined, {
    refreshInterval: REFRESH_MS,
  });
  useEffect(() => {
    if (error) toastError(error);
  }, [error]);

  if (!isSuper) return <Alert severity="info">{t('superOnly')}</Alert>;

  return (
    <PageFrame
      title={t('title')}
      actions={
        <Button variant="outlined" onClick={() => void mutate()}>
          {t('refresh')}
        </Button>
      }
    >
      {isLoading && !data ? (
        <Box sx={{ p: 4, textAlign: 'center' }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      ) : data ? (
        <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 3 }}>
          <section aria-labelledby="fleet-runners">
            <Typography id="fleet-runners" variant="h6" component="h2">
              {t('runners.title')}
            </Typography>
            <Table size="small" aria-labelledby="fleet-runners">
              <TableHead>
                <TableRow>
                  <TableCell>{t('runners.id')}</TableCell>
                  <TableCell>{t('runners.state')}</TableCell>
                  <TableCell>{t('runners.alive')}</TableCell>
                  <TableCell align="right">{t('runners.sessions')}</TableCell>
                  <TableCell align="right">{t('runners.memory')}</TableCell>
                  <TableCell>{t('runners.startedAt')}</TableCell>
                  <TableCell>{t('runners.heartbeatUntil')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.runners.map((r) => (
                  <TableRow key={r.id}>
                    <TableCell>{r.id}</TableCell>
                    <TableCell>{t(`runnerStates.${r.state}`)}</TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        color={r.alive ? 'success' : 'error'}
                        label={r.alive ? t('runners.aliveYes') : t('runners.aliveNo')}
                      />
                    </TableCell>
                    <TableCell align="right">{r.sessions}</TableCell>
                    <TableCell align="right">{formatMemory(r.rss)}</TableCell>
                    <TableCell>{when(r.startedAt)}</TableCell>
                    <TableCell>{when(r.heartbeatUntil)}</TableCell>
                  </TableRow>
                ))}
                {!data.runners.length && (
                  <TableRow>
                    <TableCell colSpan={7}>{t('runners.empty')}</TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </section>

          <FleetQueues queues={data.queues} onRedriven={() => void mutate()} />

          <section aria-labelledby="fleet-sessions">
            <Typography id="fleet-sessions" variant="h6" component="h2">
              {t('sessions.title')}
            </Typography>
            <Table size="small" aria-labelledby="fleet-sessions">
              <TableHead>
                <TableRow>
                  <TableCell>{t('sessions.company')}</TableCell>
                  <TableCell>{t('sessions.connection')}</TableCell>
                  <TableCell>{t('sessions.holder')}</TableCell>
                  <TableCell>{t('sessions.reason')}</TableCell>
                  <TableCell>{t('sessions.stoppedAt')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {data.sessions.map((s) => (
                  <TableRow key={`${s.companyId}#${s.whatsappId}`}>
                    <TableCell>{s.companyId}</TableCell>
                    <TableCell>{s.name ?? `#${s.whatsappId}`}</TableCell>
                    <TableCell>
                      {s.holder ? (
                        <>
                          {s.holder}
                          {!s.holderAlive && ` (${t('sessions.holderDead')})`}
                        </>
                      ) : (
                        t('sessions.noHolder')
                      )}
                    </TableCell>
                    <TableCell>
                      {t(`reasons.${s.reason}`)}
                      {s.reachoutLockedUntil && (
                        <Typography variant="caption" color="error" sx={{ display: 'block' }} role="alert">
                          {t('sessions.reachoutLocked', { date: when(s.reachoutLockedUntil) })}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell>{s.stoppedAt && when(s.stoppedAt)}</TableCell>
                  </TableRow>
                ))}
                {!data.sessions.length && (
                  <TableRow>
                    <TableCell colSpan={5}>{t('sessions.empty')}</TableCell>
                  </TableRow>
                )}
              </TableBody>
            </Table>
          </section>
        </Box>
      ) : null}
    </PageFrame>
  );
}
