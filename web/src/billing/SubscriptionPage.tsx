import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { Alert, Box, Button, Card, CardContent, Grid, Skeleton, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { InvoiceRow, SubscriptionInfo } from '#shared/schemas/billing';
import { useApi } from '../api/swr';
import { formatBRL, formatDate } from '../lib/format';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { CheckoutDialog } from './CheckoutDialog';

/**
 * The subscription (/subscription, management.md "Invoices and checkout"): days left in the trial
 * (or of the license once paid), the plan with its limits, and the next invoice with a pay button.
 */
export default function SubscriptionPage() {
  const { t } = useTranslation('billing');
  const { data, mutate, isLoading } = useApi<SubscriptionInfo>('/subscription');
  const [paying, setPaying] = useState<InvoiceRow | null>(null);

  useRealtimeEvent<{ action: string }>('payment', (ev) => {
    if (ev.action === 'CONCLUIDA') void mutate();
  });

  const license = () => {
    if (!data) return null;
    const { company, daysLeft, expired } = data;
    if (expired) return t('subscription.expiredOn', { date: formatDate(company.dueDate) });
    if (data.trial)
      return (data.trialDaysLeft ?? 0) > 0
        ? t('subscription.trialDaysLeft', { count: data.trialDaysLeft ?? 0 })
        : t('subscription.trialOver');
    return daysLeft !== null ? t('subscription.daysLeft', { count: daysLeft }) : null;
  };

  return (
    <Box sx={{ p: 2, overflowY: 'auto', height: '100%' }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {t('subscription.title')}
      </Typography>
      {isLoading || !data ? (
        <Skeleton variant="rounded" height={160} />
      ) : (
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 4 }}>
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardContent>
                <Typography variant="overline">{data.trial ? t('subscription.trial') : data.company.name}</Typography>
                <Alert severity={data.expired ? 'error' : data.trial ? 'info' : 'success'} sx={{ my: 1 }}>
                  {license()}
                </Alert>
                <Typography variant="body2">
                  {t('subscription.dueDate', { date: formatDate(data.company.dueDate) })}
                </Typography>
                <Typography variant="body2">
                  {t('subscription.recurrence', { recurrence: data.company.recurrence })}
                </Typography>
              </CardContent>
            </Card>
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardContent>
                <Typography variant="overline">{t('subscription.plan')}</Typography>
                {data.plan && (
                  <>
                    <Typography variant="h6">{data.plan.name}</Typography>
                    <Typography variant="h5" sx={{ my: 1 }}>
                      {t('checkout.plan.perMonth', { value: formatBRL(data.plan.value) })}
                    </Typography>
                    <Typography variant="body2" color="text.secondary">
                      {t('subscription.planLimits', {
                        users: data.plan.users,
                        connections: data.plan.connections,
                        queues: data.plan.queues,
                      })}
                    </Typography>
                  </>
                )}
              </CardContent>
            </Card>
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardContent>
                <Typography variant="overline">{t('subscription.nextInvoice')}</Typography>
                {data.nextInvoice ? (
                  <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
                    <Typography variant="body1">
                      {t('subscription.invoiceLine', {
                        detail: data.nextInvoice.detail,
                        value: formatBRL(data.nextInvoice.value),
                        date: formatDate(data.nextInvoice.dueDate),
                      })}
                    </Typography>
                    <Button variant="contained" color="success" onClick={() => setPaying(data.nextInvoice)}>
                      {t('subscription.pay')}
                    </Button>
                  </Stack>
                ) : (
                  <Typography color="text.secondary">{t('subscription.noInvoice')}</Typography>
                )}
                <Button component={RouterLink} to="/financeiro" sx={{ mt: 1, px: 0 }}>
                  {t('subscription.invoices')}
                </Button>
              </CardContent>
            </Card>
          </Grid>
        </Grid>
      )}
      <CheckoutDialog invoice={paying} onClose={() => setPaying(null)} />
    </Box>
  );
}
