import type { Company, Plan } from '#shared/schemas/accounts';
import { getItem, stripKeys, putTx, query, type Item } from '../db';
import { pad, nowIso } from '../keys';
import { getPlan } from './plans';

/**
 * A company: pk `C#<id>`, sk `COMPANY`; listed for the super user on gsi1 `COMPANIES` / `<id>`
 * (with `searchText`: lower-cased name and e-mail), and on the platform due index gsi2
 * `COMPANYDUE` / `<dueDate>#<id>` while it has a due date (the invoices timer pages through it).
 */
export const companyKeys = (id: number) => ({ pk: `C#${id}`, sk: 'COMPANY' });
export const COMPANIES_INDEX = { index: 'gsi1', pk: 'COMPANIES' } as const;
export const COMPANY_DUE_INDEX = { index: 'gsi2', pk: 'COMPANYDUE' } as const;
/** A company's place on the companies index: a page that starts there begins with the next company. */
export const companiesIndexKey = (id: number) => ({
  ...companyKeys(id),
  gsi1pk: COMPANIES_INDEX.pk,
  gsi1sk: pad(id),
});

/** The index attributes derived from the company's fields (rewritten with every change). */
export function companyIndexFields(company: Pick<Company, 'id' | 'name' | 'email' | 'dueDate'>) {
  return {
    gsi1pk: COMPANIES_INDEX.pk,
    gsi1sk: pad(company.id),
    searchText: `${company.name} ${company.email ?? ''}`.toLowerCase(),
    ...(company.dueDate ? { gsi2pk: COMPANY_DUE_INDEX.pk, gsi2sk: `${company.dueDate}#${pad(company.id)}` } : {}),
  };
}

/** A deleted company waits on gsi3 `COMPANYCLEANUP` / `<deletingAt>#<id>` until the cleanup timer removes it. */
export const COMPANY_CLEANUP_INDEX = { index: 'gsi3', pk: 'COMPANYCLEANUP' } as const;
export const companyCleanupIndex = (id: number, deletingAt: string) => ({
  gsi3pk: COMPANY_CLEANUP_INDEX.pk,
  gsi3sk: `${deletingAt}#${pad(id)}`,
});

/** Deleted companies waiting for the cleanup, oldest first (one page). */
export async function queryCompaniesToClean(startKey?: Item) {
  const { items, lastKey } = await query({ ...COMPANY_CLEANUP_INDEX, limit: 20, startKey });
  return { companies: items.map(toCompany), lastKey };
}

export function companyItem(company: Company) {
  return { ...companyKeys(company.id), ...companyIndexFields(company), ...company };
}

export const companyPutTx = (company: Company) => putTx(companyItem(company), true);

/** A stored company without its index attributes (`pausedAt`, `deletingAt` are the timer's marks). */
export type StoredCompany = Company & { pausedAt?: string; deletingAt?: string; asaasCustomerId?: string };

export const toCompany = (item: Item): StoredCompany => {
  const { searchText: _s, ...rest } = stripKeys(item) as StoredCompany & { searchText?: string };
  return rest;
};

export async function getCompany(id: number, opts: { consistent?: boolean } = {}): Promise<StoredCompany | undefined> {
  const item = await getItem(companyKeys(id), opts);
  return item ? toCompany(item) : undefined;
}

export async function companyPlan(companyId: number): Promise<Plan | undefined> {
  const company = await getCompany(companyId);
  return company ? getPlan(company.planId) : undefined;
}

/** The due date has passed (no due date: never). */
export function isCompanyExpired(company: Pick<Company, 'dueDate'>, now = new Date()) {
  return Boolean(company.dueDate) && new Date(company.dueDate!).getTime() <= now.getTime();
}

/** A company may work while it is enabled and its due date is in the future (no due date: no expiry). */
export function isCompanyActive(company: Company, now = new Date()) {
  return company.status !== false && !isCompanyExpired(company, now);
}

export function newCompany(fields: Omit<Company, 'createdAt' | 'updatedAt'>): Company {
  const now = nowIso();
  return { ...fields, createdAt: now, updatedAt: now };
}

/** One page of the super user's company list, by id, optionally searched by name or e-mail. */
export async function queryCompanies(opts: { search?: string; limit: number; startKey?: Item }) {
  const { items, lastKey } = await query({
    index: COMPANIES_INDEX.index,
    pk: COMPANIES_INDEX.pk,
    limit: opts.limit,
    startKey: opts.startKey,
    ...(opts.search ? { filter: 'contains(searchText, :q)', filterValues: { ':q': opts.search } } : {}),
  });
  return { companies: items.map(toCompany), lastKey };
}

/** Companies whose due date is at or before `untilIso`, oldest due first (one page). */
export async function queryCompaniesDueBy(untilIso: string, startKey?: Item) {
  const { items, lastKey } = await query({
    index: COMPANY_DUE_INDEX.index,
    pk: COMPANY_DUE_INDEX.pk,
    sk: { lte: `${untilIso}#~` },
    limit: 100,
    startKey,
  });
  return { companies: items.map(toCompany), lastKey };
}
