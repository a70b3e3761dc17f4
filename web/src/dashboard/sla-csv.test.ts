import { describe, expect, it } from 'vitest';
import { expectNoFormulaCell, readCsv } from '../../../tests/csv';
import { slaCsv } from './sla-csv';
import type { SlaRow } from '#shared/sla';

const row = (id: number, name: string, over: Partial<SlaRow> = {}): SlaRow => ({
  id,
  name,
  firstResponse: { count: 2, median: 64, p90: 304 },
  resolution: { count: 1, median: 3620, p90: 3620 },
  breached: 1,
  csat: { ratings: 2, satisfied: 1, percent: 50 },
  ...over,
});
const labels = {
  columns: ['dim', 'name', 'n', 'frMed', 'frP90', 'res', 'resMed', 'resP90', 'breached', 'ratings', 'csat'],
  dimensions: { attendant: 'Attendant', queue: 'Queue', connection: 'Connection', total: 'Total' },
};

describe('slaCsv', () => {
  it('one row per attendant, queue and connection, then the total; every field quoted; empty cells for no data', () => {
    const csv = slaCsv(
      {
        attendants: [row(1, 'Ana')],
        queues: [row(2, 'Sales, North', { csat: { ratings: 0, satisfied: 0, percent: null } })],
        connections: [row(3, 'Main')],
        total: row(0, ''),
        daily: [],
      },
      labels,
    );
    expect(csv.split('\r\n')).toEqual([
      '"dim","name","n","frMed","frP90","res","resMed","resP90","breached","ratings","csat"',
      '"Attendant","Ana","2","64","304","1","3620","3620","1","2","50"',
      '"Queue","Sales, North","2","64","304","1","3620","3620","1","0",""',
      '"Connection","Main","2","64","304","1","3620","3620","1","2","50"',
      '"Total","Total","2","64","304","1","3620","3620","1","2","50"',
      '',
    ]);
  });

  it('names written as formulas are text with an apostrophe, read with , or with ;', () => {
    const csv = slaCsv(
      {
        attendants: [row(1, "=cmd|' /C calc'!A0")],
        queues: [row(2, '@SUM(1+1); -1')],
        connections: [row(3, '=HYPERLINK("http://x")')],
        total: row(0, ''),
        daily: [],
      },
      labels,
    );
    expectNoFormulaCell(csv);
    expect(readCsv(csv, ',').map((r) => r[1])).toEqual([
      'name',
      "'=cmd|' /C calc'!A0",
      "'@SUM(1+1); -1",
      '\'=HYPERLINK("http://x")',
      'Total',
    ]);
  });
});

describe('slaCsv with the AI agent (issue 39 item 6)', () => {
  it("adds the agent's and people's rows under four more columns, empty on the service-level rows", () => {
    const csv = slaCsv(
      { attendants: [row(1, 'Ana')], queues: [], connections: [], total: row(0, ''), daily: [] },
      labels,
      {
        metrics: {
          resolved: 3,
          peopleResolved: 5,
          handOffs: 1,
          handOffRate: 25,
          csat: {
            agent: { ratings: 2, satisfied: 2, percent: 100, average: 2.5 },
            people: { ratings: 4, satisfied: 3, percent: 75, average: 2.25 },
          },
          spend: { calls: 7, tokens: 1234 },
        },
        labels: { columns: ['handOffs', 'rate', 'calls', 'tokens'], agent: 'AI agent', people: 'People' },
      },
    );
    expect(csv.split('\r\n')).toEqual([
      '"dim","name","n","frMed","frP90","res","resMed","resP90","breached","ratings","csat","handOffs","rate","calls","tokens"',
      '"Attendant","Ana","2","64","304","1","3620","3620","1","2","50","","","",""',
      '"Total","Total","2","64","304","1","3620","3620","1","2","50","","","",""',
      '"AI agent","AI agent","","","","3","","","","2","100","1","25","7","1234"',
      '"People","People","","","","5","","","","4","75","","","",""',
      '',
    ]);
  });
});
