import { listUsers, rosterKeys, rosterVersionOf, userNamesWithPresence } from '../accounts/users';
import { dashPk, dayCounts, sumDashDays, type DashSum, type DayCounts } from './aggregates';
import { agentMetrics } from './agent';
import { keptDaysSplitAll, keptDaysWithItems, keptFold, type DaysSpec, type SplitDays } from '../kept-days';
import { AppError } from '../errors';
import { MSG } from '#shared/schemas/common';
import { localDay, shiftDay, utcDay } from '#shared/dates';
import { slaReport, type SlaDay } from '../sla/metrics';
import { slaDaysSpec, slaSum } from '../sla/days';

/**
 * Dashboard reads (attendance.md 2.11, 3; issue 24): sums over the aggregate items from the range's
 * first day to today (one per day, each user's counters inside; a day's item also carries what later
 * changed earlier days, aggregates.ts). Settled days never change, so an instance keeps them and
 * their sum (kept-days.ts) and each read adds the open day(s) to it; the same for the service-level
 * metrics of the range (sla/days.ts). The open days of both come in one BatchGet (their versions
 * alone when this instance parsed them already, and what is computed from them is kept per
 * version), with the version of the company's roster: the users, their names and who is online are
 * kept per instance too and read again (one Query) only when that version moved. Tickets are never
 * read. The AI agent's metrics (agent.ts) are counters of the same day items. Times are averages in minutes; service-level durations seconds.
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
    // today and the days - 1 calendar days before it
    const today = localDay(now);
    return { from: shiftDay(today, -(q.days - 1)), to: today };
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

/** The day items that hold a range's counters: from its first day to today (later items carry counters of its days). */
const dashDaysSpec = (companyId: number, r: Range, now: Date): DaysSpec<DayCounts> => ({
  pk: dashPk(companyId),
  from: r.from,
  to: [r.to, localDay(now)].sort()[1]!,
  parse: dayCounts,
});

/**
 * The counters of a range (each day item counts for its own day and, as `s#<day>#`, for earlier
 * ones), in two parts: the settled items' sum, kept per instance, and the open items' sum.
 */
function rangeSums(r: Range, split: SplitDays<DayCounts>): DashSum[] {
  const settled = keptFold(`dash|${r.to}|${split.settledKey}`, () => sumDashDays(split.settled, r.from, r.to));
  const open = () => sumDashDays(split.open, r.from, r.to);
  return [settled, split.openKey ? keptFold(`dash|${r.from}|${r.to}|${split.openKey}`, open) : open()];
}

async function readRange(companyId: number, r: Range, now = new Date()) {
  const [split] = await keptDaysSplitAll<[DayCounts]>([dashDaysSpec(companyId, r, now)], now);
  return rangeSums(r, split);
}

const total = (parts: DashSum[], field: string) => parts.reduce((s, p) => s + (p.total[field] ?? 0), 0);
const userTotal = (parts: DashSum[], userId: number, field: string) =>
  parts.reduce((s, p) => s + (p.users.get(userId)?.[field] ?? 0), 0);

export async function dashboard(companyId: number, r: Range, now = new Date()) {
  // the open days of both partitions and the roster's version come in one BatchGet once the settled
  // days are kept; the users are read again only when their version moved
  const {
    splits: [dashSplit, slaSplit],
    items: [roster],
  } = await keptDaysWithItems<[DayCounts, SlaDay]>(
    [dashDaysSpec(companyId, r, now), slaDaysSpec(companyId, r.from, r.to)],
    [rosterKeys(companyId)],
    now,
  );
  const users = await userNamesWithPresence(companyId, rosterVersionOf(roster));
  const parts = rangeSums(r, dashSplit);
  const sla = slaSum(slaSplit);
  const counters = {
    supportHappening: total(parts, 'open'),
    supportPending: total(parts, 'pending'),
    supportFinished: total(parts, 'closed'),
    newContacts: total(parts, 'newContacts'),
    avgSupportTime: minutes(total(parts, 'supportSum'), total(parts, 'supportCount')),
    avgWaitTime: minutes(total(parts, 'waitSum'), total(parts, 'waitCount')),
  };
  const attendants = users.map((u) => {
    const mine = (field: string) => userTotal(parts, u.id, field);
    const ratingCount = mine('ratingCount');
    return {
      id: u.id,
      name: u.name,
      rating: ratingCount ? Math.round((mine('ratingSum') / ratingCount) * 100) / 100 : 0,
      avgSupportTime: minutes(mine('supportSum'), mine('supportCount')),
      tickets: mine('tickets'),
      online: u.online,
    };
  });
  // the report too is the same for the same days' versions and attendants' names
  const report = () => slaReport(sla, users);
  const named = JSON.stringify(users.map((u) => [u.id, u.name]));
  const slaKey = slaSplit.openKey && `slaReport|${slaSplit.settledKey}|${slaSplit.openKey}|${named}`;
  const agent = agentMetrics((field) => total(parts, field));
  return { counters, attendants, agent, sla: slaKey ? keptFold(slaKey, report) : report(), range: r };
}

/** Tickets per attendant (`nome`/`quantidade`, the chart's field names). */
export async function ticketsUsers(companyId: number, r: Range) {
  const [parts, users] = await Promise.all([readRange(companyId, r), listUsers(companyId)]);
  const ids = new Set(parts.flatMap((p) => [...p.users.keys()]));
  const data = users
    .filter((u) => ids.has(u.id))
    .map((u) => ({ userId: u.id, nome: u.name, quantidade: userTotal(parts, u.id, 'tickets') }))
    .filter((row) => row.quantidade > 0)
    .sort((a, b) => b.quantidade - a.quantidade);
  return { data };
}

/** New tickets per day (`data`/`total`), or per hour (`horario`/`total`) when the range is one day. */
export async function ticketsDay(companyId: number, r: Range) {
  const parts = await readRange(companyId, r);
  const perDay = (day: string, field: string) => parts.reduce((s, p) => s + (p.days.get(day)?.[field] ?? 0), 0);
  if (r.from === r.to) {
    const data = Array.from({ length: 24 }, (_, h) => {
      const horario = String(h).padStart(2, '0');
      return { horario, total: perDay(r.from, `h${horario}`) };
    });
    return { data, count: data.reduce((s, d) => s + d.total, 0) };
  }
  const days = [...new Set(parts.flatMap((p) => [...p.days.keys()]))].sort();
  const data = days.map((day) => ({ data: day, total: perDay(day, 'tickets') }));
  return { data, count: data.reduce((s, d) => s + d.total, 0) };
}
