import { describe, it, expect } from 'vitest';
import { newMessageId } from './repo';

describe('message ids', () => {
  it('are time-ordered as strings (a page is one Query in sort-key order)', () => {
    const ids = [0, 1, 999, 1_700_000_000_000, 1_700_000_000_001, 4_000_000_000_000].map((t) => newMessageId(t));
    expect([...ids].sort()).toEqual(ids);
    expect(ids.every((id) => /^[0-9a-z]{17}$/.test(id))).toBe(true);
  });

  it('never collide for the same millisecond', () => {
    const ids = new Set(Array.from({ length: 2000 }, () => newMessageId(1_700_000_000_000)));
    expect(ids.size).toBe(2000);
  });
});
