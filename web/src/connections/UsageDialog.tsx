import {
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Whatsapp } from '#shared/schemas/whatsapp';
import type { CloudUsageMonth } from '#shared/schemas/whatsapp-cloud';
import { useApi } from '../api/swr';
import { PendingView, EmptyText } from '../components/PendingView';
import { usePhone } from '../components/usePhone';
import { formatCount, monthLabel, usageRows } from './cloud-usage';

interface Props {
  /** the Cloud API connection whose usage is shown; undefined: closed */
  whatsapp: Pick<Whatsapp, 'id' | 'name'> | undefined;
  onClose(): void;
}

/**
 * A Cloud API connection's messages Meta priced (GET /whatsapp/{id}/usage), newest month first: per
 * category how many Meta charges for and how many were free, with the month's totals. Counts only:
 * the money is in Meta's WhatsApp Manager.
 */
export default function UsageDialog({ whatsapp, onClose }: Props) {
  const { t, i18n } = useTranslation(['connections', 'common']);
  const phone = usePhone();
  const { data, error, isLoading } = useApi<CloudUsageMonth[]>(whatsapp ? `/whatsapp/${whatsapp.id}/usage` : null);
  const count = (n: number) => formatCount(n, i18n.language);

  const body = () => {
    if (error || isLoading || !data) return <PendingView error={error} />;
    if (data.length === 0) return <EmptyText>{t('usage.empty')}</EmptyText>;
    return (
      <Stack spacing={3}>
        {data.map((month) => {
          const label = monthLabel(month.month, i18n.language);
          const headingId = `usage-${month.month}`;
          return (
            <Box key={month.month} component="section" aria-labelledby={headingId}>
              <Typography id={headingId} variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                {label}
              </Typography>
              <Table size="small" aria-label={t('usage.month', { month: label })}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('usage.columns.category')}</TableCell>
                    <TableCell align="right">{t('usage.columns.charged')}</TableCell>
                    <TableCell align="right">{t('usage.columns.free')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {usageRows(month).map((row) => (
                    <TableRow key={row.category}>
                      <TableCell>{t(`usage.category.${row.category}`, { defaultValue: row.category })}</TableCell>
                      <TableCell align="right">{count(row.charged)}</TableCell>
                      <TableCell align="right">{count(row.free)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
                <TableFooter>
                  <TableRow sx={{ '& td': { typography: 'body2', fontWeight: 600, color: 'text.primary' } }}>
                    <TableCell>{t('usage.total')}</TableCell>
                    <TableCell align="right">{count(month.totalCharged)}</TableCell>
                    <TableCell align="right">{count(month.totalFree)}</TableCell>
                  </TableRow>
                </TableFooter>
              </Table>
            </Box>
          );
        })}
      </Stack>
    );
  };

  return (
    <Dialog
      open={whatsapp !== undefined}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={phone}
      aria-labelledby="usage-title"
    >
      <DialogTitle id="usage-title">{t('usage.title', { name: whatsapp?.name })}</DialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('usage.intro')}
        </Typography>
        {body()}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:buttons.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
