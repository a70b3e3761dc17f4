import '#lib/startup';
import { z } from 'zod';
import { httpModule, route, reply } from '#lib/http';
import { SignupBody } from '#shared/schemas/accounts';
import { CompaniesQuery, CompanyBody, CompanyUpdateBody } from '#shared/schemas/billing';
import { idParam } from '#shared/schemas/common';
import { companyPlan } from '#lib/accounts/companies';
import {
  companyRow,
  createCompany,
  deleteCompany,
  expireCompany,
  listCompanyRows,
  updateCompany,
} from '#lib/accounts/company-admin';
import { signup } from '#lib/accounts/service';
import { AppError } from '#lib/errors';
import { actorOf } from '#lib/audit/actor';

const params = z.object({ id: idParam });

/** Signup, the plan lookup, and the super user's companies tab (management.md 7). */
export const handler = httpModule({
  'POST /companies/cadastro': route({ public: true, body: SignupBody }, async ({ body, clientAddress }) => {
    const { company, user } = await signup(body, clientAddress);
    return reply({ company, user: { id: user.id, name: user.name, email: user.email } }, 201);
  }),

  'GET /companies/listPlan/{companyId}': route(
    { whileExpired: true, params: z.object({ companyId: idParam }) },
    async ({ auth, params }) => {
      // Another company's plan is none of the caller's business unless they run the platform.
      if (params.companyId !== auth.companyId && !auth.super) throw new AppError('ERR_NOT_FOUND');
      const plan = await companyPlan(params.companyId);
      if (!plan) throw new AppError('ERR_NOT_FOUND');
      return { plan };
    },
  ),

  'GET /companies': route({ super: true, query: CompaniesQuery }, async ({ query }) =>
    listCompanyRows({ cursor: query.cursor, limit: query.limit, search: query.searchParam }),
  ),
  'GET /companies/list': route(
    { super: true },
    async () => (await listCompanyRows({ all: true, limit: 100 })).companies,
  ),
  'GET /companies/{id}': route({ params }, async ({ auth, params }) => {
    if (params.id !== auth.companyId && !auth.super) throw new AppError('ERR_NO_PERMISSION');
    return companyRow(params.id);
  }),
  'POST /companies': route({ super: true, body: CompanyBody }, async ({ auth, body, clientAddress }) =>
    reply(await createCompany(body, actorOf(auth, clientAddress)), 201),
  ),
  'PUT /companies/{id}': route(
    { super: true, params, body: CompanyUpdateBody },
    async ({ auth, params, body, clientAddress }) => updateCompany(params.id, body, actorOf(auth, clientAddress)),
  ),
  'DELETE /companies/{id}': route({ super: true, params }, async ({ auth, params, clientAddress }) =>
    reply(await deleteCompany(params.id, auth.companyId, actorOf(auth, clientAddress)), 202),
  ),
  'POST /companies/{id}/expire': route({ super: true, params }, async ({ auth, params, clientAddress }) =>
    expireCompany(params.id, actorOf(auth, clientAddress)),
  ),
});
