import { INVOICE_LEAD_DAYS } from '#shared/constants';
import { addDays } from '#shared/dates';
import type { Plan } from '#shared/schemas/accounts';
import type { Item } from '../db';
import { log } from '../log';
import { eachLimit } from '../each-limit';
import { isCompanyExpired, queryCompaniesDueBy } from '../accounts/companies';
import { getPlan } from '../accounts/plans';
import { issueInvoiceOnce } from './invoices';
import { pauseCompanySessions } from './pause';

/** Companies handled at once: a platform of thousands bills inside the timer's run. */
const COMPANY_CONCURRENCY = 8;

/**
 * The `invoices` timer: pages through the platform due index (gsi2 `COMPANYDUE`) up to
 * INVOICE_LEAD_DAYS ahead. Each enabled company gets the invoice of its current period (once: the
 * period guard), and one whose due date has passed has its WhatsApp sessions paused (once).
 */
export async function runInvoicesTimer(now = new Date()) {
  const until = addDays(now, INVOICE_LEAD_DAYS);
  const plans = new Map<number, Promise<Plan | undefined>>();
  const out = { companies: 0, invoices: 0, paused: 0 };
  let startKey: Item | undefined;
  do {
    const page = await queryCompaniesDueBy(until, startKey);
    const billable = page.companies.filter((c) => c.status !== false && !c.deletingAt && c.dueDate);
    out.companies += billable.length;
    await eachLimit(billable, COMPANY_CONCURRENCY, async (company) => {
      if (!plans.has(company.planId)) plans.set(company.planId, getPlan(company.planId));
      try {
        const plan = await plans.get(company.planId);
        if (plan && (await issueInvoiceOnce(company, plan))) out.invoices++;
        if (isCompanyExpired(company, now) && !company.pausedAt && (await pauseCompanySessions(company.id)))
          out.paused++;
      } catch (err) {
        log.error('invoice timer failed for a company', { companyId: company.id, error: (err as Error).message });
      }
    });
    startKey = page.lastKey;
  } while (startKey);
  return out;
}
