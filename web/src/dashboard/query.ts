import { format, startOfMonth } from 'date-fns';

export type FilterType = 1 | 2;

/** Default date range: from the first of the month to today (2.11). */
export const defaultRange = (now = new Date()) => ({
  dateFrom: format(startOfMonth(now), 'yyyy-MM-dd'),
  dateTo: format(now, 'yyyy-MM-dd'),
});

/**
 * The `GET /dashboard` query for a filter: type 1 = date range (date_from/date_to), type 2 = period
 * in days (3, 7, 15, 30, 60, 90). Applying without a usable filter is the select-filter error.
 */
export function dashboardQuery(
  type: FilterType | '',
  input: { dateFrom?: string; dateTo?: string; days?: number },
): { query: Record<string, string | number> } | { error: 'selectFilter' } {
  if (type === 1 && input.dateFrom && input.dateTo)
    return { query: { date_from: input.dateFrom, date_to: input.dateTo } };
  if (type === 2 && input.days) return { query: { days: input.days } };
  return { error: 'selectFilter' };
}

/** Minutes as "1h 05m" / "12m". */
export function formatMinutes(value: number | null | undefined) {
  const total = Math.round(Number(value) || 0);
  const h = Math.floor(total / 60);
  const m = total % 60;
  return h ? `${h}h ${String(m).padStart(2, '0')}m` : `${m}m`;
}

/**
 * The attendants' "online" kept live: the dashboard's answer says who had a socket when it was read,
 * and the `presence` events since (usePresenceList) say who has one now. Away is still online (a tab
 * is open); a user the presence list does not know keeps what the dashboard said.
 */
export function withLiveStatus<A extends { id?: number; online: boolean }>(
  attendants: A[],
  statuses: { userId: number; status: string }[],
): A[] {
  const now = new Map(statuses.map((s) => [s.userId, s.status !== 'offline']));
  return attendants.map((a) => {
    const online = a.id === undefined ? undefined : now.get(a.id);
    return online === undefined || online === a.online ? a : { ...a, online };
  });
}
