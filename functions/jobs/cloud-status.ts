import '#lib/startup';
import { runCloudStatusChecks } from '#lib/whatsapp-cloud/status-check';
import { log } from '#lib/log';

/** Timer `cloud-status` (platform-wide): Cloud API connections' status asked of the Graph API again (status-check.ts). */
export const handler = async () => {
  const result = await runCloudStatusChecks();
  if (result.checked) log.info('cloud connections checked', result);
  return result;
};
