import { PLATFORM_COMPANY_ID } from '#shared/constants';
import type { Company } from '#shared/schemas/accounts';
import {
  advanceDueDate,
  dueDateColour,
  type CompanyRow,
  type CompanyBody,
  type CompanyUpdateBody,
} from '#shared/schemas/billing';
import type { z } from 'zod';
import { AppError } from '../errors';
import { putTx, transact, updateItem, updateTx, type TransactItem } from '../db';
import { GLOBAL_SCOPE, nextId } from '../ids';
import { nowIso } from '../keys';
import { decodeCursor, encodeCursor } from '../cursor';
import { hashPassword } from '../auth';
import {
  COMPANIES_INDEX,
  companyCleanupIndex,
  companyIndexFields,
  companyItem,
  companyKeys,
  getCompany,
  isCompanyActive,
  isCompanyExpired,
  newCompany,
  queryCompanies,
  type StoredCompany,
} from './companies';
import { getPlan, listPlans, planUseTx } from './plans';
import { createUser } from './users';
import { closeBarredSockets } from './sessions';
import { auditBy, changesOf, type AuditActor } from '../audit/actor';
import type { AuditAction } from '../audit/record';

/** The super user's company administration (management.md "Settings page": companies tab). */

const BILLING_FIELDS = [
  'billingName',
  'document',
  'address',
  'address2',
  'city',
  'state',
  'zipcode',
  'country',
] as const;

async function toRow(company: StoredCompany, plans?: Map<number, string>): Promise<CompanyRow> {
  const { pausedAt: _p, deletingAt: _d, asaasCustomerId: _a, ...shown } = company;
  const planName = plans ? plans.get(company.planId) : (await getPlan(company.planId))?.name;
  return {
    ...shown,
    plan: planName !== undefined ? { id: company.planId, name: planName } : null,
    dueColour: dueDateColour(company.dueDate),
    expired: isCompanyExpired(company),
  };
}

export async function requireCompany(id: number): Promise<StoredCompany> {
  const company = await getCompany(id, { consistent: true });
  if (!company || company.deletingAt) throw new AppError('ERR_NOT_FOUND');
  return company;
}

export const companyRow = async (id: number) => toRow(await requireCompany(id));

/** `GET /companies`: a page by id, searched by name or e-mail; `GET /companies/list`: all of them. */
export async function listCompanyRows(opts: { cursor?: string; limit?: number; search?: string; all?: boolean }) {
  const plans = new Map((await listPlans()).map((p) => [p.id, p.name]));
  const scope = { ...COMPANIES_INDEX, sk: opts.search ? { eq: `search:${opts.search}` } : undefined };
  const rows: CompanyRow[] = [];
  let startKey = await decodeCursor(0, opts.cursor, scope);
  const limit = opts.limit ?? 20;
  do {
    const page = await queryCompanies({ search: opts.search, limit, startKey });
    for (const c of page.companies) if (!c.deletingAt) rows.push(await toRow(c, plans));
    startKey = page.lastKey;
  } while (startKey && (opts.all || rows.length < limit));
  return { companies: rows, hasMore: Boolean(startKey), cursor: await encodeCursor(0, startKey, scope) };
}

const pickBilling = (body: Partial<Record<(typeof BILLING_FIELDS)[number], string | null | undefined>>) =>
  Object.fromEntries(BILLING_FIELDS.filter((f) => body[f] !== undefined).map((f) => [f, body[f]]));

/**
 * Company changes are the platform's acts: they go to the platform company's trail (one entry per
 * act, with the company as target), never to the tenant's own, whose admins see what happens inside
 * their company and not the platform operator's address. Status and due date have actions of their
 * own (what a super user looks for when a tenant asks "why were we cut off?"); the rest is
 * `company.updated`.
 */
const COMPANY_FIELDS: (keyof StoredCompany)[] = [
  'name',
  'email',
  'phone',
  'planId',
  'status',
  'dueDate',
  'recurrence',
  'campaignsEnabled',
  ...BILLING_FIELDS,
];
const OWN_ACTION: Partial<Record<keyof StoredCompany, AuditAction>> = {
  status: 'company.status_changed',
  dueDate: 'company.due_date_changed',
};

async function auditCompany(
  by: AuditActor | undefined,
  company: Pick<StoredCompany, 'id' | 'name'>,
  action: AuditAction,
  changes: Record<string, unknown>,
) {
  await auditBy(by, {
    companyId: PLATFORM_COMPANY_ID,
    action,
    target: { type: 'company', id: company.id, name: company.name },
    changes,
  });
}

async function auditCompanyUpdate(by: AuditActor | undefined, before: StoredCompany, after: StoredCompany) {
  const changes = changesOf(before, after, COMPANY_FIELDS);
  const rest: Record<string, unknown> = {};
  for (const [field, change] of Object.entries(changes)) {
    const own = OWN_ACTION[field as keyof StoredCompany];
    if (own) await auditCompany(by, after, own, { [field]: change });
    else rest[field] = change;
  }
  if (Object.keys(rest).length) await auditCompany(by, after, 'company.updated', rest);
}

