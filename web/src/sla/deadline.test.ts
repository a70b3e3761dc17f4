import { describe, expect, it } from 'vitest';
import { activeDeadline, formatDuration, formatLeft } from './deadline';

const base = {
  status: 'pending',
  slaStartAt: '2026-11-23T10:00:00.000Z',
  slaFirstResponseDueAt: '2026-11-23T10:40:00.000Z',
  slaResolutionDueAt: '2026-11-23T14:00:00.000Z',
};
const at = (iso: string) => Date.parse(iso);

describe('activeDeadline', () => {
  it('the first response while none was sent, amber in its last quarter', () => {
    expect(activeDeadline(base, at('2026-11-23T10:20:00.000Z'))).toMatchObject({
      kind: 'firstResponse',
      level: 'normal',
    });
    expect(activeDeadline(base, at('2026-11-23T10:31:00.000Z'))).toMatchObject({
      kind: 'firstResponse',
      level: 'amber',
    });
    expect(activeDeadline(base, at('2026-11-23T10:41:00.000Z'))).toMatchObject({ kind: 'firstResponse', level: 'red' });
  });
  it('then the resolution; a breach mark is red at once; closed shows none', () => {
    const answered = { ...base, firstResponseAt: '2026-11-23T10:05:00.000Z' };
    expect(activeDeadline(answered, at('2026-11-23T10:41:00.000Z'))).toMatchObject({
      kind: 'resolution',
      level: 'normal',
    });
    expect(activeDeadline({ ...answered, slaResolutionBreached: true }, at('2026-11-23T10:41:00.000Z'))?.level).toBe(
      'red',
    );
    expect(activeDeadline({ ...base, status: 'closed' }, at('2026-11-23T10:20:00.000Z'))).toBeNull();
    expect(activeDeadline({ status: 'open' }, at('2026-11-23T10:20:00.000Z'))).toBeNull();
  });
});

describe('formatting', () => {
  it('durations and countdown clocks', () => {
    expect(formatDuration(45)).toBe('45 s');
    expect(formatDuration(64)).toBe('1 min');
    expect(formatDuration(3 * 3600 + 5 * 60)).toBe('3 h 05 min');
    expect(formatDuration(52 * 3600)).toBe('2 d 4 h');
    expect(formatDuration(null)).toBe('-');
    expect(formatLeft(125_000)).toBe('02:05');
    expect(formatLeft(-61_000)).toBe('01:01');
  });
});
