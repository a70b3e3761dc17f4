import { type CsvCell, toCsv } from '#shared/csv';
import type { SlaReport, SlaRow } from '#shared/sla';

export type SlaDimension = 'attendant' | 'queue' | 'connection' | 'total';

/** The column titles and the dimension names, translated by the caller. */
export interface CsvLabels {
  columns: string[];
  dimensions: Record<SlaDimension, string>;
}

/**
 * The period's metrics as CSV (one row per attendant, queue and connection, then the total):
 * dimension, name, responses, first response median and p90 (s), resolved, resolution median and
 * p90 (s), deadlines missed, ratings, CSAT %. Built from the same answer the page shows; every cell
 * quoted and a name written like a formula neutralised (shared/csv.ts).
 */
export function slaCsv(report: SlaReport, labels: CsvLabels): string {
  const rows: CsvCell[][] = [labels.columns];
  const add = (dim: SlaDimension, r: SlaRow) =>
    rows.push([
      labels.dimensions[dim],
      r.name,
      r.firstResponse.count,
      r.firstResponse.median,
      r.firstResponse.p90,
      r.resolution.count,
      r.resolution.median,
      r.resolution.p90,
      r.breached,
      r.csat.ratings,
      r.csat.percent,
    ]);
  for (const r of report.attendants) add('attendant', r);
  for (const r of report.queues) add('queue', r);
  for (const r of report.connections) add('connection', r);
  add('total', { ...report.total, name: labels.dimensions.total });
  return toCsv(rows, ',');
}
