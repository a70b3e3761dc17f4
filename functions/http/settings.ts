import { z } from 'zod';
import { httpModule, route } from '#lib/http';
import { idParam } from '#shared/schemas/common';
import { CompanySchedulesBody, SettingBody, SettingParams } from '#shared/schemas/settings';
import { AppError } from '#lib/errors';
import type { AuthContext } from '#lib/auth';
import { getCompanySchedules, listAllSettings, listSettings, setCompanySchedules, updateSetting } from '#lib/settings';
import { ADMIN_AREA } from '#lib/users/service';

/** A company id in the path must be the caller's own (a super user may reach any company). */
function ownCompany(auth: AuthContext, id: number) {
  if (id !== auth.companyId && !auth.super) throw new AppError('ERR_NOT_FOUND');
  return id;
}

/** Settings (management.md "Settings page", sections 7 and 9) and the company's business hours. */
export const handler = httpModule({
  'GET /settings': route({}, async ({ auth }) =>
    auth.super ? listAllSettings(auth.companyId) : listSettings(auth.companyId),
  ),

  'PUT /settings/{key}': route(
    { permission: ADMIN_AREA, params: SettingParams, body: SettingBody },
    async ({ auth, params, body }) => updateSetting(auth.companyId, params.key, body.value),
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
