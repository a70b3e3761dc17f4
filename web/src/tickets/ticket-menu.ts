import { can } from '#shared/permissions';
import type { PlanFeature } from '#shared/plans';

export type TicketMenuItem = 'schedule' | 'transfer' | 'delete';

/**
 * The open ticket's options menu (attendance.md 2.4), in display order: schedule only on a plan with
 * schedules (a plan not yet loaded counts as without), delete only with ticket-options:deleteTicket.
 */
export function ticketMenuItems(
  profile: string | undefined,
  plan: Partial<Record<PlanFeature, boolean>> | null,
): TicketMenuItem[] {
  return [
    ...(plan?.useSchedules ? (['schedule'] as const) : []),
    'transfer',
    ...(can(profile, 'ticket-options:deleteTicket') ? (['delete'] as const) : []),
  ];
}
