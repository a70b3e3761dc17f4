import { getItem, putItem } from '../db';
import { hashPassword } from '../auth';
import { log } from '../log';
import { companyPutTx, newCompany } from './companies';
import { planKeys, planNameKeys } from './plans';
import { createUser, findUserByEmail } from './users';
import { updateItem } from '../db';

export interface SeedOptions {
  adminEmail: string;
  adminPassword: string;
}

/**
 * First start: the platform company (id 1) with a super admin and a default plan. Idempotent:
 * a second run finds them and changes nothing.
 */
export async function seedPlatform({ adminEmail, adminPassword }: SeedOptions) {
  if (!(await getItem(planKeys(1)))) {
    await putItem({
      ...planKeys(1),
      id: 1,
      name: 'Plano 1',
      users: 10,
      connections: 10,
      queues: 10,
      value: 30,
      useCampaigns: true,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
      useSchedules: true,
      useInternalChat: true,
      useExternalApi: true,
      useAutomation: true,
      // the platform company below uses it
      companiesCount: 1,
    });
    await putItem({ ...planNameKeys('Plano 1'), planId: 1 });
    // Counters continue after the seeded ids.
    await updateItem({ pk: 'GLOBAL', sk: 'COUNTER#plan' }, { set: { value: 1 } });
  }
  if (await findUserByEmail(adminEmail)) return { created: false };
  const company = newCompany({
    id: 1,
    name: 'Empresa 1',
    email: adminEmail,
    phone: null,
    planId: 1,
    status: true,
    dueDate: '2099-12-31T00:00:00.000Z',
    recurrence: 'MENSAL',
    campaignsEnabled: true,
  });
  const existingCompany = await getItem({ pk: 'C#1', sk: 'COMPANY' });
  await createUser(
    {
      companyId: 1,
      name: 'Admin',
      email: adminEmail,
      passwordHash: await hashPassword(adminPassword),
      profile: 'admin',
      super: true,
      allTicket: 'enabled',
    },
    { extra: existingCompany ? [] : [companyPutTx(company)] },
  );
  const counter = await getItem<{ value: number }>({ pk: 'GLOBAL', sk: 'COUNTER#company' });
  if (!counter || counter.value < 1) await updateItem({ pk: 'GLOBAL', sk: 'COUNTER#company' }, { set: { value: 1 } });
  log.info('seeded platform company', { companyId: 1, adminEmail });
  return { created: true };
}
