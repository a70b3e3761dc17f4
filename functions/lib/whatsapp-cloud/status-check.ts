import { isCloudProvider } from '#shared/constants';
import { hasCloudTransport } from '#shared/transports';
import { probeCloudTransport } from './transport';
import { deleteItem } from '../db';
import { dueAcrossShards } from '../due';
import { log } from '../log';
import { getWhatsapp } from '../whatsapp/repo';
import { probeCloud } from '../whatsapp/service';
import { syncTemplatesQuietly } from './templates';
import { armCloudCheck, CLOUD_CHECK_PREFIX, CLOUD_CHECK_SHARDS, cloudCheckKeys } from './connection';

interface CloudCheck {
  companyId: number;
  whatsappId: number;
  dueAt: string;
}

/**
 * Timer `cloud-status`: every Cloud API connection whose wake-up is due asks the Graph API again
 * (see armCloudCheck) and, when connected, reads its templates again. Each wake-up is removed before its check and the next one armed after it,
 * so a connection keeps exactly one; a failed check is logged and comes back in an hour.
 */
export async function runCloudStatusChecks(now = new Date()) {
  let checked = 0;
  for (;;) {
    const due = await dueAcrossShards<CloudCheck>(CLOUD_CHECK_PREFIX, CLOUD_CHECK_SHARDS, now);
    if (!due.length) return { checked };
    for (const item of due) {
      await deleteItem(cloudCheckKeys(item.dueAt, item.companyId, item.whatsappId));
      const whatsapp = await getWhatsapp(item.companyId, item.whatsappId);
      if (!whatsapp || !hasCloudTransport(whatsapp)) continue;
      try {
        // a WhatsApp Web connection's attached transport: its own status, never the session's
        const probed = isCloudProvider(whatsapp.provider)
          ? await probeCloud(item.companyId, item.whatsappId)
          : (await probeCloudTransport(item.companyId, item.whatsappId))?.cloudTransport;
        // templates made or changed in Meta's manager show within the hour even without the webhook
        if (probed?.status === 'CONNECTED') await syncTemplatesQuietly(item.companyId, item.whatsappId);
        checked++;
      } catch (err) {
        log.warn('cloud status check failed', {
          companyId: item.companyId,
          whatsappId: item.whatsappId,
          error: (err as Error).message,
        });
      }
      await armCloudCheck(item.companyId, item.whatsappId, now);
    }
  }
}
