import { can } from '#shared/permissions';
import type { PlanFeature } from '#shared/plans';

export type TicketMenuItem = 'schedule' | 'snooze' | 'wake' | 'transfer' | 'delete';

/**
 * The open ticket's options menu (attendance.md 2.4), in display order: schedule only on a plan with
 * schedules (a plan not yet loaded counts as without), snooze on an open ticket (wake on a snoozed
 * one, issue 40), delete only with ticket-options:deleteTicket.
 */
export function ticketMenuItems(
  profile: string | undefined,
  plan: Partial<Record<PlanFeature, boolean>> | null,
  ticket?: { status: string; snooze?: unknown },
): TicketMenuItem[] {
  return [
    ...(plan?.useSchedules ? (['schedule'] as const) : []),
    ...(ticket?.status === 'open' ? ([ticket.snooze ? 'wake' : 'snooze'] as const) : []),
    'transfer',
    ...(can(profile, 'ticket-options:deleteTicket') ? (['delete'] as const) : []),
  ];
}
