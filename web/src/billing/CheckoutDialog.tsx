import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActionArea,
  CardContent,
  Checkbox,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  FormControlLabel,
  Grid,
  IconButton,
  InputAdornment,
  MenuItem,
  Stack,
  Step,
  StepLabel,
  Stepper,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import { QRCodeSVG } from 'qrcode.react';
import { useTranslation } from 'react-i18next';
import { QR_SIZE } from '#shared/constants';
import type { Plan } from '#shared/schemas/accounts';
import type { InvoiceRow, PaymentResponse, SubscriptionInfo } from '#shared/schemas/billing';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { asList } from '../realtime/cache';
import { formatBRL } from '../lib/format';
import {
  CHECKOUT_STEPS,
  COUNTRIES,
  checkoutPayload,
  checkoutTotal,
  emptyCheckoutData,
  FIRST_STEP,
  stepErrors,
  type CheckoutData,
  type CheckoutStep,
} from './checkout';

/**
 * The checkout (management.md "Invoices and checkout", 4, 5): steps 0 data, 1 plan, 2 review and
 * 3 the PIX QR code with its copy-and-paste text; it opens on step 1. The payment is confirmed by
 * the `payment` event, which the app handles wherever the user is (`PaymentWatcher`).
 */
export function CheckoutDialog({ invoice, onClose }: { invoice: InvoiceRow | null; onClose(): void }) {
  const { t } = useTranslation('billing');
  const open = invoice !== null;
  // The company's plan comes with the subscription (a restricted session reads nothing else).
  const { data: subscription } = useApi<SubscriptionInfo>(open ? '/subscription' : null);
  const currentPlan = subscription?.plan ?? null;
  const { data: planData } = useApi<unknown>(open ? '/plans/list' : null);
  const plans = asList<Plan>(planData, 'plans');
  const [step, setStep] = useState<CheckoutStep>(FIRST_STEP);
  const [data, setData] = useState<CheckoutData>(emptyCheckoutData);
  const [planId, setPlanId] = useState<number | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [payment, setPayment] = useState<PaymentResponse | null>(null);
  const [busy, setBusy] = useState(false);
  const plan = plans.find((p) => p.id === planId) ?? null;

  useEffect(() => {
    if (!open) return;
    setStep(FIRST_STEP);
    setErrors({});
    setPayment(null);
  }, [open]);
  useEffect(() => {
    if (open && planId === null && currentPlan) setPlanId(currentPlan.id);
  }, [open, planId, currentPlan]);

  const field = (name: keyof CheckoutData) => ({
    value: data[name] as string,
    onChange: (e: { target: { value: string } }) => {
      setData({ ...data, [name]: e.target.value });
      setErrors(({ [name]: _, ...rest }) => rest);
    },
    error: Boolean(errors[name]),
    helperText: errors[name] ? t(`checkout.errors.${errors[name]}`) : undefined,
    fullWidth: true,
    size: 'small' as const,
  });

  const next = () => {
    const found = stepErrors(step, data, plan);
    setErrors(found);
    if (Object.keys(found).length) return;
    setStep((s) => (s + 1) as CheckoutStep);
  };

  const pay = async () => {
    if (!plan || !invoice) return;
    setBusy(true);
    try {
      const answer = await api.post<PaymentResponse>('/subscription', checkoutPayload(data, plan, invoice));
      setPayment(answer);
      setStep(3);
      notify.success(t('checkout.success'));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!payment) return;
    try {
      await navigator.clipboard.writeText(payment.qrcode.qrcode);
      notify.success(t('checkout.payment.copied'));
    } catch {
      // Without clipboard access (plain http), select the text so the user can copy it by hand.
      const input = document.getElementById('pix-copy-paste') as HTMLInputElement | null;
      input?.select();
    }
  };

  const total = checkoutTotal(plan, invoice);

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="checkout-title">
      <DialogTitle id="checkout-title">{t('checkout.title')}</DialogTitle>
      <DialogContent dividers>
        <Stepper activeStep={step} alternativeLabel sx={{ mb: 3 }}>
          {CHECKOUT_STEPS.map((s) => (
            <Step key={s}>
              <StepLabel>{t(`checkout.steps.${s}`)}</StepLabel>
            </Step>
          ))}
        </Stepper>

        {step === 0 && (
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField label={t('checkout.data.firstName')} required autoFocus {...field('firstName')} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField label={t('checkout.data.lastName')} {...field('lastName')} />
            </Grid>
            <Grid size={12}>
              <TextField label={t('checkout.data.address2')} required {...field('address2')} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField label={t('checkout.data.city')} required {...field('city')} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField label={t('checkout.data.state')} {...field('state')} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField label={t('checkout.data.zipcode')} required {...field('zipcode')} />
            </Grid>
            <Grid size={{ xs: 12, sm: 6 }}>
              <TextField select label={t('checkout.data.country')} required {...field('country')}>
                {COUNTRIES.map((c) => (
                  <MenuItem key={c} value={c}>
                    {t(`checkout.data.countries.${c}`)}
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
            <Grid size={12}>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={data.useAddressForPaymentDetails}
                    onChange={(e) => setData({ ...data, useAddressForPaymentDetails: e.target.checked })}
                  />
                }
                label={t('checkout.data.useAddressForPaymentDetails')}
              />
            </Grid>
          </Grid>
        )}

        {step === 1 && (
          <Box>
            <Typography variant="subtitle1" gutterBottom>
              {t('checkout.plan.choose')}
            </Typography>
            {errors.plan && (
              <Alert severity="error" sx={{ mb: 1 }}>
                {t('checkout.errors.plan')}
              </Alert>
            )}
            {plans.length === 0 && <Typography color="text.secondary">{t('checkout.plan.empty')}</Typography>}
            <Grid container spacing={2} role="radiogroup" aria-label={t('checkout.plan.choose')}>
              {plans.map((p) => {
                const selected = p.id === planId;
                return (
                  <Grid key={p.id} size={{ xs: 12, sm: 6, md: 4 }}>
                    <Card
                      variant="outlined"
                      sx={{ borderColor: selected ? 'primary.main' : undefined, borderWidth: 2 }}
                    >
                      <CardActionArea
                        role="radio"
                        aria-checked={selected}
                        aria-label={t('checkout.plan.select', { name: p.name })}
                        onClick={() => {
                          setPlanId(p.id);
                          setErrors({});
                        }}
                      >
                        <CardContent>
                          <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
                            <Typography variant="h6">{p.name}</Typography>
                            {selected && <CheckCircleIcon color="primary" />}
                          </Stack>
                          {p.id === currentPlan?.id && (
                            <Typography variant="caption" color="primary">
                              {t('checkout.plan.current')}
                            </Typography>
                          )}
                          <Typography variant="h5" sx={{ my: 1 }}>
                            {t('checkout.plan.perMonth', { value: formatBRL(p.value) })}
                          </Typography>
                          <Typography variant="body2">{t('checkout.plan.users', { count: p.users })}</Typography>
                          <Typography variant="body2">
                            {t('checkout.plan.connections', { count: p.connections })}
                          </Typography>
                          <Typography variant="body2">{t('checkout.plan.queues', { count: p.queues })}</Typography>
                        </CardContent>
                      </CardActionArea>
                    </Card>
                  </Grid>
                );
              })}
            </Grid>
          </Box>
        )}

        {step === 2 && plan && invoice && (
          <Stack spacing={1} sx={{ maxWidth: 520 }}>
            <Typography variant="h6">{t('checkout.review.title')}</Typography>
            <ReviewLine label={t('checkout.review.invoice')} value={`#${invoice.id} · ${invoice.detail}`} />
            <ReviewLine label={t('checkout.review.plan')} value={plan.name} />
            <ReviewLine label={t('checkout.review.users')} value={String(plan.users)} />
            <ReviewLine label={t('checkout.review.connections')} value={String(plan.connections)} />
            <Divider />
            <ReviewLine label={t('checkout.review.total')} value={formatBRL(total)} strong />
            <Typography variant="subtitle2" sx={{ pt: 1 }}>
              {t('checkout.review.billing')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {data.firstName
                ? [
                    `${data.firstName} ${data.lastName}`.trim(),
                    data.address2,
                    [data.city, data.state].filter(Boolean).join(' - '),
                    data.zipcode,
                    t(`checkout.data.countries.${data.country}`),
                  ]
                    .filter(Boolean)
                    .join(', ')
                : t('checkout.review.noBilling')}
            </Typography>
          </Stack>
        )}

        {step === 3 && payment && (
          <Stack spacing={2} sx={{ alignItems: 'center' }}>
            <Typography variant="h6">{t('checkout.payment.title')}</Typography>
            <Typography variant="body2" color="text.secondary">
              {t('checkout.payment.scan')}
            </Typography>
            <Box sx={{ p: 1, bgcolor: '#fff', borderRadius: 1 }}>
              <QRCodeSVG value={payment.qrcode.qrcode} size={QR_SIZE} title={t('checkout.payment.qr')} />
            </Box>
            <Typography variant="subtitle1">
              {t('checkout.payment.value', { value: formatBRL(Number(payment.valor.original)) })}
            </Typography>
            <TextField
              id="pix-copy-paste"
              label={t('checkout.payment.copyPaste')}
              value={payment.qrcode.qrcode}
              fullWidth
              multiline
              maxRows={4}
              slotProps={{
                htmlInput: { readOnly: true, style: { fontFamily: 'monospace', fontSize: 12 } },
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <Tooltip title={t('checkout.payment.copy')}>
                        <IconButton aria-label={t('checkout.payment.copy')} onClick={() => void copy()}>
                          <ContentCopyIcon />
                        </IconButton>
                      </Tooltip>
                    </InputAdornment>
                  ),
                },
              }}
            />
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
              <CircularProgress size={16} />
              <Typography variant="body2" color="text.secondary">
                {t('checkout.payment.waiting')}
              </Typography>
            </Stack>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common:buttons.close')}</Button>
        {step > 0 && step < 3 && (
          <Button onClick={() => setStep((s) => (s - 1) as CheckoutStep)}>{t('checkout.back')}</Button>
        )}
        {step < 2 && (
          <Button variant="contained" onClick={next}>
            {t('checkout.next')}
          </Button>
        )}
        {step === 2 && (
          <Button variant="contained" color="success" disabled={busy} onClick={() => void pay()}>
            {t('checkout.pay')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}

function ReviewLine({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 2 }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body2" sx={{ fontWeight: strong ? 700 : 400, textAlign: 'right' }}>
        {value}
      </Typography>
    </Stack>
  );
}
