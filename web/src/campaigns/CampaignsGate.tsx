import type { ComponentType } from 'react';
import { useAuth } from '../auth/AuthProvider';
import NotFound from '../components/NotFound';

/**
 * The campaign screens' guard (management.md 2, 6): they exist when the browser holds the `cshow`
 * storage flag. The menu also offers them when the plan has campaigns (attendance.md 2.2), so a
 * plan with useCampaigns opens them too rather than leading to "not found". Read when rendered:
 * the flag may be set after the app started.
 */
export const campaignsAllowed = (hasFlag: boolean, plan: { useCampaigns?: boolean } | null | undefined) =>
  hasFlag || Boolean(plan?.useCampaigns);

export function gated(Page: ComponentType): ComponentType {
  return function CampaignsGate() {
    const { plan } = useAuth();
    const hasFlag = localStorage.getItem('cshow') !== null;
    if (campaignsAllowed(hasFlag, plan)) return <Page />;
    // the plan is still loading: wait for it rather than flash "not found"
    if (plan === null) return null;
    return <NotFound />;
  };
}
