import '#lib/startup';
import { runUndeliveredWatchdog } from '#lib/watchdog/service';
import { log } from '#lib/log';

/** Timer `undelivered` (every minute, platform-wide): flags sent messages still without a delivery ack. */
export const handler = async () => {
  const result = await runUndeliveredWatchdog();
  if (result.flagged) log.info('undelivered messages flagged', result);
  return result;
};
