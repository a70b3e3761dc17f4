import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, newCompany, useStackFromWorker } from './helpers';
import { createUser } from './fixtures';

/**
 * The roster kept per instance (accounts/users.ts): the users' names and sockets are read again only
 * when the company's roster version moved, or when a kept roster is older than ROSTER_MAX_AGE_MS.
 * Called in-process on the stack's data, so the test can write behind the kept roster's back.
 */
let users: typeof import('../../functions/lib/accounts/users');
let db: typeof import('../../functions/lib/db');
let metrics: typeof import('../../functions/lib/metrics').metrics;

beforeAll(async () => {
  await useStackFromWorker();
  users = await import('../../functions/lib/accounts/users');
  db = await import('../../functions/lib/db');
  metrics = (await import('../../functions/lib/metrics')).metrics;
});
afterEach(() => vi.useRealTimers());

const version = async (companyId: number) => users.rosterVersionOf(await db.getItem(users.rosterKeys(companyId)));

describe('the roster kept per instance', () => {
  it('is read once per version; a write that moves the version is seen at once, one that does not only after ROSTER_MAX_AGE_MS', async () => {
    const co = await newCompany('roster-kept');
    const v = await version(co.companyId);
    const first = await metrics.measure(() => users.userNamesWithPresence(co.companyId, v));
    expect(first.result).toEqual([{ id: co.admin.id, name: 'Owner', online: false }]);
    expect(first.usage.byCommand).toEqual({ QueryCommand: 1 });
    const again = await metrics.measure(() => users.userNamesWithPresence(co.companyId, v));
    expect(again.result).toEqual(first.result);
    expect(again.usage.calls).toBe(0);

    // a write behind the roster's back (no version moved): the kept names serve until they are too old
    await db.updateItem(users.userKeys(co.companyId, co.admin.id), { set: { name: 'Escrito por fora' } });
    expect((await users.userNamesWithPresence(co.companyId, v))[0]!.name).toBe('Owner');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + users.ROSTER_MAX_AGE_MS + 1);
    expect((await users.userNamesWithPresence(co.companyId, v))[0]!.name).toBe('Escrito por fora');
    vi.useRealTimers();

    // the API's writes move the version: a user created, renamed, then deleted
    const agent = await createUser(co, { name: 'Atendente Um' });
    const afterCreate = await version(co.companyId);
    expect(afterCreate).toBeGreaterThan(v);
    expect((await users.userNamesWithPresence(co.companyId, afterCreate)).map((u) => u.name)).toEqual([
      'Escrito por fora',
      'Atendente Um',
    ]);
    expect(
      (await api('PUT', `/users/${agent.id}`, { token: co.adminToken, body: { name: 'Atendente Dois' } })).status,
    ).toBe(200);
    const afterRename = await version(co.companyId);
    expect(afterRename).toBeGreaterThan(afterCreate);
    expect((await users.userNamesWithPresence(co.companyId, afterRename))[1]!.name).toBe('Atendente Dois');
    // a change that is not the name leaves the version, and so the kept roster, as they were
    await api('PUT', `/users/${agent.id}`, { token: co.adminToken, body: { profile: 'admin' } });
    expect(await version(co.companyId)).toBe(afterRename);
    expect((await api('DELETE', `/users/${agent.id}`, { token: co.adminToken })).status).toBe(200);
    const afterDelete = await version(co.companyId);
    expect(afterDelete).toBeGreaterThan(afterRename);
    expect((await users.userNamesWithPresence(co.companyId, afterDelete)).map((u) => u.id)).toEqual([co.admin.id]);
  });

  it('a version read behind the kept one (an eventually consistent read) keeps the newer roster; without a version nothing is kept', async () => {
    const co = await newCompany('roster-behind');
    await createUser(co, { name: 'Atendente Tres' });
    const v = await version(co.companyId);
    expect(v).toBeGreaterThan(0);
    await users.userNamesWithPresence(co.companyId, v);
    const behind = await metrics.measure(() => users.userNamesWithPresence(co.companyId, v - 1));
    expect(behind.usage.calls).toBe(0);
    expect(behind.result.map((u) => u.name)).toEqual(['Owner', 'Atendente Tres']);
    const unversioned = await metrics.measure(() => users.userNamesWithPresence(co.companyId));
    expect(unversioned.usage.byCommand).toEqual({ QueryCommand: 1 });
  });
});
