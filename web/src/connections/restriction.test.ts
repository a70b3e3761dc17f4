import { describe, expect, it } from 'vitest';
import { restrictionLines } from './restriction';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();

describe("a connection's WhatsApp restrictions", () => {
  it('shows the reach-out lock only while it holds', () => {
    expect(restrictionLines({ reachoutLockedUntil: at(60_000), reachoutType: 'DEFAULT' }, NOW)).toEqual([
      { kind: 'reachoutLock', until: at(60_000), type: 'DEFAULT' },
    ]);
    expect(restrictionLines({ reachoutLockedUntil: at(-1) }, NOW)).toEqual([]);
  });
  it('shows the quota while its cycle runs, exhausted once used up', () => {
    const [line] = restrictionLines({ newChatQuota: { total: 10, used: 10, endsAt: at(1000) } }, NOW);
    expect(line).toMatchObject({ kind: 'newChatQuota', exhausted: true });
    expect(restrictionLines({ newChatQuota: { total: 10, used: 3 } }, NOW)[0]).toMatchObject({ exhausted: false });
    expect(restrictionLines({ newChatQuota: { total: 10, used: 10, endsAt: at(-1) } }, NOW)).toEqual([]);
  });
});
