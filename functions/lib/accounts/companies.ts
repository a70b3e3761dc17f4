import type { Company, Plan } from '#shared/schemas/accounts';
import { getItem, stripKeys, putTx } from '../db';
import { pad, nowIso } from '../keys';
import { getPlan } from './plans';

/** A company: pk `C#<id>`, sk `COMPANY`; listed for the super user on gsi1 `COMPANIES`. */
export const companyKeys = (id: number) => ({ pk: `C#${id}`, sk: 'COMPANY' });

export function companyItem(company: Company) {
  return { ...companyKeys(company.id), gsi1pk: 'COMPANIES', gsi1sk: pad(company.id), ...company };
}

export const companyPutTx = (company: Company) => putTx(companyItem(company), true);

export async function getCompany(id: number): Promise<Company | undefined> {
  const item = await getItem(companyKeys(id));
  return item ? (stripKeys(item) as Company) : undefined;
}

export async function companyPlan(companyId: number): Promise<Plan | undefined> {
  const company = await getCompany(companyId);
  return company ? getPlan(company.planId) : undefined;
}

/** A company may work while its due date is in the future (no due date: no expiry). */
export function isCompanyActive(company: Company, now = new Date()) {
  return company.status !== false && (!company.dueDate || new Date(company.dueDate).getTime() > now.getTime());
}

export function newCompany(fields: Omit<Company, 'createdAt' | 'updatedAt'>): Company {
  const now = nowIso();
  return { ...fields, createdAt: now, updatedAt: now };
}
