import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { Box, Button, Link, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/AuthProvider';
import { AFTER_LOGIN } from '../auth/guard';
import { ApiError } from '../api/errors';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { PublicLayout } from '../components/PublicLayout';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';
import { probeApi } from '../pwa/connectivity';
import { LoginField } from './LoginField';

// Only needed once the form is sent (issue 25: the page shows before zod and date-fns arrive).
const loadSchema = () => import('#shared/schemas/accounts');
const loadDates = () => Promise.all([import('../auth/session'), import('../lib/format')]);
const Alert = lazy(() => import('@mui/material/Alert'));

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
  useEffect(() => {
    void loadSchema();
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { LoginBody } = await loadSchema();
    const parsed = LoginBody.safeParse({ email, password });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    setExpired(null);
    setBusy(true);
    try {
      const [data, [{ expiryWarningDays }]] = await Promise.all([
        login(parsed.data.email, parsed.data.password),
        loadDates(),
      ]);
      const days = expiryWarningDays(data.company?.dueDate);
      if (days !== null) notify.warning(t('common:session.expiresSoon', { count: days }));
      void navigate(AFTER_LOGIN, { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ERR_COMPANY_EXPIRED') {
        const due = (err.details as { dueDate?: string } | undefined)?.dueDate;
        const [, { formatDate }] = await loadDates();
        setExpired(t('login.expired', { date: formatDate(due) || '—' }));
      } else {
        toastError(err);
        // no answer at all: the offline notice checks whether the API is reachable
        if (!(err instanceof ApiError)) void probeApi();
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicLayout title={t('login.title')}>
      <Box component="form" onSubmit={submit} noValidate>
        <Stack spacing={2}>
          {expired && (
            <Suspense fallback={null}>
              <Alert severity="error">{expired}</Alert>
            </Suspense>
          )}
          <LoginField
            label={t('login.email')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            {...fieldError('email')}
            required
            autoFocus
          />
          <LoginField
            label={t('login.password')}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            {...fieldError('password')}
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
