import '#lib/startup';
import { z } from 'zod';
import { httpModule, route } from '#lib/http';
import { InvoicesQuery } from '#shared/schemas/billing';
import { idParam } from '#shared/schemas/common';
import { listInvoices, requireInvoice, toRow } from '#lib/billing/invoices';
import { ADMIN_AREA } from '#lib/users/service';

/** The company's invoices (/financeiro): reachable by an expired company's admins, so they can pay. */
const list = route({ whileExpired: true, permission: ADMIN_AREA, query: InvoicesQuery }, async ({ auth, query }) =>
  listInvoices(auth.companyId, { cursor: query.cursor, limit: query.limit, search: query.searchParam }),
);

export const handler = httpModule({
  'GET /invoices/all': list,
  'GET /invoices': list,
  'GET /invoices/{id}': route(
    { whileExpired: true, permission: ADMIN_AREA, params: z.object({ id: idParam }) },
    async ({ auth, params }) => toRow(await requireInvoice(auth.companyId, params.id)),
  ),
});
