import { createHash, randomInt } from 'node:crypto';
import { TRIAL_DAYS } from '#shared/constants';
import { addDays } from '#shared/dates';
import type { User } from '#shared/schemas/accounts';
import { AppError } from '../errors';
import { deleteItem, putItem, updateItem } from '../db';
import { nextId, GLOBAL_SCOPE } from '../ids';
import { ttlIn, nowIso } from '../keys';
import { hashPassword, needsRehash, verifyPassword } from '../auth';
import { sendMail } from '../mail';
import { publish } from '../realtime';
import { listSettings } from '../settings';
import { companyPutTx, getCompany, isCompanyExpired, newCompany, type StoredCompany } from './companies';
import { getPlan, planUseTx } from './plans';
import { createUser, findUserByEmail, getUser, userKeys } from './users';
import { issueSession, consumeRefreshToken, mayHoldSession, revokeUserSessions } from './sessions';
import { clear, giveBack, take } from '../rate-limit';
import { LIMITS } from './limits';

/** `known`: the company as the caller just read it (login and refresh check it before a session). */
async function sessionPayload(user: User, known?: StoredCompany) {
  const company = known ?? (await getCompany(user.companyId));
  if (!company) throw new AppError('ERR_NO_PERMISSION');
  const settings = await listSettings(user.companyId);
  const { asaasCustomerId: _customer, pausedAt: _paused, deletingAt: _deleting, ...shown } = company;
  return {
    user: { ...user, company: { id: company.id, name: company.name, dueDate: company.dueDate } },
    /** `restricted`: the due date has passed, the session reaches only invoices and checkout until paid */
    company: { ...shown, settings, restricted: isCompanyExpired(company) },
  };
}

/**
 * Each attempt takes a hit per client address, per address and e-mail, and per e-mail before the
 * password is checked; a success gives them back (and forgets its address's failures on the e-mail).
 * An unknown e-mail costs the same scrypt as a known one.
 */
export async function login(email: string, password: string, address: string) {
  const caller = { address, email };
  const addressHit = await take(LIMITS.loginPerAddress, caller);
  await take(LIMITS.loginPerAddressAndEmail, caller);
  const emailHit = await take(LIMITS.loginPerEmail, caller);
  const stored = await findUserByEmail(email);
  const valid = await verifyPassword(password, stored?.passwordHash);
  if (!stored || !valid) throw new AppError('ERR_INVALID_CREDENTIALS');
  await Promise.all([giveBack(addressHit), clear(LIMITS.loginPerAddressAndEmail, caller), giveBack(emailHit)]);
  if (needsRehash(stored.passwordHash)) {
    await updateItem(userKeys(stored.companyId, stored.id), {
      set: { passwordHash: await hashPassword(password) },
      condition: 'passwordHash = :old',
      conditionValues: { ':old': stored.passwordHash },
    });
  }
  const { passwordHash: _hash, ...user } = stored;
  const company = await getCompany(user.companyId);
  if (!company || !mayHoldSession(company, user)) {
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
  return { ...session, ...(await sessionPayload(user, company)) };
}

export async function refresh(refreshToken: string | undefined) {
  const item = refreshToken ? await consumeRefreshToken(refreshToken) : undefined;
  if (!item) throw new AppError('ERR_SESSION_EXPIRED', 401);
  const user = await getUser(item.companyId, item.userId);
  const company = await getCompany(item.companyId);
  if (!user || !company || !mayHoldSession(company, user)) throw new AppError('ERR_SESSION_EXPIRED', 401);
  const session = await issueSession(user, item.sessionId, item.replaces);
  return { ...session, ...(await sessionPayload(user, company)) };
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
export async function signup(input: SignupInput, address: string) {
  await take(LIMITS.signupPerAddress, { address });
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
    dueDate: addDays(new Date(), TRIAL_DAYS),
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
    { maxUsers: plan.users, extra: [companyPutTx(company), planUseTx(plan.id, 1)] },
  );
  return { company, user };
}

/**
 * Password reset codes: `RESET#<email>` / `RESET`, hashed, single use, 15 minutes. A code has 8
 * characters of a 32-letter alphabet (40 bits); guesses spend the e-mail's attempt budget in
 * `LIMITS.resetGuessPerEmail` before they are compared, and that budget does not start over when a
 * new code is requested. Unknown e-mails get the same answer as known ones.
 */
const RESET_SECONDS = 15 * 60;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;
const resetKeys = (email: string) => ({ pk: `RESET#${email.toLowerCase()}`, sk: 'RESET' });
const hashCode = (email: string, code: string) =>
  createHash('sha256')
    .update(`${email.toLowerCase()}:${code.toUpperCase().replace(/[^A-Z0-9]/g, '')}`)
    .digest('hex');

export async function requestPasswordReset(email: string, address: string) {
  await take(LIMITS.resetRequestPerAddress, { address });
  await take(LIMITS.resetRequestPerEmail, { address, email });
  const user = await findUserByEmail(email);
  if (!user) return;
  const code = Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
  await putItem({ ...resetKeys(email), codeHash: hashCode(email, code), ttl: ttlIn(RESET_SECONDS) });
  await sendMail({
    to: email,
    subject: 'Password reset code',
    text: `Your verification code is ${code}. It expires in 15 minutes.`,
  });
}

export async function resetPassword(email: string, code: string, password: string, address: string) {
  await take(LIMITS.resetGuessPerAddress, { address });
  await take(LIMITS.resetGuessPerEmail, { address, email });
  // Claiming the code is the comparison: one conditional write, so two requests cannot both use it.
  const claimed = await updateItem(resetKeys(email), {
    set: { usedAt: Date.now() },
    condition: 'codeHash = :hash AND attribute_not_exists(usedAt) AND #ttl > :now',
    conditionNames: { '#ttl': 'ttl' },
    conditionValues: { ':hash': hashCode(email, code), ':now': Math.floor(Date.now() / 1000) },
  });
  if (!claimed) throw new AppError('ERR_INVALID_RESET_CODE');
  await deleteItem(resetKeys(email));
  const user = await findUserByEmail(email);
  if (!user) throw new AppError('ERR_INVALID_RESET_CODE');
  await updateItem(userKeys(user.companyId, user.id), {
    set: { passwordHash: await hashPassword(password), updatedAt: nowIso() },
  });
  await revokeUserSessions(user.companyId, user.id);
}
