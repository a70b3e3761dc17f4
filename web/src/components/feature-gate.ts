import type { PlanFeature } from '#shared/plans';

export type FeatureState = 'loading' | 'allowed' | 'denied';

/**
 * Whether a plan-gated page may render (management.md 6): while the plan loads nothing is decided;
 * a plan without the flag is denied, which shows a toast and sends the user to / after 1 second.
 */
export function featureState(
  plan: Partial<Record<PlanFeature, boolean>> | null | undefined,
  feature: PlanFeature,
): FeatureState {
  if (!plan) return 'loading';
  return plan[feature] ? 'allowed' : 'denied';
}
