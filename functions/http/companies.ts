import { z } from 'zod';
import { httpModule, route, reply } from '#lib/http';
import { SignupBody } from '#shared/schemas/accounts';
import { idParam } from '#shared/schemas/common';
import { listPlans } from '#lib/accounts/plans';
import { companyPlan } from '#lib/accounts/companies';
import { signup } from '#lib/accounts/service';
import { AppError } from '#lib/errors';

export const handler = httpModule({
  'GET /plans/list': route({ public: true }, async () => listPlans()),

  'POST /companies/cadastro': route({ public: true, body: SignupBody }, async ({ body, clientAddress }) => {
    const { company, user } = await signup(body, clientAddress);
    return reply({ company, user: { id: user.id, name: user.name, email: user.email } }, 201);
  }),

  'GET /companies/listPlan/{companyId}': route(
    { params: z.object({ companyId: idParam }) },
    async ({ auth, params }) => {
      // Another company's plan is none of the caller's business unless they run the platform.
      if (params.companyId !== auth.companyId && !auth.super) throw new AppError('ERR_NOT_FOUND');
      const plan = await companyPlan(params.companyId);
      if (!plan) throw new AppError('ERR_NOT_FOUND');
      return { plan };
    },
  ),
});
