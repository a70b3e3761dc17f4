import { INVOICE_LEAD_DAYS } from '#shared/constants';
import { addDays } from '#shared/dates';
import type { Plan } from '#shared/schemas/accounts';
import type { Item } from '../db';
import { log } from '../log';
import { isCompanyExpired, queryCompaniesDueBy } from '../accounts/companies';
import { getPlan } from '../accounts/plans';
import { ensureInvoice } from './invoices';
import { pauseCompanySessions } from './pause';

/**
 * The `invoices` timer: pages through the platform due index (gsi2 `COMPANYDUE`) up to
 * INVOICE_LEAD_DAYS ahead. Each enabled company gets the invoice of its current period (once: the
 * period guard), and one whose due date has passed has its WhatsApp sessions paused (once).
 */
export async function runInvoicesTimer(now = new Date()) {
  const until = addDays(now, INVOICE_LEAD_DAYS);
  const plans = new Map<number, Plan | undefined>();
  const out = { companies: 0, invoices: 0, paused: 0 };
  let startKey: Item | undefined;
  do {
    const page = await queryCompaniesDueBy(until, startKey);
    for (const company of page.companies) {
      if (company.status === false || company.deletingAt || !company.dueDate) continue;
      out.companies++;
      if (!plans.has(company.planId)) plans.set(company.planId, await getPlan(company.planId));
      const plan = plans.get(company.planId);
      try {
        if (plan && (await ensureInvoice(company, plan)).created) out.invoices++;
        if (isCompanyExpired(company, now) && !company.pausedAt && (await pauseCompanySessions(company.id)))
          out.paused++;
      } catch (err) {
        log.error('invoice timer failed for a company', { companyId: company.id, error: (err as Error).message });
      }
    }
    startKey = page.lastKey;
  } while (startKey);
  return out;
}
