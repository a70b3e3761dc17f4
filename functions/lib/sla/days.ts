import { keptDaysSplit, keptFold } from '../kept-days';
import { slaDayOf, slaPk, sumSlaDays, type SlaSum } from './metrics';

/**
 * The service levels of a range. Every event is counted on the day it happens, so a day that ended
 * never changes again: settled days are kept per instance and their sum too (kept-days.ts); each
 * call reads only the days still open and adds them to that sum.
 */
export { MAX_KEPT, SETTLE_MS } from '../kept-days';

/** The metrics of the days `from`..`to` (inclusive), summed. */
export async function slaSum(companyId: number, from: string, to: string, now = new Date()): Promise<SlaSum> {
  const split = await keptDaysSplit(slaPk(companyId), from, to, slaDayOf, now);
  const settled = keptFold(`sla|${split.settledKey}`, () => sumSlaDays(split.settled));
  return sumSlaDays(split.open, settled);
}
