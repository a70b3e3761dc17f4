import type { Schedule } from '#shared/schemas/schedules';
import { getItem, stripKeys, type Item } from '../db';
import { pad } from '../keys';

/**
 * A scheduled message: pk `C#<cid>`, sk `SCHEDULE#<pad(id)>`. While it waits (status PENDENTE) it
 * also sits on the platform-wide due index gsi4 `SCHEDULE_DUE#<shard>` / `<sendAt>#<pad(cid)>#<pad(id)>`,
 * so the timer reads everything due (sendAt <= now) with one Query per shard, whatever the company.
 * Claiming a schedule moves its index entry to a recheck time (lost jobs are found there); the
 * outcome (ENVIADA, ERRO) removes it.
 */
export const scheduleKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `SCHEDULE#${pad(id)}` });

/** Shards spread the due index over several partitions (no single hot key across all companies). */
export const DUE_SHARDS = 4;
export const dueShardPk = (shard: number) => `SCHEDULE_DUE#${shard}`;
export const dueIndex = (companyId: number, id: number, sendAt: string) => ({
  gsi4pk: dueShardPk((companyId + id) % DUE_SHARDS),
  gsi4sk: `${sendAt}#${pad(companyId)}#${pad(id)}`,
});
/** Every key of the due index up to `now` sorts at or below this bound. */
export const dueUpperBound = (now: string) => `${now}#~`;

/** Internal fields: search text, media type for the send, failed attempts, and the in-flight send marker. */
export type StoredSchedule = Schedule & {
  searchText: string;
  mediaMimetype?: string | null;
  attempts?: number;
  sendingAt?: string;
  /** times a lost job was enqueued again (see dispatch.ts) */
  requeues?: number;
  /** when it was created or last saved: a contact's message after this cancels it (cancelIfCustomerWrites) */
  armedAt?: string;
};

export function scheduleItem(s: StoredSchedule): Item {
  return {
    ...scheduleKeys(s.companyId, s.id),
    ...s,
    ...(s.status === 'PENDENTE' ? dueIndex(s.companyId, s.id, s.sendAt) : {}),
  };
}

export const toStoredSchedule = (item: Item) => stripKeys(item) as StoredSchedule;

export function toSchedule(item: Item): Schedule {
  const {
    searchText: _s,
    mediaMimetype: _m,
    attempts: _a,
    sendingAt: _x,
    requeues: _r,
    armedAt: _armed,
    ...rest
  } = toStoredSchedule(item);
  return { ...rest, cancelIfCustomerWrites: rest.cancelIfCustomerWrites ?? false };
}

export async function getStoredSchedule(companyId: number, id: number): Promise<StoredSchedule | undefined> {
  const item = await getItem(scheduleKeys(companyId, id));
  return item ? toStoredSchedule(item) : undefined;
}
