import type { DisconnectReason } from '#shared/schemas/whatsapp';
import { conditionTx, deleteItem, getItem, putItem, queryAll, type TransactItem, updateItem } from '../db';

/**
 * The sessions that should run and which runner holds each: `WSESSIONS` / `<cid>#<wid>` with
 * `owner` (a runner id) and `epoch` (bumped on every change of owner). Ownership holds while the
 * owner's heartbeat in the registry is fresh (registry.ts); every change of owner is a conditional
 * update on the owner and epoch read before, so two runners never both take a session. A (re)started
 * runner finds here the sessions to resume from their stored auth state, without a new QR code.
 * One query reads the whole picture for the rebalance.
 */
export interface WantedSession {
  companyId: number;
  whatsappId: number;
  owner?: string;
  epoch?: number;
}

/** A session WhatsApp stopped for good, kept for the operator's view until it is started again. */
export interface StoppedSession {
  companyId: number;
  whatsappId: number;
  reason: DisconnectReason;
  code?: number;
  stoppedAt: string;
}

const sessionKeys = (companyId: number, whatsappId: number) => ({ pk: 'WSESSIONS', sk: `${companyId}#${whatsappId}` });
const stoppedKeys = (companyId: number, whatsappId: number) => ({ pk: 'WSTOPPED', sk: `${companyId}#${whatsappId}` });

/** The session should run (a start, a new QR code); its owner, if any, stays; a stop noted before goes. */
export async function markWanted(companyId: number, whatsappId: number) {
  await updateItem(sessionKeys(companyId, whatsappId), { set: { companyId, whatsappId } });
  await deleteItem(stoppedKeys(companyId, whatsappId));
}

/** WhatsApp stopped the session (banned, logged out on the phone ...): the fleet view lists it with why. */
export async function markStopped(session: Omit<StoppedSession, 'stoppedAt'>) {
  await putItem({
    ...stoppedKeys(session.companyId, session.whatsappId),
    ...session,
    stoppedAt: new Date().toISOString(),
  });
}

export async function stoppedSessions(): Promise<StoppedSession[]> {
  return queryAll<StoppedSession>({ pk: 'WSTOPPED' });
}

/** The session should not run any more (disconnect, stop, a final close code): nobody holds it. */
export async function unmarkWanted(companyId: number, whatsappId: number) {
  await deleteItem(sessionKeys(companyId, whatsappId));
}

export async function wantedSessions(): Promise<WantedSession[]> {
  return queryAll<WantedSession>({ pk: 'WSESSIONS' });
}

export async function readSession(companyId: number, whatsappId: number): Promise<WantedSession | undefined> {
  return getItem<WantedSession>(sessionKeys(companyId, whatsappId), { consistent: true });
}

/**
 * Moves a wanted session from the holder read before (`from`, none when it had none) to `to`;
 * refused (undefined) when the session is no longer wanted or changed hands since it was read.
 * Answers the new epoch.
 */
export async function moveSession(session: WantedSession, to: string | undefined): Promise<number | undefined> {
  const epoch = (session.epoch ?? 0) + 1;
  const held = session.owner !== undefined;
  const out = await updateItem<WantedSession>(sessionKeys(session.companyId, session.whatsappId), {
    set: { epoch, ...(to ? { owner: to } : {}) },
    remove: to ? undefined : ['owner'],
    condition: held
      ? 'attribute_exists(pk) AND #o = :from AND #e = :epoch'
      : 'attribute_exists(pk) AND attribute_not_exists(#o) AND (attribute_not_exists(#e) OR #e = :epoch)',
    conditionNames: { '#o': 'owner', '#e': 'epoch' },
    conditionValues: held ? { ':from': session.owner, ':epoch': session.epoch ?? 0 } : { ':epoch': session.epoch ?? 0 },
  });
  return out ? epoch : undefined;
}

/** The runner that holds a session and the epoch it was given it with (`moveSession`). */
export interface Holder {
  runnerId: string;
  epoch: number;
}

/**
 * A transaction item that holds only while `holder` still holds the session: a runner that lost it
 * (fenced, taken over, handed over) can no longer write the session's credentials and keys.
 */
export function stillHeldTx(companyId: number, whatsappId: number, holder: Holder): TransactItem {
  return conditionTx(
    sessionKeys(companyId, whatsappId),
    '#o = :owner AND #e = :epoch',
    { ':owner': holder.runnerId, ':epoch': holder.epoch },
    { '#o': 'owner', '#e': 'epoch' },
  );
}
