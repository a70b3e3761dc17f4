import { describe, expect, it } from 'vitest';
import type { WantedSession } from '#lib/fleet/ownership';
import { planRebalance, sessionKey, type FleetView } from './rebalance';
import type { RunnerInfo } from '#lib/fleet/registry';

const NOW = 1_000_000;
const runner = (runnerId: string, state: RunnerInfo['state'] = 'running', expiresAt = NOW + 10_000): RunnerInfo => ({
  runnerId,
  state,
  sessions: 0,
  rss: 0,
  url: `http://${runnerId}`,
  token: 't',
  startedAt: 0,
  expiresAt,
});
const sessions = (owners: (string | undefined)[]): WantedSession[] =>
  owners.map((owner, i) => ({ companyId: 1, whatsappId: i + 1, owner, epoch: owner ? 1 : undefined }));
const view = (
  me: string,
  all: WantedSession[],
  registry: RunnerInfo[],
  movable: (s: WantedSession) => boolean = () => true,
): FleetView => ({
  me,
  now: NOW,
  sessions: all,
  runners: registry,
  local: new Map(all.filter((s) => s.owner === me).map((s) => [sessionKey(s), { movable: movable(s) }])),
  handoversPerTick: 4,
});
const times = <T>(n: number, value: T) => Array.from({ length: n }, () => value);

describe('rebalance plan (fair share)', () => {
  it("a dead runner's sessions are orphans: each live runner takes them up to ceil(W/L)", () => {
    const all = sessions([...times(4, 'a'), ...times(4, 'b'), ...times(4, 'dead')]);
    const registry = [runner('a'), runner('b'), runner('dead', 'running', NOW - 1)];
    const plan = planRebalance(view('a', all, registry));
    expect(plan.take).toHaveLength(2);
    expect(plan.take.every((s) => s.owner === 'dead')).toBe(true);
    expect(plan.handOver).toEqual([]);
    // the other runner starts from another end of the list: they mostly try different sessions
    const other = planRebalance(view('b', all, registry)).take.map(sessionKey);
    expect(other).toHaveLength(2);
  });

  it('a runner above ceil(W/L) hands the surplus to the least loaded peers, a few per tick', () => {
    const all = sessions(times(12, 'a'));
    const plan = planRebalance(view('a', all, [runner('a'), runner('b'), runner('c')]));
    expect(plan.handOver).toHaveLength(4);
    expect(plan.handOver.map((h) => h.to.runnerId).sort()).toEqual(['b', 'b', 'c', 'c']);
    expect(plan.take).toEqual([]);
  });

  it('a new runner gets its share: the others hand over until every runner holds floor or ceil of W/L', () => {
    let all = sessions([...times(7, 'a'), ...times(7, 'b'), ...times(6, 'c')]);
    const registry = [runner('a'), runner('b'), runner('c'), runner('d')];
    for (let tick = 0; tick < 10; tick++) {
      for (const me of ['a', 'b', 'c', 'd']) {
        const plan = planRebalance(view(me, all, registry));
        const moved = new Map(plan.handOver.map((h) => [sessionKey(h.session), h.to.runnerId]));
        all = all.map((s) => (moved.has(sessionKey(s)) ? { ...s, owner: moved.get(sessionKey(s)) } : s));
      }
    }
    const counts = ['a', 'b', 'c', 'd'].map((r) => all.filter((s) => s.owner === r).length);
    expect(counts.sort()).toEqual([5, 5, 5, 5]);
  });

  it('floor/ceil: when nobody is above ceil(W/L) but a peer is below floor, only the most loaded runner hands one over', () => {
    // W=10, L=3: shares 3 or 4; 4/4/2 is uneven
    const all = sessions([...times(4, 'a'), ...times(4, 'b'), ...times(2, 'c')]);
    const registry = [runner('a'), runner('b'), runner('c')];
    const a = planRebalance(view('a', all, registry));
    const b = planRebalance(view('b', all, registry));
    // ties go to the greatest id: exactly one of them acts
    expect(a.handOver).toEqual([]);
    expect(b.handOver.map((h) => h.to.runnerId)).toEqual(['c']);
  });

  it('a session showing a QR code (not movable) is never handed over', () => {
    const all = sessions(times(6, 'a'));
    const plan = planRebalance(view('a', all, [runner('a'), runner('b')], (s) => s.whatsappId > 4));
    expect(plan.handOver.map((h) => h.session.whatsappId)).toEqual([5, 6]);
  });

  it('a draining runner is not a peer: it gets nothing and its sessions are not orphans', () => {
    const all = sessions([...times(4, 'a'), ...times(4, 'leaving')]);
    const registry = [runner('a'), runner('leaving', 'draining')];
    const plan = planRebalance(view('a', all, registry));
    expect(plan.take).toEqual([]);
    expect(plan.handOver).toEqual([]);
  });

  it('reconciles: mine in the table but not open here is adopted; open here but held elsewhere is dropped', () => {
    const all = sessions(['a', 'b']);
    const plan = planRebalance({
      ...view('a', all, [runner('a'), runner('b')]),
      local: new Map([[sessionKey(all[1]!), { movable: true }]]),
    });
    expect(plan.adopt.map(sessionKey)).toEqual([sessionKey(all[0]!)]);
    expect(plan.drop).toEqual([{ companyId: 1, whatsappId: 2 }]);
  });
});
