import '#lib/startup';
import { z } from 'zod';
import { httpModule, route } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { CompanySchedulesBody, SettingBody, SettingParams } from '#shared/schemas/settings';
import { settingRole } from '#shared/settings-policy';
import { AppError } from '#lib/errors';
import type { AuthContext } from '#lib/auth';
import { getCompanySchedules, listSettingsFor, setCompanySchedules, updateSetting } from '#lib/settings';
import { ADMIN_AREA } from '#lib/users/service';

/** A company id in the path must be the caller's own (a super user may reach any company). */
function ownCompany(auth: AuthContext, id: number) {
  if (id !== auth.companyId && !auth.super) throw new AppError('ERR_NOT_FOUND');
  return id;
}

/**
 * Settings (management.md "Settings page", sections 7 and 9) and the company's business hours. Who
 * reads and writes each setting key is SETTING_POLICY (shared/settings-policy.ts), applied by the service.
 */
export const handler = httpModule({
  'GET /settings': route({}, async ({ auth }) => listSettingsFor(auth.companyId, settingRole(auth))),

  'PUT /settings/{key}': route(
    { params: SettingParams, body: SettingBody },
    async ({ auth, params, body, clientAddress }) => updateSetting(auth, params.key, body.value, clientAddress),
  ),

  'GET /companies/{id}/schedules': route({ params: z.object({ id: idParam }) }, async ({ auth, params }) => ({
    schedules: await getCompanySchedules(ownCompany(auth, params.id)),
  })),

  'PUT /companies/{id}/schedules': route(
    { permission: ADMIN_AREA, params: z.object({ id: idParam }), body: CompanySchedulesBody },
    async ({ auth, params, body }) => ({
      schedules: await setCompanySchedules(ownCompany(auth, params.id), body.schedules),
    }),
  ),
});
