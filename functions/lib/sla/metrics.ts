import type { Ticket } from '#shared/schemas/tickets';
import {
  bucketOf,
  isSatisfied,
  percentileFromBuckets,
  percentilesFromBuckets,
  type SlaReport,
  type SlaRow,
} from '#shared/sla';
import { updateItem, type Item } from '../db';
import { log } from '../log';
import { DAY_VERSION } from '../kept-days';
import { dayOf } from '../dashboard/aggregates';

/**
 * Service-level metrics (issue 24), kept incrementally by the writes that change them (no scan):
 * one item per company and São Paulo day, `C#<cid>#SLA` / `D#<YYYY-MM-DD>`, with attributes
 * `<dim><id>#<metric>` for each dimension: `U` attendant, `Q` queue, `W` connection.
 * - `f<k>` / `r<k>`: how many first responses / resolutions took a duration of bucket k
 *   (shared/sla.ts `bucketOf`, fixed log-scale), counted on the day they happened;
 * - `b`: deadlines breached that day; `cn` / `cs`: ratings received / satisfied ones (CSAT);
 * - `n`: the queue's or connection's name as last seen (attendants' names come from the users).
 * Every event is counted on the day it happens (a breach on the day the timer finds it), so a day
 * that ended no longer changes (sla/days.ts keeps such days once read). A period's median and p90
 * come from the summed bucket counts of its days. Every ticket has a connection, so the company's
 * totals are the sum of the `W` dimension. Every write ADDs 1 to the item's version `v`
 * (kept-days.ts DAY_VERSION).
 */
export const slaPk = (companyId: number) => `C#${companyId}#SLA`;
export const slaDayKeys = (companyId: number, day: string) => ({ pk: slaPk(companyId), sk: `D#${day}` });

type Subject = Pick<Ticket, 'queueId' | 'queue' | 'whatsappId' | 'whatsapp'> & { userId: number | null };
export type Dim = 'U' | 'Q' | 'W';

/** The attributes one event adds on a day item, for the ticket's attendant, queue and connection. */
export function slaFields(t: Subject, metrics: Record<string, number>) {
  const add: Record<string, number> = {};
  const set: Record<string, string> = {};
  const subjects: [Dim, number | null, string | undefined][] = [
    ['U', t.userId, undefined],
    ['Q', t.queueId, t.queue?.name],
    ['W', t.whatsappId, t.whatsapp?.name],
  ];
  for (const [dim, id, name] of subjects) {
    if (id === null || id === undefined) continue;
    for (const [metric, by] of Object.entries(metrics)) if (by) add[`${dim}${id}#${metric}`] = by;
    if (name !== undefined) set[`${dim}${id}#n`] = name;
  }
  return { add, set };
}

/** One ADD on the day item (no read, no transaction); a failure is logged and never fails the write it follows. */
async function bump(companyId: number, at: string, t: Subject, metrics: Record<string, number>) {
  const day = dayOf(at);
  const { add, set } = slaFields(t, metrics);
  if (!Object.keys(add).length) return;
  try {
    await updateItem(slaDayKeys(companyId, day), { add: { ...add, [DAY_VERSION]: 1 }, set: { ...set, day } });
  } catch (err) {
    log.error('sla metric update failed', { companyId, day, error: (err as Error).message });
  }
}

const elapsed = (from: string | null | undefined, to: string) => (from ? Date.parse(to) - Date.parse(from) : null);

/** The first human reply of a round (credited to whoever sent it), timed from when the round started waiting. */
export function countFirstResponse(
  companyId: number,
  t: Subject & Pick<Ticket, 'queuedAt'>,
  userId: number,
  at: string,
) {
  const ms = elapsed(t.queuedAt, at);
  return ms === null ? undefined : bump(companyId, at, { ...t, userId }, { [`f${bucketOf(Math.max(0, ms))}`]: 1 });
}

/** A close: the resolution time of the round (queued -> closed), for the attendant who closed it. */
export function countResolution(companyId: number, t: Subject & Pick<Ticket, 'queuedAt' | 'finishedAt'>) {
  const ms = t.finishedAt ? elapsed(t.queuedAt, t.finishedAt) : null;
  return ms === null ? undefined : bump(companyId, t.finishedAt!, t, { [`r${bucketOf(Math.max(0, ms))}`]: 1 });
}

export const countBreach = (companyId: number, t: Subject, at: string) => bump(companyId, at, t, { b: 1 });

export const countRating = (companyId: number, t: Subject, rating: number, at: string) =>
  bump(companyId, at, t, { cn: 1, cs: isSatisfied(rating) ? 1 : 0 });

