import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useAuth } from './AuthProvider';
import { guardRedirect, type RouteKind } from './guard';

/** The page-wide spinner, in plain CSS (theme/base.css): it shows before MUI has loaded. */
export function FullPageSpinner() {
  return (
    <div className="app-spinner-frame">
      <span className="app-spinner" role="progressbar" aria-label="loading">
        <svg viewBox="22 22 44 44" width="40" height="40" aria-hidden="true">
          <circle cx="44" cy="44" r="20.2" fill="none" strokeWidth="3.6" />
        </svg>
      </span>
    </div>
  );
}

export function Guard({ kind, children }: { kind: RouteKind; children: ReactNode }) {
  const { status, landing } = useAuth();
  const to = guardRedirect(kind, status, landing);
  if (to) return <Navigate to={to} replace />;
  if (status === 'loading') return <FullPageSpinner />;
  return <>{children}</>;
}
