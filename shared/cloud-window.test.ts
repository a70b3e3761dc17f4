import { describe, expect, it } from 'vitest';
import { cloudWindowEndsAt, cloudWindowLeftMs } from './cloud-window';

describe('the Cloud API customer service window', () => {
  const wrote = '2026-03-10T12:00:00.000Z';
  it('closes 24 hours after the customer last wrote', () => {
    expect(cloudWindowEndsAt(wrote)).toBe('2026-03-11T12:00:00.000Z');
    expect(cloudWindowLeftMs(wrote, Date.parse('2026-03-11T11:59:00.000Z'))).toBe(60_000);
    expect(cloudWindowLeftMs(wrote, Date.parse('2026-03-11T12:00:00.000Z'))).toBe(0);
    expect(cloudWindowLeftMs(wrote, Date.parse('2026-03-12T00:00:00.000Z'))).toBe(0);
  });
  it('was never open for a customer who never wrote', () => {
    expect(cloudWindowEndsAt(null)).toBeNull();
    expect(cloudWindowEndsAt(undefined)).toBeNull();
    expect(cloudWindowLeftMs(null, 0)).toBe(0);
  });
});
