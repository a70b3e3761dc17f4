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
  return { read, parsed };
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
});
