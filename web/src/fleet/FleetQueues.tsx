import { useState } from 'react';
import { Button, Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { FleetQueue } from '#shared/schemas/fleet';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { useConfirm } from '../components/ConfirmProvider';
import { notify } from '../components/toast';

/**
 * The platform's queues on the fleet page: depths and dead letters, with SQS's redrive of a queue's
 * dead letters (confirmed first: a message that failed for a lasting reason fails again).
 */
export function FleetQueues({ queues, onRedriven }: { queues: FleetQueue[]; onRedriven: () => void }) {
  const { t } = useTranslation('fleet');
  const confirm = useConfirm();
  const [busy, setBusy] = useState<string | null>(null);

  const redrive = async (q: FleetQueue) => {
    if (
      !(await confirm({
        title: t('queues.confirmTitle'),
        message: t('queues.confirmRedrive', { name: q.name, count: q.deadLetters }),
        confirmLabel: t('queues.redrive'),
      }))
    )
      return;
    setBusy(q.name);
    try {
      const { moved } = await api.post<{ name: string; moved: number }>(
        `/fleet/queues/${encodeURIComponent(q.name)}/redrive`,
      );
      notify.success(t('queues.redriven', { name: q.name, count: moved }));
      onRedriven();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="fleet-queues">
      <Typography id="fleet-queues" variant="h6" component="h2">
        {t('queues.title')}
      </Typography>
      <Table size="small" aria-labelledby="fleet-queues">
        <TableHead>
          <TableRow>
            <TableCell>{t('queues.name')}</TableCell>
            <TableCell align="right">{t('queues.visible')}</TableCell>
            <TableCell align="right">{t('queues.inFlight')}</TableCell>
            <TableCell align="right">{t('queues.delayed')}</TableCell>
            <TableCell align="right">{t('queues.deadLetters')}</TableCell>
            <TableCell align="center">{t('queues.actions')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {queues.map((q) => (
            <TableRow key={q.name}>
              <TableCell>{q.name}</TableCell>
              <TableCell align="right">{q.visible}</TableCell>
              <TableCell align="right">{q.inFlight}</TableCell>
              <TableCell align="right">{q.delayed}</TableCell>
              <TableCell align="right">
                {q.deadLetters > 0 ? <Chip size="small" color="error" label={q.deadLetters} /> : q.deadLetters}
              </TableCell>
              <TableCell align="center">
                {q.deadLetters > 0 && (
                  <Button
                    size="small"
                    variant="outlined"
                    color="error"
                    disabled={busy === q.name}
                    onClick={() => void redrive(q)}
                  >
                    {t('queues.redrive')}
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
          {!queues.length && (
            <TableRow>
              <TableCell colSpan={6}>{t('queues.empty')}</TableCell>
            </TableRow>
          )}
        </TableBody>
      </Table>
    </section>
  );
}
