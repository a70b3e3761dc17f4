import '#lib/startup';
import { runSlaTimer } from '#lib/sla/breach';
import { log } from '#lib/log';

/** Timer `sla` (every minute, platform-wide): marks tickets whose service-level deadline passed. */
export const handler = async () => {
  const result = await runSlaTimer();
  if (result.breached) log.info('sla deadlines breached', result);
  return result;
};
