import { describe, expect, it } from 'vitest';
import { bucketOf } from '#shared/sla';
import { slaDayOf, slaFields, slaReport, sumSlaDays } from './metrics';

const ticket = {
  userId: 7,
  queueId: 3,
  queue: { id: 3, name: 'Vendas', color: '#000' },
  whatsappId: 1,
  whatsapp: { id: 1, name: 'Principal' },
};

/** A day item as the ADDs would leave it. */
function dayItem(day: string, events: Record<string, number>[], t: typeof ticket = ticket) {
  const item: Record<string, unknown> = { pk: 'C#1#SLA', sk: `D#${day}`, day, open: 3, 'U#0000000007#tickets': 2 };
  for (const metrics of events) {
    const { add, set } = slaFields(t, metrics);
    for (const [k, v] of Object.entries(add)) item[k] = ((item[k] as number) ?? 0) + v;
    Object.assign(item, set);
  }
  return item;
}

describe('service-level metrics from day items', () => {
  it('each event counts for the attendant, the queue and the connection; the dashboard counters are not read as metrics', () => {
    const { add, set } = slaFields(ticket, { [`f${bucketOf(60_000)}`]: 1 });
    expect(add).toEqual({ 'U7#f24': 1, 'Q3#f24': 1, 'W1#f24': 1 });
    expect(set).toEqual({ 'Q3#n': 'Vendas', 'W1#n': 'Principal' });
    const day = slaDayOf(dayItem('2026-11-20', [{ f24: 1 }]));
    expect([...day.byKey.keys()].sort()).toEqual(['Q3', 'U7', 'W1']);
  });

  it('only `<U|Q|W><id>#<metric>` attributes are metrics', () => {
    const day = slaDayOf({
      pk: 'C#1#SLA',
      sk: 'D#2026-11-20',
      day: '2026-11-20',
      'U7#f24': 2,
      'U7#r30': 1,
      'Q3#b': 1,
      'W1#cn': 2,
      'W1#cs': 1,
      'W1#n': 'Principal',
      'U7#f': 5,
      'U7#fx': 5,
      'U7#x': 5,
      'Ux#b': 5,
      'U#b': 5,
      'X1#b': 5,
      'U#0000000007#tickets': 5,
    });
    expect([...day.byKey.keys()].sort()).toEqual(['Q3', 'U7', 'W1']);
    expect(day.byKey.get('U7')).toMatchObject({ f: new Map([[24, 2]]), r: new Map([[30, 1]]), b: 0 });
    expect(day.byKey.get('Q3')).toMatchObject({ b: 1, f: new Map() });
    expect(day.byKey.get('W1')).toMatchObject({ cn: 2, cs: 1, name: 'Principal' });
  });

  it('a period sums the bucket counts of its days before taking median and p90', () => {
    const days = [
      dayItem('2026-11-20', [{ [`f${bucketOf(60_000)}`]: 1 }, { [`r${bucketOf(3_500_000)}`]: 1 }, { cn: 1, cs: 1 }]),
      dayItem('2026-11-21', [
        { [`f${bucketOf(560_000)}`]: 1 },
        { [`f${bucketOf(560_000)}`]: 1 },
        { b: 1 },
        { cn: 1, cs: 0 },
      ]),
    ].map(slaDayOf);
    const report = slaReport(sumSlaDays(days), [{ id: 7, name: 'Ana' }]);
    const expected = {
      firstResponse: { count: 3, median: 609, p90: 609 },
      resolution: { count: 1, median: 4096, p90: 4096 },
      breached: 1,
      csat: { ratings: 2, satisfied: 1, percent: 50 },
    };
    expect(report.attendants).toEqual([{ id: 7, name: 'Ana', ...expected }]);
    expect(report.queues).toEqual([{ id: 3, name: 'Vendas', ...expected }]);
    expect(report.total).toMatchObject(expected);
    expect(report.daily).toEqual([
      { day: '2026-11-20', firstResponseMedian: 64, resolutionMedian: 4096, breached: 0 },
      { day: '2026-11-21', firstResponseMedian: 609, resolutionMedian: null, breached: 1 },
    ]);
  });

  it('days added to a kept sum give the sum of all the days, and the kept sum is left as it was', () => {
    const first = slaDayOf(dayItem('2026-11-20', [{ [`f${bucketOf(60_000)}`]: 1 }, { b: 1 }]));
    const second = slaDayOf(dayItem('2026-11-21', [{ [`f${bucketOf(560_000)}`]: 2 }, { cn: 1, cs: 1 }]));
    const kept = sumSlaDays([first]);
    const before = slaReport(kept, [{ id: 7, name: 'Ana' }]);
    const whole = slaReport(sumSlaDays([first, second]), [{ id: 7, name: 'Ana' }]);
    expect(slaReport(sumSlaDays([second], kept), [{ id: 7, name: 'Ana' }])).toEqual(whole);
    expect(whole.total).toMatchObject({ firstResponse: { count: 3, median: 609 }, breached: 1 });
    expect(whole.daily.map((d) => d.day)).toEqual(['2026-11-20', '2026-11-21']);
    // a second read adds the open day again to the same kept sum: nothing was counted twice
    sumSlaDays([second], kept);
    expect(slaReport(kept, [{ id: 7, name: 'Ana' }])).toEqual(before);
    expect(before.total).toMatchObject({ firstResponse: { count: 1, median: 64 }, breached: 1 });
  });

  it("a deleted attendant's history stays in the totals, not as a row without a name", () => {
    const report = slaReport(sumSlaDays([slaDayOf(dayItem('2026-11-20', [{ b: 1 }]))]), []);
    expect(report.attendants).toEqual([]);
    expect(report.total.breached).toBe(1);
  });
});
