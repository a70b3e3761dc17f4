import { createHash, randomInt } from 'node:crypto';
import { TRIAL_DAYS } from '#shared/constants';
import type { User } from '#shared/schemas/accounts';
import { AppError } from '../errors';
import { deleteItem, getItem, putItem, updateItem } from '../db';
import { nextId, GLOBAL_SCOPE } from '../ids';
import { ttlIn, nowIso } from '../keys';
import { hashPassword, verifyPassword } from '../auth';
import { sendMail } from '../mail';
import { publish } from '../realtime';
import { listSettings } from '../settings';
import { companyPutTx, getCompany, isCompanyActive, newCompany } from './companies';
import { getPlan } from './plans';
import { createUser, findUserByEmail, getUser, userKeys } from './users';
import { issueSession, consumeRefreshToken } from './sessions';
import { assertLoginAllowed, clearLoginFailures, recordLoginFailure } from './login-guard';

async function sessionPayload(user: User) {
  const company = await getCompany(user.companyId);
  if (!company) throw new AppError('ERR_NO_PERMISSION');
  const settings = await listSettings(user.companyId);
  return {
    user: { ...user, company: { id: company.id, name: company.name, dueDate: company.dueDate } },
    company: { ...company, settings },
  };
}

export async function login(email: string, password: string) {
  await assertLoginAllowed(email);
  const stored = await findUserByEmail(email);
  if (!stored || !(await verifyPassword(password, stored.passwordHash))) {
    await recordLoginFailure(email);
    throw new AppError('ERR_INVALID_CREDENTIALS');
  }
  await clearLoginFailures(email);
  const { passwordHash: _hash, ...user } = stored;
  const company = await getCompany(user.companyId);
  if (!company || !isCompanyActive(company)) {
    throw new AppError('ERR_COMPANY_EXPIRED', 401, { dueDate: company?.dueDate ?? null });
  }
  const session = await issueSession(user);
  // The user's other open sessions learn that the account was used elsewhere.
  await publish(
    user.companyId,
    'auth',
    { action: 'update', user: { id: user.id }, sessionId: session.sessionId },
    { kind: 'user', userId: user.id },
  );
  return { ...session, ...(await sessionPayload(user)) };
}

export async function refresh(refreshToken: string | undefined) {
  const item = refreshToken ? await consumeRefreshToken(refreshToken) : undefined;
  if (!item) throw new AppError('ERR_SESSION_EXPIRED', 401);
  const user = await getUser(item.companyId, item.userId);
  const company = await getCompany(item.companyId);
  if (!user || !company || !isCompanyActive(company)) throw new AppError('ERR_SESSION_EXPIRED', 401);
  const session = await issueSession(user, item.sessionId);
  return { ...session, ...(await sessionPayload(user)) };
}

export async function me(companyId: number, userId: number) {
  const user = await getUser(companyId, userId);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  return (await sessionPayload(user)).user;
}

export interface SignupInput {
  companyName: string;
  name: string;
  email: string;
  password: string;
  phone?: string;
  planId: number;
}

/** Public signup: a company on a 3-day trial (recurrence MENSAL) and its admin, in one transaction. */
export async function signup(input: SignupInput) {
  const plan = await getPlan(input.planId);
  if (!plan) throw new AppError('ERR_VALIDATION', 400, [{ path: ['planId'], message: 'invalid' }]);
  const companyId = await nextId(GLOBAL_SCOPE, 'company');
  const company = newCompany({
    id: companyId,
    name: input.companyName,
    email: input.email,
    phone: input.phone ?? null,
    planId: plan.id,
    status: true,
    dueDate: new Date(Date.now() + TRIAL_DAYS * 24 * 3600 * 1000).toISOString(),
    recurrence: 'MENSAL',
    campaignsEnabled: true,
  });
  const user = await createUser(
    {
      companyId,
      name: input.name,
      email: input.email,
      passwordHash: await hashPassword(input.password),
      profile: 'admin',
      allTicket: 'enabled',
    },
    { maxUsers: plan.users, extra: [companyPutTx(company)] },
  );
  return { company, user };
}

/** Password reset codes: `RESET#<email>` / `RESET`, hashed, single use, 15 minutes. */
const RESET_SECONDS = 15 * 60;
const MAX_RESET_ATTEMPTS = 5;
const resetKeys = (email: string) => ({ pk: `RESET#${email.toLowerCase()}`, sk: 'RESET' });
const hashCode = (email: string, code: string) =>
  createHash('sha256').update(`${email.toLowerCase()}:${code}`).digest('hex');

export async function requestPasswordReset(email: string) {
  const user = await findUserByEmail(email);
  if (!user) throw new AppError('ERR_USER_DONT_EXISTS');
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await putItem({ ...resetKeys(email), codeHash: hashCode(email, code), attempts: 0, ttl: ttlIn(RESET_SECONDS) });
  await sendMail({
    to: email,
    subject: 'Password reset code',
    text: `Your verification code is ${code}. It expires in 15 minutes.`,
  });
}

export async function resetPassword(email: string, code: string, password: string) {
  const item = await getItem<{ codeHash: string; attempts: number; ttl: number }>(resetKeys(email));
  if (!item || item.ttl < Date.now() / 1000 || item.attempts >= MAX_RESET_ATTEMPTS)
    throw new AppError('ERR_INVALID_RESET_CODE');
  if (item.codeHash !== hashCode(email, code)) {
    await updateItem(resetKeys(email), { add: { attempts: 1 } });
    throw new AppError('ERR_INVALID_RESET_CODE');
  }
  // Single use: the code is deleted before the password changes.
  await deleteItem(resetKeys(email));
  const user = await findUserByEmail(email);
  if (!user) throw new AppError('ERR_USER_DONT_EXISTS');
  await updateItem(userKeys(user.companyId, user.id), {
    set: { passwordHash: await hashPassword(password), updatedAt: nowIso() },
  });
}
