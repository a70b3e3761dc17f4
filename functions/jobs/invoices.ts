import '#lib/startup';
import { runInvoicesTimer } from '#lib/billing/timer';
import { log } from '#lib/log';

/** Timer `invoices` (hourly, platform-wide): invoices before each due date; expired companies' sessions paused. */
export const handler = async () => {
  const result = await runInvoicesTimer();
  if (result.invoices || result.paused) log.info('invoices timer', result);
  return result;
};
