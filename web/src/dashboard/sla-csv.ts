import { type CsvCell, toCsv } from '#shared/csv';
import type { SlaReport, SlaRow } from '#shared/sla';
import type { AgentMetrics } from '#shared/schemas/knowledge';

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
 * quoted and a name written like a formula neutralised (shared/csv.ts). With `agent`, the AI agent's
 * rows follow (AgentCsv).
 */
export function slaCsv(report: SlaReport, labels: CsvLabels, agent?: AgentCsv): string {
  // the AI agent's columns come last, empty on the service-level rows
  const tail = agent ? ['', '', '', ''] : [];
  const rows: CsvCell[][] = [[...labels.columns, ...(agent?.labels.columns ?? [])]];
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
      ...tail,
    ]);
  for (const r of report.attendants) add('attendant', r);
  for (const r of report.queues) add('queue', r);
  for (const r of report.connections) add('connection', r);
  add('total', { ...report.total, name: labels.dimensions.total });
  if (agent) {
    const m = agent.metrics;
    const side = (name: string, resolved: number, csat: AgentMetrics['csat']['agent']) =>
      [name, name, '', '', '', resolved, '', '', '', csat.ratings, csat.percent] as CsvCell[];
    rows.push([
      ...side(agent.labels.agent, m.resolved, m.csat.agent),
      m.handOffs,
      m.handOffRate,
      m.spend.calls,
      m.spend.tokens,
    ]);
    rows.push([...side(agent.labels.people, m.peopleResolved, m.csat.people), '', '', '', '']);
  }
  return toCsv(rows, ',');
}

/**
 * The AI agent's metrics of the same period (issue 39 item 6), as two more rows: the agent's (tickets
 * it resolved, its CSAT, hand-offs, hand-off rate %, model calls and tokens) and people's (tickets
 * they resolved, their CSAT), under four more columns.
 */
export interface AgentCsv {
  metrics: AgentMetrics;
  labels: { columns: [string, string, string, string]; agent: string; people: string };
}
