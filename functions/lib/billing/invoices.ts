import type { Plan } from '#shared/schemas/accounts';
import { RECURRENCE_MONTHS } from '#shared/constants';
import { advanceDueDate, dueDay, invoiceDisplayStatus, type Invoice, type InvoiceRow } from '#shared/schemas/billing';
import { AppError } from '../errors';
import { getItem, putTx, query, stripKeys, transact, type Item } from '../db';
import { companyScope, nextId } from '../ids';
import { nowIso, pad } from '../keys';
import { decodeCursor, page } from '../cursor';
import type { StoredCompany } from '../accounts/companies';

/**
 * Invoices: pk `C#<cid>`, sk `INVOICE#<id>` (newest first by id), and a period guard
 * `C#<cid>` / `INVOICEPERIOD#<due day>` written in the same transaction, so one company gets one
 * invoice per period however often the timer or a checkout asks for it.
 */
export const invoiceKeys = (companyId: number, id: number) => ({ pk: `C#${companyId}`, sk: `INVOICE#${pad(id)}` });
const periodKeys = (companyId: number, day: string) => ({ pk: `C#${companyId}`, sk: `INVOICEPERIOD#${day}` });
const LIST_SCOPE = (companyId: number) => ({ pk: `C#${companyId}`, sk: { beginsWith: 'INVOICE#' } });

const toInvoice = (item: Item): Invoice => {
  const { searchText: _s, ...invoice } = stripKeys(item) as Invoice & { searchText?: string };
  return invoice;
};
export const toRow = (invoice: Invoice, now = new Date()): InvoiceRow => ({
  ...invoice,
  displayStatus: invoiceDisplayStatus(invoice, now),
});

export async function getInvoice(companyId: number, id: number, opts: { consistent?: boolean } = {}) {
  const item = await getItem(invoiceKeys(companyId, id), opts);
  return item ? toInvoice(item) : undefined;
}

export async function requireInvoice(companyId: number, id: number): Promise<Invoice> {
  const invoice = await getInvoice(companyId, id);
  if (!invoice) throw new AppError('ERR_NOT_FOUND');
  return invoice;
}

const ddmmyyyy = (iso: string) => {
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${d}/${m}/${y}`;
};

/**
 * The invoice of the company's current period (its due date to the next one): found by the period
 * guard, or created with the plan's monthly value times the months of the company's recurrence.
 * Concurrent callers get the same invoice.
 */
export async function ensureInvoice(
  company: StoredCompany,
  plan: Plan,
): Promise<{ invoice: Invoice; created: boolean }> {
  if (!company.dueDate) throw new AppError('ERR_VALIDATION', 400, [{ path: ['dueDate'], message: 'required' }]);
  const day = dueDay(company.dueDate)!;
  const existing = await invoiceOfPeriod(company.id, day);
  if (existing) return { invoice: existing, created: false };
  const id = await nextId(companyScope(company.id), 'invoice');
  const periodEnd = advanceDueDate(company.dueDate, company.recurrence);
  const now = nowIso();
  const invoice: Invoice = {
    id,
    companyId: company.id,
    detail: `${plan.name} - ${ddmmyyyy(company.dueDate)} a ${ddmmyyyy(periodEnd)}`,
    // the plan's price is monthly: a period of several months is billed for each of them
    value: Math.round(plan.value * RECURRENCE_MONTHS[company.recurrence] * 100) / 100,
    dueDate: company.dueDate,
    periodStart: company.dueDate,
    periodEnd,
    status: 'open',
    paidAt: null,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await transact([
      putTx({ ...periodKeys(company.id, day), invoiceId: id }, true),
      putTx({ ...invoiceKeys(company.id, id), ...invoice, searchText: invoice.detail.toLowerCase() }, true),
    ]);
    return { invoice, created: true };
  } catch (err) {
    // another run issued it first: theirs is the period's invoice
    const theirs = err instanceof AppError ? await invoiceOfPeriod(company.id, day) : undefined;
    if (theirs) return { invoice: theirs, created: false };
    throw err;
  }
}

/**
 * The timer's path: issues the period's invoice unless its guard shows one was issued (one read for
 * a company already billed, where `ensureInvoice` reads the invoice too). True when this call issued it.
 */
export async function issueInvoiceOnce(company: StoredCompany, plan: Plan) {
  const day = company.dueDate && dueDay(company.dueDate);
  if (day && (await getItem(periodKeys(company.id, day), { consistent: true }))) return false;
  return (await ensureInvoice(company, plan)).created;
}

async function invoiceOfPeriod(companyId: number, day: string) {
  const guard = await getItem<{ invoiceId: number }>(periodKeys(companyId, day), { consistent: true });
  return guard ? getInvoice(companyId, guard.invoiceId, { consistent: true }) : undefined;
}

/** One page of the company's invoices, newest first, with their display status. */
export async function listInvoices(companyId: number, opts: { cursor?: string; limit?: number; search?: string }) {
  const scope = LIST_SCOPE(companyId);
  const { items, lastKey } = await query({
    ...scope,
    forward: false,
    limit: opts.limit ?? 20,
    startKey: await decodeCursor(companyId, opts.cursor, scope),
    ...(opts.search ? { filter: 'contains(searchText, :q)', filterValues: { ':q': opts.search } } : {}),
  });
  const now = new Date();
  const out = await page(
    companyId,
    items.map((i) => toRow(toInvoice(i), now)),
    lastKey,
    scope,
  );
  return { invoices: out.items, hasMore: out.hasMore, cursor: out.cursor };
}

/** The oldest unpaid invoice (the one to pay next), if any. */
export async function nextOpenInvoice(companyId: number): Promise<Invoice | undefined> {
  const open: Invoice[] = [];
  let startKey: Item | undefined;
  do {
    const out = await query({
      ...LIST_SCOPE(companyId),
      filter: '#s = :open',
      filterNames: { '#s': 'status' },
      filterValues: { ':open': 'open' },
      startKey,
    });
    open.push(...out.items.map(toInvoice));
    startKey = out.lastKey;
  } while (startKey && !open.length);
  return open[0];
}

/** Has the company ever paid an invoice (else it is still in its trial)? */
export async function hasPaidInvoice(companyId: number): Promise<boolean> {
  let startKey: Item | undefined;
  do {
    const out = await query({
      ...LIST_SCOPE(companyId),
      filter: '#s = :paid',
      filterNames: { '#s': 'status' },
      filterValues: { ':paid': 'paid' },
      projection: ['id'],
      startKey,
    });
    if (out.items.length) return true;
    startKey = out.lastKey;
  } while (startKey);
  return false;
}
