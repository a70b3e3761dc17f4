import '#lib/startup';
import { z } from 'zod';
import { httpModule, reply, route } from '#lib/http';
import { idParam, cursorQuery, pageNumberNeedsCursor } from '#shared/schemas/common';
import { CampaignBody, CampaignSettingsBody, CampaignsQuery } from '#shared/schemas/campaigns';
import { readMultipartFile } from '#lib/multipart';
import {
  attachCampaignMedia,
  campaignReport,
  cancelCampaign,
  connectionLimits,
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  removeCampaignMedia,
  restartCampaign,
  updateCampaign,
} from '#lib/campaigns/service';
import { campaignSettings, saveCampaignSettings, settingsList } from '#lib/campaigns/settings';

const params = z.object({ id: idParam });
const feature = 'useCampaigns' as const;
const permission = 'drawer-admin-items:view' as const;

/** Campaigns and their settings (management.md "Campaigns", 4, 7, 9), behind the plan's useCampaigns. */
export const handler = httpModule({
  'GET /campaigns': route(
    { feature, permission, query: pageNumberNeedsCursor(CampaignsQuery) },
    async ({ auth, query }) => listCampaigns(auth.companyId, query),
  ),
  'GET /campaigns/limits': route({ feature, permission }, async ({ auth }) => connectionLimits(auth.companyId)),
  'GET /campaigns/{id}': route({ feature, permission, params }, async ({ auth, params }) =>
    getCampaign(auth.companyId, params.id),
  ),
  'GET /campaigns/{id}/report': route(
    { feature, permission, params, query: cursorQuery },
    async ({ auth, params, query }) => campaignReport(auth.companyId, params.id, query),
  ),
  'POST /campaigns': route({ feature, permission, body: CampaignBody }, async ({ auth, body }) =>
    reply(await createCampaign(auth.companyId, body), 201),
  ),
  'PUT /campaigns/{id}': route({ feature, permission, params, body: CampaignBody }, async ({ auth, params, body }) =>
    updateCampaign(auth.companyId, params.id, body),
  ),
  'DELETE /campaigns/{id}': route({ feature, permission, params }, async ({ auth, params }) => {
    await deleteCampaign(auth.companyId, params.id);
    return { message: 'Campaign deleted' };
  }),
  'POST /campaigns/{id}/cancel': route({ feature, permission, params }, async ({ auth, params }) =>
    cancelCampaign(auth.companyId, params.id),
  ),
  'POST /campaigns/{id}/restart': route({ feature, permission, params }, async ({ auth, params }) =>
    restartCampaign(auth.companyId, params.id),
  ),
  'POST /campaigns/{id}/media-upload': route({ feature, permission, params }, async ({ auth, params, event }) =>
    attachCampaignMedia(auth.companyId, params.id, await readMultipartFile(event)),
  ),
  'DELETE /campaigns/{id}/media-upload': route({ feature, permission, params }, async ({ auth, params }) =>
    removeCampaignMedia(auth.companyId, params.id),
  ),
  'GET /campaign-settings': route({ feature, permission }, async ({ auth }) =>
    settingsList(await campaignSettings(auth.companyId)),
  ),
  'POST /campaign-settings': route({ feature, permission, body: CampaignSettingsBody }, async ({ auth, body }) =>
    saveCampaignSettings(auth.companyId, body.settings),
  ),
});
