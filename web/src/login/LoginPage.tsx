import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../auth/AuthProvider';
import { AFTER_LOGIN } from '../auth/guard';
import { ApiError } from '../api/errors';
import { toastError } from '../api/toast-error';
import { notify } from '../components/toast';
import { signOutNotice } from '../auth/storage';
import { PublicLayout } from '../components/PublicLayout';
import { useFieldError } from '../components/useFieldError';
import { fieldErrors } from '../lib/zod-errors';
import { probeApi } from '../pwa/connectivity';
import { LoginField } from './LoginField';

// Only needed once the form is sent (issue 25: the page shows before zod and date-fns arrive).
const loadSchema = () => import('#shared/schemas/accounts');
const loadDates = () => Promise.all([import('../auth/session'), import('../lib/format')]);
// Drawn without MUI (issue 25); the rare expired-company notice loads MUI's Alert when shown.
const ExpiredAlert = lazy(() => import('./ExpiredAlert'));

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
  // a session ended because the account signed in elsewhere: said here too, after the reload
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on arrival
  useEffect(() => {
    if (signOutNotice.take() === 'usedElsewhere') notify.error(t('common:session.usedElsewhere'));
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
      <form onSubmit={submit} noValidate className="pub-stack">
        {expired && (
          <Suspense fallback={null}>
            <ExpiredAlert text={expired} />
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
        <button type="submit" className="pub-button" disabled={busy}>
          {t('login.submit')}
        </button>
        <div className="pub-links">
          <Link className="pub-link" to="/forgetpsw">
            {t('login.forgot')}
          </Link>
          <Link className="pub-link" to="/signup">
            {t('login.signup')}
          </Link>
        </div>
      </form>
    </PublicLayout>
  );
}
