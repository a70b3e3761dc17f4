import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router-dom';
import { Box, Button, Link, MenuItem, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { SignupBody, type Plan } from '#shared/schemas/accounts';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { PublicLayout } from '../components/PublicLayout';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';
import { maskPhone } from '../lib/mask';
import { formatBRL } from '../lib/format';

/** Public signup (attendance.md 2.12): a company on a 3-day trial and its admin; then /login. */
export default function SignupPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { data: plans } = useSWR('public:/plans/list', () =>
    api.request<Plan[]>('GET', '/plans/list', { public: true }),
  );
  const [form, setForm] = useState({ companyName: '', name: '', email: '', password: '', phone: '', planId: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fieldError = useFieldError(errors);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: key === 'phone' ? maskPhone(e.target.value) : e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const companyId = params.get('companyId') ?? undefined;
    const parsed = SignupBody.safeParse({
      ...form,
      phone: form.phone || undefined,
      planId: form.planId || undefined,
      companyId,
    });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    setBusy(true);
    try {
      await api.post('/companies/cadastro', parsed.data, { public: true });
      notify.success(t('signup.success'));
      void navigate('/login');
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicLayout title={t('signup.title')}>
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          <TextField
            label={t('signup.companyName')}
            value={form.companyName}
            onChange={set('companyName')}
            {...fieldError('companyName')}
            required
            fullWidth
            autoFocus
          />
          <TextField
            label={t('signup.name')}
            value={form.name}
            onChange={set('name')}
            {...fieldError('name')}
            required
            fullWidth
            autoComplete="name"
          />
          <TextField
            label={t('signup.email')}
            type="email"
            value={form.email}
            onChange={set('email')}
            {...fieldError('email')}
            required
            fullWidth
            autoComplete="email"
          />
          <TextField
            label={t('signup.password')}
            type="password"
            value={form.password}
            onChange={set('password')}
            {...fieldError('password')}
            required
            fullWidth
            autoComplete="new-password"
          />
          <TextField
            label={t('signup.phone')}
            value={form.phone}
            onChange={set('phone')}
            {...fieldError('phone')}
            fullWidth
            placeholder="(99) 99999-9999"
            slotProps={{ htmlInput: { inputMode: 'tel', maxLength: 15 } }}
          />
          <TextField
            select
            label={t('signup.plan')}
            value={form.planId}
            onChange={set('planId')}
            {...fieldError('planId')}
            required
            fullWidth
          >
            {(plans ?? []).map((p) => (
              <MenuItem key={p.id} value={String(p.id)}>
                {t('signup.planOption', {
                  name: p.name,
                  users: p.users,
                  connections: p.connections,
                  queues: p.queues,
                  value: formatBRL(p.value),
                })}
              </MenuItem>
            ))}
          </TextField>
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {t('signup.submit')}
          </Button>
          <Link component={RouterLink} to="/login" variant="body2">
            {t('signup.login')}
          </Link>
        </Stack>
      </Box>
    </PublicLayout>
  );
}
