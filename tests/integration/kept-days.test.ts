import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useStackFromWorker } from './helpers';

/**
 * Day items kept per instance (functions/lib/kept-days.ts): settled days once read, open days with
 * their version. A read of an open day this instance parsed asks for its version alone and parses
 * it again only when a write moved the version; an item without a version is parsed on every read.
 */
let db: typeof import('../../functions/lib/db');
let kd: typeof import('../../functions/lib/kept-days');
beforeAll(async () => {
  await useStackFromWorker();
  db = await import('../../functions/lib/db');
  kd = await import('../../functions/lib/kept-days');
});

// noon in São Paulo: the 10th is open, the 8th and 9th are settled
const now = new Date('2026-03-10T15:00:00Z');

function spec(pk: string) {
  const parsed: string[] = [];
  const s = {
    pk,
    from: '2026-03-08',
    to: '2026-03-10',
    parse: (item: Record<string, unknown>) => {
      parsed.push(String(item.sk));
      return { n: item.n as number };
    },
  };
  const read = async () => (await kd.keptDaysSplitAll<[{ n: number }]>([s], now))[0];
  return { read, parsed, spec: s };
}

describe('kept days', () => {
  it('an open day is parsed again only when its version moved; settled days once', async () => {
    const pk = `TEST#${randomUUID()}`;
    await db.batchWrite(
      ['2026-03-08', '2026-03-09', '2026-03-10'].map((day, i) => ({ pk, sk: `D#${day}`, day, n: i + 1, v: 1 })),
    );
    const { read, parsed } = spec(pk);
    const first = await read();
    expect(parsed.sort()).toEqual(['D#2026-03-08', 'D#2026-03-09', 'D#2026-03-10']);
    expect(first.settled).toEqual([{ n: 1 }, { n: 2 }]);
    expect(first.open).toEqual([{ n: 3 }]);
    expect(first.openKey).toBe(`${pk}|2026-03-10@1`);

    parsed.length = 0;
    const again = await read();
    expect(parsed).toEqual([]);
    expect(again.open[0]).toBe(first.open[0]);
    expect(again.openKey).toBe(first.openKey);

    await db.updateItem({ pk, sk: 'D#2026-03-10' }, { add: { n: 1, [kd.DAY_VERSION]: 1 } });
    const moved = await read();
    expect(parsed).toEqual(['D#2026-03-10']);
    expect(moved.open).toEqual([{ n: 4 }]);
    expect(moved.openKey).toBe(`${pk}|2026-03-10@2`);
    expect(moved.settled).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('an open day without a version is parsed on every read and names no open key; a missing one is absent', async () => {
    const pk = `TEST#${randomUUID()}`;
    await db.batchWrite([{ pk, sk: 'D#2026-03-10', day: '2026-03-10', n: 7 }]);
    const { read, parsed } = spec(pk);
    await read();
    await read();
    await db.updateItem({ pk, sk: 'D#2026-03-10' }, { add: { n: 1 } });
    const third = await read();
    expect(parsed).toEqual(['D#2026-03-10', 'D#2026-03-10', 'D#2026-03-10']);
    expect(third.open).toEqual([{ n: 8 }]);
    expect(third.openKey).toBeUndefined();

    const emptyPk = `TEST#${randomUUID()}`;
    const empty = spec(emptyPk);
    const none = await empty.read();
    expect(none.open).toEqual([]);
    expect(none.openKey).toBe(`${emptyPk}|2026-03-10@-`);
    expect((await empty.read()).openKey).toBe(`${emptyPk}|2026-03-10@-`);
    // kept as absent, it is seen as soon as a write makes it
    await db.updateItem({ pk: emptyPk, sk: 'D#2026-03-10' }, { add: { n: 5, [kd.DAY_VERSION]: 1 } });
    const appeared = await empty.read();
    expect(appeared.open).toEqual([{ n: 5 }]);
    expect(appeared.openKey).toBe(`${emptyPk}|2026-03-10@1`);
  });

  it('a day that settles joins the settled part as its last write left it; the settled part is then kept whole', async () => {
    const pk = `TEST#${randomUUID()}`;
    await db.batchWrite(
      ['2026-03-08', '2026-03-09', '2026-03-10'].map((day, i) => ({ pk, sk: `D#${day}`, day, n: i + 1, v: 1 })),
    );
    const { read, parsed, spec: s } = spec(pk);
    await read();
    await db.updateItem({ pk, sk: 'D#2026-03-10' }, { add: { n: 10, [kd.DAY_VERSION]: 1 } });
    // the next day at noon: the 10th has settled, the 11th is open (and has no item yet)
    const nextDay = { ...s, to: '2026-03-11' };
    const later = new Date('2026-03-11T15:00:00Z');
    parsed.length = 0;
    const [first] = await kd.keptDaysSplitAll<[{ n: number }]>([nextDay], later);
    expect(first.settled).toEqual([{ n: 1 }, { n: 2 }, { n: 13 }]);
    expect(first.settledKey).toBe(`${pk}|2026-03-08|2026-03-10`);
    expect(first.open).toEqual([]);
    expect(parsed).toEqual(['D#2026-03-10']);
    const [again] = await kd.keptDaysSplitAll<[{ n: number }]>([nextDay], later);
    expect(again.settled).toBe(first.settled);
    expect(parsed).toEqual(['D#2026-03-10']);
  });

  it('version items asked for beside the days come back in order, absent ones as undefined, in the same BatchGet', async () => {
    const pk = `TEST#${randomUUID()}`;
    await db.batchWrite([
      { pk, sk: 'D#2026-03-10', day: '2026-03-10', n: 1, v: 1 },
      { pk, sk: 'VERSION', v: 3, other: 'not read' },
    ]);
    const { spec: s } = spec(pk);
    await kd.keptDaysSplitAll<[{ n: number }]>([s], now);
    const { metrics } = await import('../../functions/lib/metrics');
    const { result, usage } = await metrics.measure(() =>
      kd.keptDaysWithItems<[{ n: number }]>(
        [s],
        [
          { pk, sk: 'ABSENT' },
          { pk, sk: 'VERSION' },
        ],
        now,
      ),
    );
    expect(result.items).toEqual([undefined, { pk, sk: 'VERSION', v: 3 }]);
    expect(result.splits[0].open).toEqual([{ n: 1 }]);
    expect(usage.byCommand).toEqual({ BatchGetCommand: 1 });
  });
});
