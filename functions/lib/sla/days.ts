import { keptDays } from '../kept-days';
import { slaDayOf, slaPk, type SlaDay } from './metrics';

/**
 * The service-level day items of a range. Every event is counted on the day it happens, so a day
 * that ended never changes again: settled days are kept per instance (kept-days.ts) and only the
 * days still open are read on each call.
 */
export { MAX_KEPT, SETTLE_MS } from '../kept-days';

/** The days `from`..`to` (inclusive) that have metrics, oldest first. */
export const slaDays = (companyId: number, from: string, to: string, now = new Date()): Promise<SlaDay[]> =>
  keptDays(slaPk(companyId), from, to, slaDayOf, now);
