import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { newCompany, useStackFromWorker } from './helpers';
import { TEST_PASSWORD_HASH_COST } from './stack-options';

/** Every scrypt the login service runs, with its cost. */
const scrypts: number[] = [];
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
  const scrypt = (...args: Parameters<typeof crypto.scrypt>) => {
    const options = args[3];
    scrypts.push(typeof options === 'object' && options?.N ? options.N : 0);
    return (crypto.scrypt as (...a: unknown[]) => void)(...args);
  };
  return { ...crypto, default: { ...crypto, scrypt }, scrypt };
});

let loginService: typeof import('../../functions/lib/accounts/service').login;

beforeAll(async () => {
  await useStackFromWorker();
  process.env.PASSWORD_HASH_COST = String(TEST_PASSWORD_HASH_COST);
  ({ login: loginService } = await import('../../functions/lib/accounts/service'));
});

/** The scrypt costs one refused login ran (in this process, against the stack's table). */
async function refusedLoginCost(email: string) {
  scrypts.length = 0;
  await expect(
    loginService(email, 'wrong-password', `203.0.113.${Math.floor(Math.random() * 250) + 1}`),
  ).rejects.toMatchObject({
    code: 'ERR_INVALID_CREDENTIALS',
  });
  return [...scrypts];
}

describe('login work does not tell known e-mails from unknown ones', () => {
  it('an unknown e-mail runs the same scrypt, at the same cost, as a known one with a wrong password', async () => {
    const co = await newCompany('timing');
    await refusedLoginCost(`warm-${randomUUID().slice(0, 8)}@test.dev`); // the dummy hash is made once
    const known = await refusedLoginCost(co.admin.email);
    const unknown = await refusedLoginCost(`ghost-${randomUUID().slice(0, 8)}@test.dev`);
    expect(known).toEqual([2 ** TEST_PASSWORD_HASH_COST]);
    expect(unknown).toEqual(known);
  });
});
