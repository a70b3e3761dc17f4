import { describe, expect, test } from 'vitest';
import { applyOps, flattenPages, nearBottom, readPage, removeFromPages, upsertInPages } from './paged';

describe('paged lists', () => {
  test('reads the named list key, items, records or a bare array', () => {
    expect(readPage({ contacts: [{ id: 1 }], hasMore: true, cursor: 'c' }, 'contacts')).toEqual({
      items: [{ id: 1 }],
      hasMore: true,
      cursor: 'c',
    });
    expect(readPage({ items: [{ id: 2 }] }, 'tags').items).toEqual([{ id: 2 }]);
    expect(readPage({ records: [{ id: 3 }], hasMore: false }, 'x').items).toEqual([{ id: 3 }]);
    expect(readPage([{ id: 4 }], 'x')).toEqual({ items: [{ id: 4 }], hasMore: false, cursor: null });
  });

  test('live create goes on top of the first page; live update replaces the row in place', () => {
    const pages = [
      { items: [{ id: 1, n: 'a' }], hasMore: true, cursor: 'c1' },
      { items: [{ id: 2, n: 'b' }], hasMore: false, cursor: null },
    ];
    const created = upsertInPages(pages, { id: 3, n: 'c' });
    expect(flattenPages(created).map((x) => x.id)).toEqual([3, 1, 2]);
    expect(created[0].cursor).toBe('c1');
    const updated = upsertInPages(created, { id: 2, n: 'B' });
    expect(flattenPages(updated)).toEqual([
      { id: 3, n: 'c' },
      { id: 1, n: 'a' },
      { id: 2, n: 'B' },
    ]);
    expect(upsertInPages(undefined, { id: 9 })).toEqual([{ items: [{ id: 9 }], hasMore: false, cursor: null }]);
  });

  test('live delete removes the row from whichever page holds it; duplicates across pages show once', () => {
    const pages = [
      { items: [{ id: 1 }, { id: 2 }], hasMore: true },
      { items: [{ id: 2 }, { id: 3 }], hasMore: false },
    ];
    expect(flattenPages(pages).map((x) => x.id)).toEqual([1, 2, 3]);
    expect(flattenPages(removeFromPages(pages, 2)).map((x) => x.id)).toEqual([1, 3]);
  });

  test('next page loads only within 100 px of the bottom (section 9)', () => {
    expect(nearBottom({ scrollTop: 0, scrollHeight: 1000, clientHeight: 800 })).toBe(false);
    expect(nearBottom({ scrollTop: 101, scrollHeight: 1000, clientHeight: 800 })).toBe(true);
    expect(nearBottom({ scrollTop: 100, scrollHeight: 1000, clientHeight: 800 })).toBe(false);
  });

  test('a burst of live changes applies in order in one pass', () => {
    const pages = [{ items: [{ id: 1, n: 'a' }], hasMore: false }];
    const next = applyOps(pages, [
      { kind: 'upsert', item: { id: 2, n: 'b' } },
      { kind: 'upsert', item: { id: 1, n: 'A' } },
      { kind: 'remove', id: 2 },
      { kind: 'upsert', item: { id: 3, n: 'c' } },
    ]);
    expect(flattenPages(next)).toEqual([
      { id: 3, n: 'c' },
      { id: 1, n: 'A' },
    ]);
  });
});
