import { deleteItem, putItem, queryAll, updateItem } from '#lib/db';
import { ttlIn } from '#lib/keys';

/**
 * One runner holds a session at a time: `WLEASE#<cid>#<wid>` / `LEASE` with the owner and an
 * expiry, renewed while the runner lives; a crashed runner's lease runs out and another takes it.
 * `WSESSIONS` / `<cid>#<wid>` lists the sessions that should be running, so a (re)started runner
 * picks them up without a new QR code.
 */
export const LEASE_SECONDS = 60;
const leaseKeys = (companyId: number, whatsappId: number) => ({ pk: `WLEASE#${companyId}#${whatsappId}`, sk: 'LEASE' });
const wantedKeys = (companyId: number, whatsappId: number) => ({ pk: 'WSESSIONS', sk: `${companyId}#${whatsappId}` });

/** Takes or renews the lease; false when another live runner holds it. */
export async function acquireLease(companyId: number, whatsappId: number, owner: string): Promise<boolean> {
  const now = Date.now();
  const out = await updateItem(leaseKeys(companyId, whatsappId), {
    set: { owner, expiresAt: now + LEASE_SECONDS * 1000, ttl: ttlIn(LEASE_SECONDS * 2) },
    condition: 'attribute_not_exists(pk) OR #o = :me OR #e < :now',
    conditionNames: { '#o': 'owner', '#e': 'expiresAt' },
    conditionValues: { ':me': owner, ':now': now },
  });
  return Boolean(out);
}

export async function releaseLease(companyId: number, whatsappId: number, owner: string) {
  await updateItem(leaseKeys(companyId, whatsappId), {
    set: { expiresAt: 0 },
    condition: '#o = :me',
    conditionNames: { '#o': 'owner' },
    conditionValues: { ':me': owner },
  });
}

export async function markWanted(companyId: number, whatsappId: number) {
  await putItem({ ...wantedKeys(companyId, whatsappId), companyId, whatsappId });
}

export async function unmarkWanted(companyId: number, whatsappId: number) {
  await deleteItem(wantedKeys(companyId, whatsappId));
}

export async function wantedSessions(): Promise<{ companyId: number; whatsappId: number }[]> {
  return queryAll({ pk: 'WSESSIONS' });
}
