import { describe, expect, test } from 'vitest';
import { QueueBody } from '#shared/schemas/queues';
import { QUEUE_PALETTE, firstFreeColor } from './palette';

describe('queue colour palette (management.md section 9)', () => {
  test('has 50 distinct colours, each a valid queue colour (3 to 9 characters)', () => {
    expect(QUEUE_PALETTE).toHaveLength(50);
    expect(new Set(QUEUE_PALETTE).size).toBe(50);
    for (const color of QUEUE_PALETTE) {
      expect(color).toMatch(/^#[0-9A-F]{6}$/);
      expect(QueueBody.shape.color.safeParse(color).success).toBe(true);
    }
  });
  test('suggests the first colour not yet used by another queue (colours are unique)', () => {
    expect(firstFreeColor([])).toBe(QUEUE_PALETTE[0]);
    expect(firstFreeColor([QUEUE_PALETTE[0].toLowerCase(), QUEUE_PALETTE[1]])).toBe(QUEUE_PALETTE[2]);
  });
});
