/** Plan feature flags and limits (attendance.md section 3, management.md section 1). */
export const PLAN_FEATURES = [
  'useCampaigns',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
  /** automation rules (issue 40) */
  'useAutomation',
] as const;
export type PlanFeature = (typeof PLAN_FEATURES)[number];

export const PLAN_LIMITS = ['users', 'connections', 'queues'] as const;
export type PlanLimit = (typeof PLAN_LIMITS)[number];
