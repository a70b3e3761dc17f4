import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { useStackFromWorker } from './helpers';

/**
 * The data layer's sort-key prefix (functions/lib/db.ts, `sk.beginsWith`) is sent as the key range it
 * spans; it must read exactly the keys under the prefix, on the table and on an index, whatever
 * sorts just before or after them.
 */
let db: typeof import('../../functions/lib/db');
beforeAll(async () => {
  await useStackFromWorker();
  db = await import('../../functions/lib/db');
});

const under = ['USER#', 'USER#0001', 'USER#zz', 'USER#ação', 'USER#\u{1F600}', 'USER##'];
const around = ['USER', 'USER"', 'USER$', 'USERS', 'USEQ#9', 'USES#', 'UTER#1', 'user#1', 'TICKET#0001', 'ZZZ'];

describe('query by sort-key prefix', () => {
  it('reads every key under the prefix and nothing beside it, on the table', async () => {
    const pk = `TEST#${randomUUID()}`;
    await db.batchWrite([...under, ...around].map((sk) => ({ pk, sk })));
    const rows = await db.queryAll({ pk, sk: { beginsWith: 'USER#' } });
    expect(rows.map((r) => r.sk).sort()).toEqual([...under].sort());
    const first = await db.query({ pk, sk: { beginsWith: 'USER#' }, limit: 2, forward: false });
    expect(first.items.map((r) => r.sk)).toEqual([...under].sort().reverse().slice(0, 2));
  });

  it('does the same on an index', async () => {
    const gsi1pk = `TEST#${randomUUID()}`;
    await db.batchWrite([...under, ...around].map((sk, i) => ({ pk: `${gsi1pk}#${i}`, sk: 'X', gsi1pk, gsi1sk: sk })));
    const rows = await db.queryAll({ index: 'gsi1', pk: gsi1pk, sk: { beginsWith: 'USER#' } });
    expect(rows.map((r) => r.gsi1sk).sort()).toEqual([...under].sort());
  });
});
