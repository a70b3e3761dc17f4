import type { FleetRunner, FleetSession, FleetView } from '#shared/schemas/fleet';
import { isAlive, runners } from '../../../session-runner/src/registry';
import { wantedSessions } from '../../../session-runner/src/ownership';
import { batchGet } from '../db';
import { whatsappKeys } from '../whatsapp/repo';
import { sessionReason, type StoredSessionState } from './reasons';

type ConnectionItem = StoredSessionState & { companyId: number; id: number; name: string };

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The whole fleet at a glance for the super user: the runner registry, every wanted session with
 * its connection (one BatchGet) and holder. Reads only; two queries on fixed
 * partitions (WRUNNERS, WSESSIONS), as the runners' rebalance does.
 */
export async function fleetView(now = Date.now()): Promise<FleetView> {
  const [registered, wanted] = await Promise.all([runners(), wantedSessions()]);
  const byId = new Map(registered.map((r) => [r.runnerId, r]));

  const connections = await batchGet<ConnectionItem>(wanted.map((s) => whatsappKeys(s.companyId, s.whatsappId)));
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

  const sessions: FleetSession[] = wanted
    .map((s) => {
      const connection = connectionOf.get(`${s.companyId}#${s.whatsappId}`);
      return {
        companyId: s.companyId,
        whatsappId: s.whatsappId,
        name: connection?.name ?? null,
        holder: s.owner ?? null,
        holderAlive: isAlive(s.owner ? byId.get(s.owner) : undefined, now),
        status: connection?.status ?? null,
        reason: sessionReason(connection),
      };
    })
    .sort((a, b) => a.companyId - b.companyId || a.whatsappId - b.whatsappId);

  return { runners: runnerRows, sessions, generatedAt: iso(now) };
}
