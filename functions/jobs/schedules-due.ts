import '#lib/startup';
import { dispatchDueSchedules } from '#lib/schedules/dispatch';
import { log } from '#lib/log';

/** Timer `schedules` (every minute, platform-wide): hands every due schedule to the `schedules` queue. */
export const handler = async () => {
  const result = await dispatchDueSchedules();
  if (result.enqueued) log.info('schedules dispatched', result);
  return result;
};
