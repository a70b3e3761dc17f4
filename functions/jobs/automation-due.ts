import '#lib/startup';
import { runAutomationTimer } from '#lib/automation/timer';
import { log } from '#lib/log';

/** Timer `automation` (every minute, platform-wide): rule waits that ended, and `no_*_reply` checks that fell due. */
export const handler = async () => {
  const result = await runAutomationTimer();
  if (result.fired || result.resumed) log.info('automation timer', result);
  return result;
};
