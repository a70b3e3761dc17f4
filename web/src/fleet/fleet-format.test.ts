import { describe, expect, it } from 'vitest';
import { formatMemory } from './fleet-format';

describe('fleet formatting', () => {
  it('memory is shown in whole MiB', () => {
    expect(formatMemory(157 * 1024 * 1024 + 1000)).toBe('157 MiB');
  });
});
