import '#lib/startup';
import { dispatchDueCampaigns } from '#lib/campaigns/service';
import { log } from '#lib/log';

/** Timer `campaigns` (every minute, platform-wide): starts PROGRAMADA campaigns that are due, restarts lost chains. */
export const handler = async () => {
  const result = await dispatchDueCampaigns();
  if (result.started || result.recovered) log.info('campaigns dispatched', result);
  return result;
};