interface Acc {
  f: Map<number, number>;
  r: Map<number, number>;
  b: number;
  cn: number;
  cs: number;
  name?: string;
}
const newAcc = (): Acc => ({ f: new Map(), r: new Map(), b: 0, cn: 0, cs: 0 });
const DIMS = new Set(['U', 'Q', 'W']);
function isDigits(text: string) {
  if (!text.length || text.length > 15) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/**
 * Adds one day item's metrics (`<dim><id>#<metric>`) into `into`; any other attribute is skipped.
 * Read without a regular expression per attribute: a busy day item holds about a thousand.
 */
function accumulate(into: Map<string, Acc>, item: Item) {
  for (const name in item) {
    if (!DIMS.has(name[0]!)) continue;
    const cut = name.indexOf('#', 1);
    if (cut < 2) continue;
    const key = name.slice(0, cut);
    const metric = name.slice(cut + 1);
    const kind = metric[0];
    const bucket = (kind === 'f' || kind === 'r') && metric.length > 1 ? metric.slice(1) : undefined;
    const known = bucket !== undefined || metric === 'b' || metric === 'cn' || metric === 'cs' || metric === 'n';
    if (!known || !isDigits(key.slice(1)) || (bucket !== undefined && !isDigits(bucket))) continue;
    const acc = into.get(key) ?? newAcc();
    into.set(key, acc);
    const value = item[name];
    if (bucket !== undefined) {
      const histogram = acc[kind as 'f' | 'r'];
      const k = Number(bucket);
      histogram.set(k, (histogram.get(k) ?? 0) + Number(value));
    } else if (metric === 'n') acc.name = String(value);
    else acc[metric as 'b' | 'cn' | 'cs'] += Number(value);
  }
}

function durations(m: Map<number, number>) {
  let count = 0;
  for (const n of m.values()) count += n;
  const [median, p90] = percentilesFromBuckets(m, [0.5, 0.9]);
  return { count, median: median ?? null, p90: p90 ?? null };
}

function rowOf(id: number, name: string, acc: Acc): SlaRow {
  return {
    id,
    name,
    firstResponse: durations(acc.f),
    resolution: durations(acc.r),
    breached: acc.b,
    csat: { ratings: acc.cn, satisfied: acc.cs, percent: acc.cn ? Math.round((acc.cs / acc.cn) * 1000) / 10 : null },
  };
}

function merge(into: Acc, from: Acc) {
  for (const kind of ['f', 'r'] as const)
    for (const [k, n] of from[kind]) into[kind].set(k, (into[kind].get(k) ?? 0) + n);
  into.b += from.b;
  into.cn += from.cn;
  into.cs += from.cs;
}

/** What one day item says, per dimension and id (`U12`, `Q3`, `W1`) and for the company (sum of `W`). */
export interface SlaDay {
  day: string;
  byKey: Map<string, Acc>;
  total: Acc;
}

/** Reads the metrics out of a day item (computed once per item version by the dashboard's day cache). */
export function slaDayOf(item: Item): SlaDay {
  const byKey = new Map<string, Acc>();
  accumulate(byKey, item);
  const total = newAcc();
  for (const [key, acc] of byKey) if (key.startsWith('W')) merge(total, acc);
  return { day: String(item.day ?? String(item.sk).slice(2)), byKey, total };
}

/** Several days' metrics summed (per dimension and id, and the company's), with each day's chart point. */
export interface SlaSum {
  byKey: Map<string, Acc>;
  total: Acc;
  daily: SlaReport['daily'];
}

/**
 * `days` added to `base` (a sum of earlier days, never changed: the dashboard keeps the sum of a
 * range's settled days and adds the open ones to it on each read), as a new sum.
 */
export function sumSlaDays(days: SlaDay[], base?: SlaSum): SlaSum {
  const byKey = new Map<string, Acc>();
  const total = newAcc();
  const add = (from: Map<string, Acc>) => {
    for (const [key, acc] of from) {
      const into = byKey.get(key) ?? newAcc();
      merge(into, acc);
      if (acc.name !== undefined) into.name = acc.name;
      byKey.set(key, into);
    }
  };
  if (base) {
    add(base.byKey);
    merge(total, base.total);
  }
  for (const d of days) {
    add(d.byKey);
    merge(total, d.total);
  }
  const daily = days.map((d) => ({
    day: d.day,
    firstResponseMedian: percentileFromBuckets(d.total.f, 0.5),
    resolutionMedian: percentileFromBuckets(d.total.r, 0.5),
    breached: d.total.b,
  }));
  return { byKey, total, daily: base ? [...base.daily, ...daily] : daily };
}

/**
 * Metrics of a period from its summed days: per attendant (named from `users`), queue and
 * connection, the company's total, and per day the company's medians and breaches for the chart.
 */
export function slaReport(sum: SlaSum, users: { id: number; name: string }[]): SlaReport {
  const rows = (dim: Dim, nameOf: (id: number, acc: Acc) => string | undefined) =>
    [...sum.byKey]
      .filter(([key]) => key.startsWith(dim))
      .flatMap(([key, acc]) => {
        const id = Number(key.slice(1));
        const name = nameOf(id, acc);
        return name === undefined ? [] : [rowOf(id, name, acc)];
      })
      .sort((a, b) => a.name.localeCompare(b.name));
  const names = new Map(users.map((u) => [u.id, u.name]));
  return {
    // a deleted attendant's history stays in the total, not as a row without a name
    attendants: rows('U', (id) => names.get(id)),
    queues: rows('Q', (id, acc) => acc.name ?? `#${id}`),
    connections: rows('W', (id, acc) => acc.name ?? `#${id}`),
    total: rowOf(0, '', sum.total),
    daily: sum.daily,
  };
}
