import { useEffect, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { REDIRECT_DELAY_MS } from '#shared/constants';
import type { PlanFeature } from '#shared/plans';
import { useAuth } from '../auth/AuthProvider';
import { featureState } from './feature-gate';
import { notify } from './toast';

/**
 * A page behind a plan flag (management.md 6 and 8): without the flag the page shows `message` as
 * an error toast and goes to / after REDIRECT_DELAY_MS; nothing renders while the plan loads.
 */
export function FeatureGate({
  feature,
  message,
  children,
}: {
  feature: PlanFeature;
  message: string;
  children: ReactNode;
}) {
  const { plan } = useAuth();
  const navigate = useNavigate();
  const state = featureState(plan, feature);

  useEffect(() => {
    if (state !== 'denied') return;
    notify.error(message);
    const timer = setTimeout(() => void navigate('/'), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state, message, navigate]);

  return state === 'allowed' ? children : null;
}
