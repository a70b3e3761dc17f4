import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { Alert, Box, Button, Link, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ForgetPasswordParams, ResetPasswordBody } from '#shared/schemas/accounts';
import { api } from '../api/client';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { PublicLayout } from '../components/PublicLayout';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';

/** Reset in two steps: ask a code by e-mail, then code + new password (the password only in the body). */
export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [step, setStep] = useState<1 | 2>(1);
  const [email, setEmail] = useState('');
  const [token, setToken] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fieldError = useFieldError(errors);

  const requestCode = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = ForgetPasswordParams.safeParse({ email });
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    setBusy(true);
    try {
      await api.post(`/forgetpassword/${encodeURIComponent(parsed.data.email)}`, undefined, { public: true });
      setStep(2);
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const reset = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = ResetPasswordBody.safeParse({ email, token, password });
    const next = parsed.success ? {} : fieldErrors(parsed.error);
    if (next.password && next.password !== 'required') next.password = 'strongPassword';
    if (!confirm) next.confirm = 'required';
    else if (confirm !== password) next.confirm = 'passwordMismatch';
    if (!parsed.success || Object.keys(next).length) return setErrors(next);
    setErrors({});
    setBusy(true);
    try {
      await api.post('/resetpasswords', parsed.data, { public: true });
      notify.success(t('reset.success'));
      void navigate('/login');
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <PublicLayout title={t('reset.title')}>
      {step === 1 ? (
        <Box component="form" onSubmit={requestCode} noValidate>
          <Stack spacing={2}>
            <TextField
              label={t('reset.email')}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              {...fieldError('email')}
              required
              fullWidth
              autoFocus
            />
            <Button type="submit" variant="contained" size="large" disabled={busy}>
              {t('reset.sendCode')}
            </Button>
            <Link component={RouterLink} to="/login" variant="body2">
              {t('reset.back')}
            </Link>
          </Stack>
        </Box>
      ) : (
        <Box component="form" onSubmit={reset} noValidate>
          <Stack spacing={2}>
            <Alert severity="info">{t('reset.codeSent')}</Alert>
            <TextField
              label={t('reset.code')}
              value={token}
              onChange={(e) => setToken(e.target.value)}
              {...fieldError('token')}
              required
              fullWidth
              autoFocus
              autoComplete="one-time-code"
            />
            <TextField
              label={t('reset.newPassword')}
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              {...fieldError('password')}
              required
              fullWidth
              autoComplete="new-password"
            />
            <TextField
              label={t('reset.confirmPassword')}
              type="password"
              value={confirm}
              onChange={(e) => setConfirm(e.target.value)}
              {...fieldError('confirm')}
              required
              fullWidth
              autoComplete="new-password"
            />
            <Button type="submit" variant="contained" size="large" disabled={busy}>
              {t('reset.submit')}
            </Button>
            <Link component={RouterLink} to="/login" variant="body2">
              {t('reset.back')}
            </Link>
          </Stack>
        </Box>
      )}
    </PublicLayout>
  );
}
