import { useEffect, useRef, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { PaymentEvent } from '#shared/schemas/billing';
import { api } from '../api/client';
import { useAuth } from '../auth/AuthProvider';
import { notify, toasts } from '../components/toast';
import { formatDate } from '../lib/format';
import { useRealtimeEvent } from '../realtime/RealtimeProvider';
import { RENEWAL_REDIRECT_MS, restrictedRedirect } from './restricted';

/**
 * A confirmed payment (`payment` with action CONCLUIDA, management.md 4): the toast "Sua licença foi
 * renovada até {date}!", a session refresh (a restricted session gets its full access back), and
 * after 4 seconds the app goes to /. Mounted once in the private layout, so it works on any page.
 */
export function PaymentWatcher() {
  // the strings load when a payment arrives, not with every page (issue 25: the layout's weight)
  const { t, i18n } = useTranslation('billing', { useSuspense: false });
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  useRealtimeEvent<PaymentEvent>('payment', async (ev) => {
    if (ev.action !== 'CONCLUIDA') return;
    await i18n.loadNamespaces('billing');
    // The toaster shows one toast at a time: the renewal must not wait behind older ones (the
    // checkout's own success toast) while the 4 seconds run.
    for (const old of toasts.current()) toasts.dismiss(old.id);
    notify.success(t('renewed', { date: formatDate(ev.company?.dueDate) }));
    void api.refresh();
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void navigate('/'), RENEWAL_REDIRECT_MS);
  });
  return null;
}

/** The restricted session's fence: anything but /financeiro and /subscription goes to /financeiro. */
export function RestrictedGate({ children }: { children: ReactNode }) {
  const { restricted } = useAuth();
  const { pathname } = useLocation();
  const to = restrictedRedirect(restricted, pathname);
  return to ? <Navigate to={to} replace /> : children;
}
