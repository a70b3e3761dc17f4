import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { Alert, Box, Button, Link, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { LoginBody } from '#shared/schemas/accounts';
import { useAuth } from '../auth/AuthProvider';
import { expiryWarningDays } from '../auth/session';
import { AFTER_LOGIN } from '../auth/guard';
import { ApiError } from '../api/errors';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { PublicLayout } from '../components/PublicLayout';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';
import { formatDate } from '../lib/format';

export default function LoginPage() {
  const { t } = useTranslation(['auth', 'common']);
  const { login } = useAuth();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [expired, setExpired] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const fieldError = useFieldError(errors);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = LoginBody.safeParse({ email, password });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    setExpired(null);
    setBusy(true);
    try {
      const data = await login(parsed.data.email, parsed.data.password);
      const days = expiryWarningDays(data.company?.dueDate);
      if (days !== null) notify.warning(t('common:session.expiresSoon', { count: days }));
      void navigate(AFTER_LOGIN, { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ERR_COMPANY_EXPIRED') {
        const due = (err.details as { dueDate?: string } | undefined)?.dueDate;
        setExpired(t('login.expired', { date: formatDate(due) || '—' }));
      } else toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicLayout title={t('login.title')}>
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          {expired && <Alert severity="error">{expired}</Alert>}
          <TextField
            label={t('login.email')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            {...fieldError('email')}
            fullWidth
            required
            autoFocus
          />
          <TextField
            label={t('login.password')}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            {...fieldError('password')}
            fullWidth
            required
          />
          <Button type="submit" variant="contained" size="large" disabled={busy}>
            {t('login.submit')}
          </Button>
          <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
            <Link component={RouterLink} to="/forgetpsw" variant="body2">
              {t('login.forgot')}
            </Link>
            <Link component={RouterLink} to="/signup" variant="body2">
              {t('login.signup')}
            </Link>
          </Stack>
        </Stack>
      </Box>
    </PublicLayout>
  );
}
