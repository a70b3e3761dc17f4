import { keptFold, type DaysSpec, type SplitDays } from '../kept-days';
import { slaDayOf, slaPk, sumSlaDays, type SlaDay, type SlaSum } from './metrics';

/**
 * The service levels of a range. Every event is counted on the day it happens, so a day that ended
 * never changes again: settled days are kept per instance and their sum too (kept-days.ts); each
 * read fetches only the days still open and adds them to that sum.
 */
/** The day items of the days `from`..`to` (inclusive), for keptDaysSplitAll. */
export const slaDaysSpec = (companyId: number, from: string, to: string): DaysSpec<SlaDay> => ({
  pk: slaPk(companyId),
  from,
  to,
  parse: slaDayOf,
});

/** The metrics of a range's days, summed: the settled days' sum kept, the open days added. */
export function slaSum(split: SplitDays<SlaDay>): SlaSum {
  const settled = keptFold(`sla|${split.settledKey}`, () => sumSlaDays(split.settled));
  const sum = () => sumSlaDays(split.open, settled);
  // the same open days at the same versions add up the same: kept too
  return split.openKey ? keptFold(`sla|${split.settledKey}|${split.openKey}`, sum) : sum();
}
