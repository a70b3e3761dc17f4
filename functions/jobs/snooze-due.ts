import '#lib/startup';
import { runSnoozeTimer } from '#lib/tickets/snooze';
import { log } from '#lib/log';

/** Timer `snooze` (every minute, platform-wide): snoozed tickets whose time came go back to their open lists. */
export const handler = async () => {
  const result = await runSnoozeTimer();
  if (result.woke) log.info('snoozed tickets woke', result);
  return result;
};
