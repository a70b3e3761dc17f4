import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import i18n from 'i18next';
import { api } from '../api/client';
import { sessionStore } from './storage';
import { AFTER_LOGIN } from './guard';
import { endSession } from './logout';
import type { Plan, SessionCompany, SessionPayload, SessionUser } from './types';
import { isRestricted } from '../billing/restricted';

type Status = 'loading' | 'anonymous' | 'authenticated';

// date-fns (the stored due date's format) loads with the first session, not with the login page.
const loadFormat = () => import('../lib/format');
type FormatDate = Awaited<ReturnType<typeof loadFormat>>['formatDate'];
// the push helpers only at logout
const loadPushSupport = () => import('../notifications/push-support');

interface AuthState {
  status: Status;
  user: SessionUser | null;
  company: SessionCompany | null;
  plan: Plan | null;
  /** an expired company's admin: only the invoices and the subscription are reachable (issue 10) */
  restricted: boolean;
  /** set by a successful login: where the public-route guard sends the user (/tickets) */
  landing: string | null;
  login(email: string, password: string): Promise<SessionPayload>;
  logout(): Promise<void>;
  /** replace the signed-in user (after the profile modal saves, or a `user` event) */
  setUser(user: SessionUser): void;
}

const Ctx = createContext<AuthState | null>(null);

export function useAuth() {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}

/**
 * The session (attendance.md 4.1): on start, a stored token triggers one refresh through the
 * httpOnly cookie and loads the user; login stores token, companyId, userId and the due date.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<Status>(sessionStore.token() ? 'loading' : 'anonymous');
  const [user, setUser] = useState<SessionUser | null>(null);
  const [company, setCompany] = useState<SessionCompany | null>(null);
  const [plan, setPlan] = useState<Plan | null>(null);
  const [landing, setLanding] = useState<string | null>(null);
  const [restricted, setRestricted] = useState(false);

  const accept = useCallback((data: SessionPayload, formatDate: FormatDate) => {
    sessionStore.save({
      token: data.token,
      companyId: data.user.companyId,
      userId: data.user.id,
      dueDate: formatDate(data.company?.dueDate ?? data.user.company?.dueDate),
    });
    setUser(data.user);
    setCompany(data.company);
    setRestricted(isRestricted(data));
    setStatus('authenticated');
    // The language saved on the account applies when this browser has no choice of its own.
    if (!localStorage.getItem('language') && data.user.language && data.user.language !== i18n.language)
      void i18n.changeLanguage(data.user.language);
  }, []);

  useEffect(() => {
    api.onLogout = () => {
      setUser(null);
      setCompany(null);
      setPlan(null);
      setLanding(null);
      setRestricted(false);
      setStatus('anonymous');
    };
    api.onRefreshed = (data) => {
      const payload = data as unknown as SessionPayload;
      if (payload.user && payload.company) void loadFormat().then((m) => accept(payload, m.formatDate));
    };
    if (sessionStore.token()) {
      void loadFormat();
      void api.refresh();
    }
  }, [accept]);

  useEffect(() => {
    if (!user) return;
    let cancelled = false;
    api
      .get<{ plan: Plan }>(`/companies/listPlan/${user.companyId}`)
      .then((r) => !cancelled && setPlan(r.plan))
      .catch(() => !cancelled && setPlan(null));
    return () => {
      cancelled = true;
    };
  }, [user?.companyId, user]);

  const login = useCallback(
    async (email: string, password: string) => {
      const [data, { formatDate }] = await Promise.all([
        api.post<SessionPayload>('/auth/login', { email, password }, { public: true }),
        loadFormat(),
      ]);
      setLanding(AFTER_LOGIN);
      accept(data, formatDate);
      return data;
    },
    [accept],
  );

  const logout = useCallback(
    () =>
      endSession({
        devicePush: () => loadPushSupport().then((m) => m.thisDevicePush()),
        endOnServer: (body) => api.request('DELETE', '/auth/logout', { public: true, body }),
        clearLocal: () => {
          sessionStore.clear();
          api.onLogout();
        },
      }),
    [],
  );

  const value = useMemo(
    () => ({ status, user, company, plan, restricted, landing, login, logout, setUser }),
    [status, user, company, plan, restricted, landing, login, logout],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}
