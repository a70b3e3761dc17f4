import { useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Grid,
  MenuItem,
  Switch,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { Company, Plan } from '#shared/schemas/accounts';
import { CompanyBody, CompanyUpdateBody, type CompanyRow } from '#shared/schemas/billing';
import { api } from '../api/client';
import { useApi } from '../api/swr';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { useFieldError } from '../components/useFieldError';
import { maskPhone } from '../lib/mask';
import { fieldErrors } from '../lib/zod-errors';
import { HoursEditor } from '../queues/HoursEditor';
import { invalidHours, weekOf, type DayHours } from '../queues/hours';
import { asList } from '../realtime/cache';
import { RECURRENCE_OPTIONS, companyForm, dueDay, emptyCompanyForm, withDay, type CompanyForm } from './company-form';
import { platformError } from './platform-errors';
import { RecordFields, useEditedRecord } from '../components/EditedRecord';

/** Create or edit a company (super user; management.md 3 "Company", 4, 5), with its business hours. */
export function CompanyModal({
  open,
  companyId,
  onClose,
  onSaved,
}: {
  open: boolean;
  companyId?: number;
  onClose(): void;
  onSaved(company: CompanyRow): void;
}) {
  const { t } = useTranslation(['settings', 'common']);
  const { data: planData } = useApi<unknown>(open ? '/plans/all' : null);
  const plans = asList<Plan>(planData, 'plans');
  const [form, setForm] = useState<CompanyForm>(emptyCompanyForm);
  const [tab, setTab] = useState<'data' | 'hours'>('data');
  const [week, setWeek] = useState<DayHours[] | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fieldError = useFieldError(errors);

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setTab('data');
    setWeek(null);
    if (!companyId) return setForm(emptyCompanyForm());
    let current = true;
    api
      .get<{ schedules: DayHours[] }>(`/companies/${companyId}/schedules`)
      .then((r) => current && setWeek(weekOf(r.schedules)), toastError);
    return () => {
      current = false;
    };
  }, [open, companyId]);
  const loading = useEditedRecord<Company>(open, companyId ? `/companies/${companyId}` : null, (c) =>
    setForm(companyForm(c)),
  );

  const set = <K extends keyof CompanyForm>(key: K, value: CompanyForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors(({ [key]: _, ...rest }) => rest);
  };
  const text = (key: keyof CompanyForm) => ({
    value: form[key] as string,
    onChange: (e: { target: { value: string } }) => set(key, e.target.value as never),
    ...fieldError(key),
    fullWidth: true,
    size: 'small' as const,
  });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { password, ...rest } = form;
    const input = { ...rest, dueDate: form.dueDate || null, ...(companyId || !password ? {} : { password }) };
    const parsed = (companyId ? CompanyUpdateBody : CompanyBody).safeParse(input);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setBusy(true);
    try {
      const saved = companyId
        ? await api.put<CompanyRow>(`/companies/${companyId}`, input)
        : await api.post<CompanyRow>('/companies', input);
      notify.success(t('companies.saved'));
      onSaved(saved);
      onClose();
    } catch (err) {
      platformError(err);
    } finally {
      setBusy(false);
    }
  };

  const saveHours = async () => {
    if (!week || !companyId) return;
    if (invalidHours(week).length) return notify.error(t('hoursInvalid'));
    try {
      await api.put(`/companies/${companyId}/schedules`, { schedules: week });
      notify.success(t('schedulesSaved'));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="company-modal-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="company-modal-title">
          {companyId ? t('companies.modal.titleEdit') : t('companies.modal.titleAdd')}
        </DialogTitle>
        {companyId && (
          <Tabs value={tab} onChange={(_, v) => setTab(v)} sx={{ px: 3 }}>
            <Tab value="data" label={t('companies.modal.tabData')} />
            <Tab value="hours" label={t('companies.modal.tabHours')} />
          </Tabs>
        )}
        <DialogContent dividers>
          <RecordFields loading={loading}>
            {tab === 'data' && (
              <Grid container spacing={2}>
                <Grid size={{ xs: 12, sm: 6 }}>
                  <TextField label={t('companies.modal.name')} required autoFocus {...text('name')} />
                </Grid>
                <Grid size={{ xs: 12, sm: 6 }}>
                  <TextField label={t('companies.modal.email')} type="email" {...text('email')} />
                </Grid>
                <Grid size={{ xs: 12, sm: 4 }}>
                  <TextField
                    label={t('companies.modal.phone')}
                    {...text('phone')}
                    value={maskPhone(form.phone)}
                    onChange={(e) => set('phone', e.target.value.replace(/\D/g, ''))}
                  />
                </Grid>
                <Grid size={{ xs: 12, sm: 4 }}>
                  <TextField
                    select
                    label={t('companies.modal.plan')}
                    required
                    {...text('planId')}
                    value={form.planId}
                    onChange={(e) => set('planId', Number(e.target.value))}
                  >
                    {plans.map((p) => (
                      <MenuItem key={p.id} value={p.id}>
                        {p.name}
                      </MenuItem>
                    ))}
                  </TextField>
                </Grid>
                <Grid size={{ xs: 12, sm: 4 }}>
                  <TextField
                    select
                    label={t('companies.modal.recurrence')}
                    {...text('recurrence')}
                    onChange={(e) => set('recurrence', e.target.value as CompanyForm['recurrence'])}
                  >
                    {RECURRENCE_OPTIONS.map((r) => (
                      <MenuItem key={r} value={r}>
                        {t(`companies.recurrences.${r}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                </Grid>
                <Grid size={{ xs: 12, sm: 4 }}>
                  <TextField
                    label={t('companies.modal.dueDate')}
                    type="date"
                    {...text('dueDate')}
                    value={dueDay(form.dueDate)}
                    onChange={(e) => set('dueDate', withDay(form.dueDate, e.target.value))}
                    slotProps={{ inputLabel: { shrink: true } }}
                  />
                </Grid>
                <Grid size={{ xs: 12, sm: 8 }}>
                  {!companyId && (
                    <TextField
                      label={t('companies.modal.password')}
                      type="password"
                      autoComplete="new-password"
                      helperText={
                        errors.password ? fieldError('password').helperText : t('companies.modal.passwordHint')
                      }
                      error={Boolean(errors.password)}
                      value={form.password}
                      onChange={(e) => set('password', e.target.value)}
                      fullWidth
                      size="small"
                    />
                  )}
                </Grid>
                <Grid size={{ xs: 12, sm: 6 }}>
                  <FormControlLabel
                    control={<Switch checked={form.status} onChange={(e) => set('status', e.target.checked)} />}
                    label={t('companies.modal.status')}
                  />
                </Grid>
                <Grid size={{ xs: 12, sm: 6 }}>
                  <FormControlLabel
                    control={
                      <Switch
                        checked={form.campaignsEnabled}
                        onChange={(e) => set('campaignsEnabled', e.target.checked)}
                      />
                    }
                    label={t('companies.modal.campaignsEnabled')}
                  />
                </Grid>
                <Grid size={12}>
                  <Typography variant="subtitle2">{t('companies.modal.billing')}</Typography>
                </Grid>
                <Grid size={{ xs: 12, sm: 8 }}>
                  <TextField label={t('companies.modal.billingName')} {...text('billingName')} />
                </Grid>
                <Grid size={{ xs: 12, sm: 4 }}>
                  <TextField label={t('companies.modal.document')} {...text('document')} />
                </Grid>
                <Grid size={{ xs: 12, sm: 6 }}>
                  <TextField label={t('companies.modal.address')} {...text('address')} />
                </Grid>
                <Grid size={{ xs: 12, sm: 6 }}>
                  <TextField label={t('companies.modal.address2')} {...text('address2')} />
                </Grid>
                <Grid size={{ xs: 12, sm: 3 }}>
                  <TextField label={t('companies.modal.city')} {...text('city')} />
                </Grid>
                <Grid size={{ xs: 12, sm: 3 }}>
                  <TextField label={t('companies.modal.state')} {...text('state')} />
                </Grid>
                <Grid size={{ xs: 12, sm: 3 }}>
                  <TextField label={t('companies.modal.zipcode')} {...text('zipcode')} />
                </Grid>
                <Grid size={{ xs: 12, sm: 3 }}>
                  <TextField label={t('companies.modal.country')} {...text('country')} />
                </Grid>
              </Grid>
            )}
            {tab === 'hours' && (
              <Box sx={{ maxWidth: 640 }}>
                <Alert severity="info" sx={{ mb: 1 }}>
                  {t('schedulesHint')}
                </Alert>
                {week && <HoursEditor week={week} onChange={setWeek} />}
                <Button variant="contained" sx={{ mt: 2 }} onClick={() => void saveHours()}>
                  {t('saveSchedules')}
                </Button>
              </Box>
            )}
          </RecordFields>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common:buttons.cancel')}</Button>
          {tab === 'data' && (
            <Button type="submit" variant="contained" disabled={busy || loading}>
              {t('common:buttons.save')}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
