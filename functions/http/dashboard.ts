import '#lib/startup';
import { z } from 'zod';
import { httpModule, route } from '#lib/http';
import { dashboard, resolveRange, ticketsDay, ticketsUsers } from '#lib/dashboard/service';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}/);
const DashboardQuery = z.object({
  days: z.coerce.number().int().min(0).max(366).optional(),
  date_from: day.optional(),
  date_to: day.optional(),
  companyId: z.unknown().optional(),
});
const ChartQuery = z.object({
  initialDate: day.optional(),
  finalDate: day.optional(),
  companyId: z.unknown().optional(),
});

/** Dashboard (attendance.md 2.11): counters, attendants and the two charts, from the aggregates. */
export const handler = httpModule({
  'GET /dashboard': route({ permission: 'dashboard:view', query: DashboardQuery }, async ({ auth, query }) =>
    dashboard(auth.companyId, resolveRange(query)),
  ),

  'GET /dashboard/ticketsUsers': route({ permission: 'dashboard:view', query: ChartQuery }, async ({ auth, query }) =>
    ticketsUsers(auth.companyId, resolveRange(query)),
  ),

  'GET /dashboard/ticketsDay': route({ permission: 'dashboard:view', query: ChartQuery }, async ({ auth, query }) =>
    ticketsDay(auth.companyId, resolveRange(query)),
  ),
});
