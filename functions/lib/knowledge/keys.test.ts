import { describe, expect, it } from 'vitest';
import { unansweredId, unansweredKeys, unansweredKeysOf } from './keys';

describe("an unanswered question's id", () => {
  it('leads back to its item, and nothing else does', () => {
    const at = '2026-03-04T05:06:07.089Z';
    const id = unansweredId(at, 42);
    expect(id).toMatch(/^\d+-42$/);
    expect(unansweredKeysOf(7, id)).toEqual(unansweredKeys(7, at, 42));
    for (const bad of ['', '42', 'abc-1', '1-2-3', '../x', `${Date.parse(at)}-`])
      expect(unansweredKeysOf(7, bad)).toBe(undefined);
  });
});