/** `POST /companies`: a company on a plan; with a password, its first admin (the company's e-mail). */
export async function createCompany(body: z.infer<typeof CompanyBody>, by?: AuditActor): Promise<CompanyRow> {
  const plan = await requirePlanFor(body.planId);
  const id = await nextId(GLOBAL_SCOPE, 'company');
  const company: Company = newCompany({
    id,
    name: body.name,
    email: body.email ?? null,
    phone: body.phone ?? null,
    planId: plan.id,
    status: body.status ?? true,
    dueDate: body.dueDate ?? null,
    recurrence: body.recurrence ?? 'MENSAL',
    campaignsEnabled: body.campaignsEnabled ?? true,
    ...pickBilling(body),
  });
  const items: TransactItem[] = [putTx(companyItem(company), true), planUseTx(plan.id, 1)];
  if (body.password) {
    if (!body.email) throw new AppError('ERR_VALIDATION', 400, [{ path: ['email'], message: 'required' }]);
    await createUser(
      {
        companyId: id,
        name: body.name,
        email: body.email,
        passwordHash: await hashPassword(body.password),
        profile: 'admin',
        allTicket: 'enabled',
      },
      { maxUsers: plan.users, extra: items },
    );
  } else {
    await transact(items);
  }
  await auditCompany(by, company, 'company.created', {
    ...changesOf(undefined, company as StoredCompany, COMPANY_FIELDS),
    ...(body.password ? { adminUser: body.email } : {}),
  });
  return toRow(company as StoredCompany);
}

async function requirePlanFor(planId: number) {
  const plan = await getPlan(planId);
  if (!plan) throw new AppError('ERR_VALIDATION', 400, [{ path: ['planId'], message: 'invalid' }]);
  return plan;
}

/**
 * `PUT /companies/{id}`: any field; a plan change moves the plans' company counts in the same
 * transaction. The platform company cannot be disabled or expired.
 */
export async function updateCompany(
  id: number,
  body: z.infer<typeof CompanyUpdateBody>,
  by?: AuditActor,
): Promise<CompanyRow> {
  const current = await requireCompany(id);
  if (id === PLATFORM_COMPANY_ID && (body.status === false || body.dueDate !== undefined))
    throw new AppError('ERR_PLATFORM_COMPANY');
  if (body.planId !== undefined) await requirePlanFor(body.planId);
  const next: StoredCompany = {
    ...current,
    ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)),
    updatedAt: nowIso(),
  } as StoredCompany;
  const items: TransactItem[] = [
    updateTx(companyKeys(id), {
      set: {
        name: next.name,
        email: next.email ?? null,
        phone: next.phone ?? null,
        planId: next.planId,
        status: next.status,
        campaignsEnabled: next.campaignsEnabled,
        dueDate: next.dueDate,
        recurrence: next.recurrence,
        ...pickBilling(body),
        updatedAt: next.updatedAt,
        ...companyIndexFields(next),
      },
      remove: next.dueDate ? [] : ['gsi2pk', 'gsi2sk'],
      condition: 'attribute_exists(pk) AND updatedAt = :seen',
      conditionValues: { ':seen': current.updatedAt },
    }),
  ];
  if (next.planId !== current.planId) items.push(planUseTx(next.planId, 1), planUseTx(current.planId, -1));
  await transact(items);
  // a due date moved into the past (or a company disabled) bars its attendants at once, sockets included
  if (!isCompanyActive(next)) await closeBarredSockets(next);
  await auditCompanyUpdate(by, current, next);
  return toRow(next);
}

/** The "Expire" button: the due date moves by the recurrence (from today when there is none). */
export async function expireCompany(id: number, by?: AuditActor): Promise<CompanyRow> {
  const current = await requireCompany(id);
  const dueDate = advanceDueDate(current.dueDate ?? nowIso(), current.recurrence);
  return updateCompany(id, { dueDate }, by);
}

/**
 * `DELETE /companies/{id}`: the company is marked (its sessions end at their next request, nobody
 * can sign in) and put on the cleanup index; the `company-cleanup` timer removes its data, media and
 * WhatsApp sessions.
 */
export async function deleteCompany(id: number, callerCompanyId: number, by?: AuditActor) {
  if (id === PLATFORM_COMPANY_ID || id === callerCompanyId) throw new AppError('ERR_PLATFORM_COMPANY');
  const company = await requireCompany(id);
  const deletingAt = nowIso();
  const marked = await updateItem(companyKeys(id), {
    set: { deletingAt, status: false, ...companyCleanupIndex(id, deletingAt) },
    remove: ['gsi2pk', 'gsi2sk'],
    condition: 'attribute_exists(pk) AND attribute_not_exists(deletingAt)',
  });
  if (!marked) throw new AppError('ERR_NOT_FOUND');
  await closeBarredSockets({ ...company, deletingAt, status: false });
  await auditCompany(by, company, 'company.deleted', { name: { from: company.name } });
  return { id, deleting: true as const };
}
