import { getUser } from '../accounts/users';
import { putItem } from '../db';
import { AppError } from '../errors';
import { ttlIn } from '../keys';
import { log } from '../log';
import { remember } from '../lru';
import { recordAudit, type AuditEntry } from './record';

/**
 * Who did something, as a service that records it needs to know: the signed-in user and the client's
 * address. Handlers build it with `actorOf(auth, clientAddress)` and pass it down; a service called
 * without one (a timer, a queue consumer) records nothing of its own.
 */
export interface AuditActor {
  companyId: number;
  userId: number | null;
  address: string | null;
}

export const actorOf = (auth: { companyId: number; userId: number }, address: string | null): AuditActor => ({
  companyId: auth.companyId,
  userId: auth.userId || null,
  address,
});

type ActedEntry = Omit<AuditEntry, 'companyId' | 'actorId' | 'actorName' | 'address'> & {
  /** whose trail holds it: the actor's company unless said otherwise */
  companyId?: number;
};

/**
 * Records an action of `actor`, with the actor's name as it is now (a user deleted or renamed later
 * still reads as who acted then). Never throws: the trail must not fail the action it records.
 */
export async function auditBy(actor: AuditActor | undefined, entry: ActedEntry): Promise<void> {
  if (!actor) return;
  const name = actor.userId
    ? await getUser(actor.companyId, actor.userId).then(
        (u) => u?.name ?? null,
        () => null,
      )
    : null;
  await recordAudit({
    ...entry,
    companyId: entry.companyId ?? actor.companyId,
    actorId: actor.userId,
    actorName: name,
    address: actor.address,
  });
}

/** Field -> { from, to } for the fields that differ (undefined in `after` = not changed). */
export function changesOf<T extends object>(before: Partial<T> | undefined, after: Partial<T>, fields: (keyof T)[]) {
  const out: Record<string, { from?: unknown; to?: unknown }> = {};
  for (const field of fields) {
    const to = after[field];
    if (to === undefined) continue;
    const from = before?.[field];
    if (JSON.stringify(from ?? null) !== JSON.stringify(to ?? null))
      out[field as string] = before ? { from: from ?? null, to } : { to };
  }
  return out;
}

/**
 * This instance's last recorded window per key: most calls stop here, without touching the table (the
 * least recently used key dropped past MEMO_LIMIT).
 */
const recordedWindow = new Map<string, number>();
const MEMO_LIMIT = 10_000;

/**
 * Records `entry` at most once per `key` per fixed window of `windowSeconds` (the windows the rate
 * limiter counts in), for actions that happen on every call (an API token's use, a sign-in refused by
 * the limiter). Each instance remembers the windows it recorded, so a busy key costs no write per
 * call; across instances a conditional put of a marker item (`C#<cid>#AUDITONCE` / `<key>#<window>`,
 * TTL two windows) lets exactly one of them record the window.
 */
export async function auditOncePerWindow(key: string, windowSeconds: number, entry: AuditEntry): Promise<void> {
  const window = Math.floor(Date.now() / 1000 / windowSeconds);
  const memo = `${entry.companyId}#${key}#${windowSeconds}`;
  if (recordedWindow.get(memo) === window) return;
  try {
    await putItem(
      { pk: `C#${entry.companyId}#AUDITONCE`, sk: `${key}#${window}`, ttl: ttlIn(2 * windowSeconds) },
      { ifNotExists: true },
    );
  } catch (err) {
    if (err instanceof AppError && err.code === 'ERR_DUPLICATED') {
      remember(recordedWindow, memo, window, MEMO_LIMIT);
      return;
    }
    log.error('audit marker not written', { companyId: entry.companyId, error: (err as Error).message });
    return;
  }
  remember(recordedWindow, memo, window, MEMO_LIMIT);
  await recordAudit(entry);
}

/** Once per `key` per clock hour (UTC). */
export const auditOncePerHour = (key: string, entry: AuditEntry) => auditOncePerWindow(key, 3600, entry);
