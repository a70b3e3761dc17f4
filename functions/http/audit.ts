import '#lib/startup';
import { httpModule, route } from '#lib/http';
import { AuditQuery } from '#shared/schemas/audit';
import { listCompanyAudit, listPlatformAudit } from '#lib/audit/list';
import { AppError } from '#lib/errors';

/**
 * The audit trail (security-relevant actions, kept 180 days). An admin reads their own company's,
 * never the entries about other companies (the platform company's admins included); a super user
 * any one company's (`companyId`), all of it, or every company's by day range. Attendants: 403.
 */
export const handler = httpModule({
  'GET /audit': route({ permission: 'audit:view', query: AuditQuery }, async ({ auth, query }) => {
    if (auth.super) {
      return query.companyId
        ? listCompanyAudit(auth.companyId, query.companyId, query, { everything: true })
        : listPlatformAudit(auth.companyId, query);
    }
    // another company's trail is never reachable, whatever the query says
    if (query.companyId !== undefined && query.companyId !== auth.companyId) throw new AppError('ERR_NO_PERMISSION');
    return listCompanyAudit(auth.companyId, auth.companyId, query, { everything: false });
  }),
});
