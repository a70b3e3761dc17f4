import type { FleetRunner, FleetSession, FleetView } from '#shared/schemas/fleet';
import { batchGet } from '../db';
import { whatsappKeys } from '../whatsapp/repo';
import { stoppedSessions, wantedSessions } from './ownership';
import { queueDepths } from './queues';
import { sessionReason, type StoredSessionState } from './reasons';
import { isAlive, runners } from './registry';

type ConnectionItem = StoredSessionState & {
  companyId: number;
  id: number;
  name: string;
  reachoutLockedUntil?: string;
};

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The whole fleet at a glance for the super user: the runner registry, every wanted session with
 * its connection (one BatchGet) and holder, the sessions WhatsApp stopped for good (banned, logged
 * out on the phone ...) with why, and the queues' depths and dead letters. Reads only; three
 * queries on fixed partitions (WRUNNERS, WSESSIONS, WSTOPPED), as the runners' rebalance does.
 */
export async function fleetView(now = Date.now()): Promise<FleetView> {
  const [registered, wanted, stopped, queues] = await Promise.all([
    runners(),
    wantedSessions(),
    stoppedSessions(),
    queueDepths(),
  ]);
  const byId = new Map(registered.map((r) => [r.runnerId, r]));
  const key = (s: { companyId: number; whatsappId: number }) => `${s.companyId}#${s.whatsappId}`;
  const wantedKeys = new Set(wanted.map(key));
  // a stop noted before a start that has not cleared it yet is not shown twice
  const stoppedOnly = stopped.filter((s) => !wantedKeys.has(key(s)));

  const all = [...wanted, ...stoppedOnly];
  const connections = await batchGet<ConnectionItem>(all.map((s) => whatsappKeys(s.companyId, s.whatsappId)));
  const connectionOf = new Map(connections.map((c) => [`${c.companyId}#${c.id}`, c]));

  const runnerRows: FleetRunner[] = registered
    .map((r) => ({
      id: r.runnerId,
      state: r.state,
      sessions: r.sessions,
      rss: r.rss,
      startedAt: iso(r.startedAt),
      heartbeatUntil: iso(r.expiresAt),
      alive: isAlive(r, now),
    }))
    .sort((a, b) => Number(b.alive) - Number(a.alive) || a.id.localeCompare(b.id));

  const row = (s: { companyId: number; whatsappId: number }, owner?: string, stoppedAt?: string): FleetSession => {
    const connection = connectionOf.get(key(s));
    return {
      companyId: s.companyId,
      whatsappId: s.whatsappId,
      name: connection?.name ?? null,
      holder: owner ?? null,
      holderAlive: isAlive(owner ? byId.get(owner) : undefined, now),
      status: connection?.status ?? null,
      reason: sessionReason(connection),
      stoppedAt: stoppedAt ?? null,
      reachoutLockedUntil:
        connection?.reachoutLockedUntil && Date.parse(connection.reachoutLockedUntil) > now
          ? connection.reachoutLockedUntil
          : null,
    };
  };
  const sessions = [
    ...wanted.map((s) => row(s, s.owner)),
    ...stoppedOnly.map((s) => row(s, undefined, s.stoppedAt)),
  ].sort((a, b) => a.companyId - b.companyId || a.whatsappId - b.whatsappId);

  return { runners: runnerRows, sessions, queues, generatedAt: iso(now) };
}
