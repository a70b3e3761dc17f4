import type { Item } from '../db';
import { listUsers, listUsersWithPresence } from '../accounts/users';
import { dashPk, dayCounts, userCounters } from './aggregates';
import { keptDays } from '../kept-days';
import { AppError } from '../errors';
import { MSG } from '#shared/schemas/common';
import { addDays, localDay, utcDay } from '#shared/dates';
import { slaReport } from '../sla/metrics';
import { slaDays } from '../sla/days';

/**
 * Dashboard reads (attendance.md 2.11, 3; issue 24): sums over the aggregate items from the range's
 * first day to today (one per day, each user's counters inside; a day's item also carries what later
 * changed earlier days, aggregates.ts), settled days kept per instance and only the open day(s)
 * read (kept-days.ts, one Query), the service-level metrics of the range
 * (sla/days.ts: the days still open, one Query), plus the users and who is online, all at once.
 * Tickets are never read. Times are averages in minutes; service-level durations seconds.
 */
export interface Range {
  from: string;
  to: string;
}

export function resolveRange(
  q: { days?: number; date_from?: string; date_to?: string; initialDate?: string; finalDate?: string },
  now = new Date(),
): Range {
  const from = q.date_from ?? q.initialDate;
  const to = q.date_to ?? q.finalDate;
  if (q.days && q.days > 0) {
    return { from: localDay(addDays(now, -(q.days - 1))), to: localDay(now) };
  }
  if (from || to) return checked({ from: (from ?? to)!.slice(0, 10), to: (to ?? localDay(now)).slice(0, 10) });
  return { from: `${localDay(now).slice(0, 8)}01`, to: localDay(now) };
}

/** A year and a day at most: the aggregates hold one item per day, so the range bounds the read. */
export const MAX_RANGE_DAYS = 366;

const rangeError = (message: string) =>
  new AppError('ERR_VALIDATION', 400, [{ path: ['date_from'], message, maxDays: MAX_RANGE_DAYS }]);

/** Real calendar days, `from` not after `to`, and not longer than MAX_RANGE_DAYS. */
function checked(r: Range): Range {
  // calendar days only: a day is read at midnight UTC and must come back as written (no 31 Feb)
  const from = Date.parse(`${r.from}T00:00:00Z`);
  const to = Date.parse(`${r.to}T00:00:00Z`);
  if (Number.isNaN(from) || Number.isNaN(to) || utcDay(new Date(from)) !== r.from || utcDay(new Date(to)) !== r.to)
    throw rangeError(MSG.invalid);
  if (from > to) throw rangeError(MSG.invalid);
  if ((to - from) / 86_400_000 + 1 > MAX_RANGE_DAYS) throw rangeError(MSG.long);
  return r;
}

const minutes = (sum: number, count: number) => (count ? Math.round((sum / count / 60_000) * 100) / 100 : 0);

/**
 * The counters of each day of a range (merged from the day items written from its first day to
 * today: each counts for its own day and, as `s#<day>#`, for earlier ones) and the users' counters
 * inside them. Settled day items come from the instance's keeping; the open ones from one Query.
 */
async function rangeItems(companyId: number, r: Range, now = new Date()) {
  const last = [r.to, localDay(now)].sort()[1]!; // to today: later items carry counters of the range's days
  const items = await keptDays(dashPk(companyId), r.from, last, dayCounts, now);
  const merged = new Map<string, Item>();
  for (const counts of items)
    for (const [day, fields] of counts) {
      if (day < r.from || day > r.to) continue;
      const into = merged.get(day) ?? { day };
      for (const [field, value] of Object.entries(fields)) into[field] = (Number(into[field]) || 0) + value;
      merged.set(day, into);
    }
  const days = [...merged.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  const userDays: Item[] = days.flatMap((d) =>
    [...userCounters(d)].map(([userId, counters]) => ({ userId, ...counters })),
  );
  return { days, userDays };
}

const sum = (items: Item[], field: string) => items.reduce((s, i) => s + (Number(i[field]) || 0), 0);

export async function dashboard(companyId: number, r: Range) {
  const [{ days, userDays }, users, sla] = await Promise.all([
    rangeItems(companyId, r),
    listUsersWithPresence(companyId),
    slaDays(companyId, r.from, r.to),
  ]);
  const counters = {
    supportHappening: sum(days, 'open'),
    supportPending: sum(days, 'pending'),
    supportFinished: sum(days, 'closed'),
    newContacts: sum(days, 'newContacts'),
    avgSupportTime: minutes(sum(days, 'supportSum'), sum(days, 'supportCount')),
    avgWaitTime: minutes(sum(days, 'waitSum'), sum(days, 'waitCount')),
  };
  const attendants = users.map((u) => {
    const mine = userDays.filter((d) => d.userId === u.id);
    const ratingCount = sum(mine, 'ratingCount');
    return {
      id: u.id,
      name: u.name,
      rating: ratingCount ? Math.round((sum(mine, 'ratingSum') / ratingCount) * 100) / 100 : 0,
      avgSupportTime: minutes(sum(mine, 'supportSum'), sum(mine, 'supportCount')),
      tickets: sum(mine, 'tickets'),
      online: u.online,
    };
  });
  return { counters, attendants, sla: slaReport(sla, users), range: r };
}

/** Tickets per attendant (`nome`/`quantidade`, the chart's field names). */
export async function ticketsUsers(companyId: number, r: Range) {
  const [{ userDays }, users] = await Promise.all([rangeItems(companyId, r), listUsers(companyId)]);
  const names = new Map(users.map((u) => [u.id, u.name]));
  const totals = new Map<number, number>();
  for (const d of userDays) totals.set(d.userId, (totals.get(d.userId) ?? 0) + (Number(d.tickets) || 0));
  const data = [...totals.entries()]
    .filter(([id, n]) => n > 0 && names.has(id))
    .map(([userId, quantidade]) => ({ userId, nome: names.get(userId)!, quantidade }))
    .sort((a, b) => b.quantidade - a.quantidade);
  return { data };
}

/** New tickets per day (`data`/`total`), or per hour (`horario`/`total`) when the range is one day. */
export async function ticketsDay(companyId: number, r: Range) {
  const { days } = await rangeItems(companyId, r);
  if (r.from === r.to) {
    const item = days[0] ?? {};
    const data = Array.from({ length: 24 }, (_, h) => {
      const horario = String(h).padStart(2, '0');
      return { horario, total: Number(item[`h${horario}`]) || 0 };
    });
    return { data, count: data.reduce((s, d) => s + d.total, 0) };
  }
  const data = days.map((d) => ({ data: d.day as string, total: Number(d.tickets) || 0 }));
  return { data, count: data.reduce((s, d) => s + d.total, 0) };
}
