import { createHash } from 'node:crypto';
import type { WantedSession } from '#lib/fleet/ownership';
import { isAlive, type RunnerInfo } from '#lib/fleet/registry';

/** What one runner sees at a rebalance tick. */
export interface FleetView {
  me: string;
  now: number;
  /** every wanted session with its owner */
  sessions: WantedSession[];
  /** the registry, dead runners included */
  runners: RunnerInfo[];
  /** the sessions open on this runner, by `<cid>#<wid>`; `movable` when connected (never one showing a QR code) */
  local: Map<string, { movable: boolean }>;
  /** sessions handed to a peer per tick, at most */
  handoversPerTick: number;
}

export interface RebalancePlan {
  /** mine in the table but not open here (handed to me, or mine from before a restart): open them */
  adopt: WantedSession[];
  /** open here but no longer mine (taken over, no longer wanted): close them, quietly */
  drop: { companyId: number; whatsappId: number }[];
  /** no owner, or a dead one: take them, up to my share */
  take: WantedSession[];
  /** more than my share: hand these to the peers named */
  handOver: { session: WantedSession; to: RunnerInfo }[];
}

export const sessionKey = (s: { companyId: number; whatsappId: number }) => `${s.companyId}#${s.whatsappId}`;

/** A per-runner order of the orphans, so runners taking at once mostly try different ones. */
const spread = (me: string, s: WantedSession) =>
  createHash('sha1')
    .update(`${me}|${sessionKey(s)}`)
    .digest('hex');

/**
 * The fair share: with W wanted sessions and L running runners each holds floor(W/L) or
 * ceil(W/L). A runner takes orphans up to ceil(W/L); one above ceil(W/L) hands the surplus, a few
 * per tick, to the least loaded peers; when nobody is above ceil(W/L) but a peer is below
 * floor(W/L), the most loaded runner (ties: the greatest id, so exactly one acts) hands one over.
 * Only the holder hands a session over (it must drain it first), and only a connected one: a
 * session showing a QR code stays where the user is scanning it. Counts come from the table's
 * owners, not from heartbeats, so every runner plans on the same numbers.
 */
export function planRebalance(view: FleetView): RebalancePlan {
  const { me, now } = view;
  const alive = new Map(view.runners.filter((r) => isAlive(r, now)).map((r) => [r.runnerId, r]));
  const peers = [...alive.values()].filter((r) => r.runnerId !== me && r.state === 'running');
  const byKey = new Map(view.sessions.map((s) => [sessionKey(s), s]));

  const mine = view.sessions.filter((s) => s.owner === me);
  const adopt = mine.filter((s) => !view.local.has(sessionKey(s)));
  const drop = [...view.local.keys()]
    .filter((key) => byKey.get(key)?.owner !== me)
    .map((key) => {
      const [companyId, whatsappId] = key.split('#').map(Number) as [number, number];
      return { companyId, whatsappId };
    });

  const total = view.sessions.length;
  const runnersSharing = peers.length + 1;
  const hi = Math.ceil(total / runnersSharing);
  const lo = Math.floor(total / runnersSharing);
  const orphans = view.sessions
    .filter((s) => !s.owner || !alive.has(s.owner))
    .sort((a, b) => (spread(me, a) < spread(me, b) ? -1 : 1));
  const take = orphans.slice(0, Math.max(0, hi - mine.length));
  const held = mine.length + take.length;

  const load = new Map(peers.map((p) => [p.runnerId, 0]));
  for (const s of view.sessions) if (s.owner && load.has(s.owner)) load.set(s.owner, load.get(s.owner)! + 1);
  const least = () =>
    peers.reduce<RunnerInfo | undefined>(
      (best, p) => (!best || load.get(p.runnerId)! < load.get(best.runnerId)! ? p : best),
      undefined,
    );
  let surplus = 0;
  let ceiling = hi;
  if (held > hi) surplus = held - hi;
  else if (held === hi && hi > lo) {
    const loads = [...load.entries()];
    const lowest = least();
    const top = [...loads, [me, held] as const].reduce((a, b) =>
      b[1] > a[1] || (b[1] === a[1] && b[0] > a[0]) ? b : a,
    );
    if (lowest && load.get(lowest.runnerId)! < lo && top[0] === me) {
      surplus = 1;
      ceiling = lo;
    }
  }
  const handOver: RebalancePlan['handOver'] = [];
  const movable = mine.filter((s) => view.local.get(sessionKey(s))?.movable);
  for (const session of movable.slice(0, Math.min(surplus, view.handoversPerTick))) {
    const to = least();
    if (!to || load.get(to.runnerId)! >= ceiling) break;
    load.set(to.runnerId, load.get(to.runnerId)! + 1);
    handOver.push({ session, to });
  }
  return { adopt, drop, take, handOver };
}
