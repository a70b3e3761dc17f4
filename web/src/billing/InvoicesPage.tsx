import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Button, Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { invoiceDisplayStatus, type InvoiceRow } from '#shared/schemas/billing';
import { useAuth } from '../auth/AuthProvider';
import { PageFrame } from '../components/PageFrame';
import { formatBRL, formatDate } from '../lib/format';
import { usePagedList } from '../lib/usePagedList';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { CheckoutDialog } from './CheckoutDialog';

const STATUS_COLOR = { paid: 'success', expired: 'error', open: 'warning' } as const;

/**
 * Invoices (/financeiro, management.md "Invoices and checkout" and 4): infinite scroll, the display
 * status (an expired invoice is a red row) and a pay button that opens the checkout.
 */
export default function InvoicesPage() {
  const { t } = useTranslation('billing');
  const { restricted } = useAuth();
  const invoices = usePagedList<InvoiceRow>('/invoices/all', 'invoices');
  const [paying, setPaying] = useState<InvoiceRow | null>(null);

  useRealtimeEvent<{ action: string; invoiceId?: number }>('payment', (ev) => {
    if (ev.action === 'CONCLUIDA') void invoices.reload();
  });

  return (
    <PageFrame
      title={t('invoices.title')}
      onScroll={invoices.onScroll}
      actions={
        <Button component={RouterLink} to="/subscription" variant="outlined">
          {t('invoices.subscription')}
        </Button>
      }
    >
      {restricted && (
        <Alert severity="error" sx={{ m: 2 }}>
          {t('invoices.restricted')}
        </Alert>
      )}
      <Table size="small" stickyHeader aria-label={t('invoices.title')}>
        <TableHead>
          <TableRow>
            <TableCell align="center">{t('invoices.columns.id')}</TableCell>
            <TableCell>{t('invoices.columns.detail')}</TableCell>
            <TableCell align="center">{t('invoices.columns.value')}</TableCell>
            <TableCell align="center">{t('invoices.columns.dueDate')}</TableCell>
            <TableCell align="center">{t('invoices.columns.status')}</TableCell>
            <TableCell align="center">{t('invoices.columns.action')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {invoices.items.map((invoice) => {
            // Recomputed here so a page left open past midnight turns the row red.
            const status = invoiceDisplayStatus(invoice);
            return (
              <TableRow
                key={invoice.id}
                // the hover shade would hide the red of an expired row
                hover={status !== 'expired'}
                data-status={status}
                sx={status === 'expired' ? { bgcolor: 'error.light', '& td': { color: 'error.contrastText' } } : {}}
              >
                <TableCell align="center">{invoice.id}</TableCell>
                <TableCell>{invoice.detail}</TableCell>
                <TableCell align="center">{formatBRL(invoice.value)}</TableCell>
                <TableCell align="center">{formatDate(invoice.dueDate)}</TableCell>
                <TableCell align="center">
                  <Chip size="small" color={STATUS_COLOR[status]} label={t(`invoices.status.${status}`)} />
                </TableCell>
                <TableCell align="center">
                  {status === 'paid' ? (
                    <Typography variant="body2">{t('invoices.paid')}</Typography>
                  ) : (
                    <Button
                      size="small"
                      variant="contained"
                      color="success"
                      aria-label={t('invoices.payInvoice', { id: invoice.id })}
                      onClick={() => setPaying(invoice)}
                    >
                      {t('invoices.pay')}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {!invoices.isLoading && invoices.items.length === 0 && (
        <Box sx={{ p: 3, textAlign: 'center' }}>
          <Typography color="text.secondary">{t('invoices.empty')}</Typography>
        </Box>
      )}
      <CheckoutDialog invoice={paying} onClose={() => setPaying(null)} />
    </PageFrame>
  );
}
