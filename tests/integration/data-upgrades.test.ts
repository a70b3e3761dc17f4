import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, api, newCompany, table, useStackFromWorker, type TestCompany, runsAlone } from './helpers';
import { createContact } from './fixtures';

// a data upgrade rewrites every company's items
runsAlone();

/**
 * Data upgrades after a deployment (functions/lib/upgrades/): contacts stored before the duplicate
 * index are given their gsi4/gsi5 entries once, company by company, resumably. "Stored before" is
 * made by removing those entries from contacts the API created. The upgrade runs in this worker on
 * the stack's table (as contact-merge.test.ts runs the merge), watched through the table client:
 * which contacts each run reads and writes, and a write that fails midway (a crash).
 */
let db: typeof import('../../functions/lib/db');
let upgrades: typeof import('../../functions/lib/upgrades/run');
let seed: typeof import('../../functions/jobs/seed').handler;
/** the table client's own send, before any watch */
let send: (command: unknown) => Promise<any>;

beforeAll(async () => {
  await useStackFromWorker();
  [db, upgrades, { handler: seed }] = await Promise.all([
    import('../../functions/lib/db'),
    import('../../functions/lib/upgrades/run'),
    import('../../functions/jobs/seed'),
  ]);
  const client = db.ddb();
  send = client.send.bind(client) as typeof send;
});

afterEach(() => vi.restoreAllMocks());

const NAME = 'contacts-duplicate-index';
const INDEX_FIELDS = ['gsi4pk', 'gsi4sk', 'gsi5pk', 'gsi5sk'];
const contactSk = (id: number) => `CONTACT#${String(id).padStart(10, '0')}`;

/** The contact as an older version stored it: without the duplicate index entries. Answers the item before. */
async function storedBeforeTheIndex(companyId: number, id: number) {
  const before = await table().get(`C#${companyId}`, contactSk(id));
  expect(before?.gsi4pk).toBeDefined();
  await db.updateItem({ pk: `C#${companyId}`, sk: contactSk(id) }, { remove: INDEX_FIELDS });
  return before!;
}

/** The seed as the deployment's trigger runs it: a Lambda with this much time left. */
const seedAfterDeploy = (msLeft: number) =>
  seed({ adminEmail: ADMIN.email, adminPassword: ADMIN.password }, { getRemainingTimeInMillis: () => msLeft });

/** The upgrade as a new deployment brings it: not recorded done. */
const notYetRun = () => db.deleteItem(upgrades.upgradeKeys(NAME));
const record = () => table().get('PLATFORM', `UPGRADE#${NAME}`);

async function duplicatePairs(co: TestCompany) {
  const res = await api('GET', '/contacts/duplicates', { token: co.adminToken });
  expect(res.status).toBe(200);
  expect(res.body.hasMore).toBe(false);
  for (const s of res.body.suggestions) for (const c of s.contacts) expect(c.companyId).toBe(co.companyId);
  return (res.body.suggestions as { contacts: { id: number }[]; reasons: string[] }[])
    .map((s) => `${s.contacts.map((c) => c.id).sort((a, b) => a - b)} ${s.reasons}`)
    .sort();
}

/**
 * Watches this worker's table client: per contact of the given companies, how often a Query read it
 * and an UpdateItem wrote it. With `failOnWrite` n, the n-th such write throws instead (a crash).
 */
function watchContacts(companyIds: number[], failOnWrite?: number) {
  const pks = new Set(companyIds.map((id) => `C#${id}`));
  const isContact = (key: { pk?: string; sk?: string } | undefined) =>
    Boolean(key?.pk && pks.has(key.pk) && key.sk?.startsWith('CONTACT#'));
  const reads = new Map<string, number>();
  const writes = new Map<string, number>();
  const count = (map: Map<string, number>, key: { pk?: string; sk?: string }) =>
    map.set(`${key.pk} ${key.sk}`, (map.get(`${key.pk} ${key.sk}`) ?? 0) + 1);
  let attempts = 0;
  vi.spyOn(db.ddb(), 'send').mockImplementation((async (command: any) => {
    const name = command.constructor.name;
    const write = name === 'UpdateCommand' && isContact(command.input.Key);
    if (write && ++attempts === failOnWrite) throw new Error('injected failure (test)');
    const out = await send(command);
    if (write) count(writes, command.input.Key);
    if (name === 'QueryCommand') for (const item of out.Items ?? []) if (isContact(item)) count(reads, item);
    return out;
  }) as never);
  return { reads, writes };
}

const contactsOf = async (co: TestCompany, n: number) => {
  const out: { id: number }[] = [];
  for (let i = 0; i < n; i++) out.push(await createContact(co.adminToken));
  return out;
};

describe('data upgrades', () => {
  it('the platform seed ran the upgrades when the stack started: recorded done', async () => {
    expect((await record())?.doneAt).toEqual(expect.any(String));
  });

  it("contacts stored before the duplicate index are suggested once the seed upgraded them, never another company's; a second run writes nothing", async () => {
    const a = await newCompany('upga');
    const b = await newCompany('upgb');
    const maria = await createContact(a.adminToken, { name: 'Maria Silva', number: '+55 (11) 98765-4321' });
    const mariaS = await createContact(a.adminToken, { name: 'Maria S.', number: '551187654321' });
    const joao = await createContact(a.adminToken, { name: 'João Souza', number: '5511911112222' });
    const joao2 = await createContact(a.adminToken, { name: 'JOAO  souza', number: '5521933332222' });
    // company B holds the same number and name as A's Maria, and a pair of its own
    const bMaria = await createContact(b.adminToken, { name: 'Maria Silva', number: '5511987654321' });
    const bMaria2 = await createContact(b.adminToken, { name: 'Maria', number: '11 98765-4321' });
    const expectedA = [`${[maria.id, mariaS.id].sort()} number`, `${[joao.id, joao2.id].sort()} name`].sort();
    const expectedB = [`${[bMaria.id, bMaria2.id].sort()} number`];
    expect(await duplicatePairs(a)).toEqual(expectedA);
    expect(await duplicatePairs(b)).toEqual(expectedB);

    const before = [
      ...(await Promise.all([maria, mariaS, joao, joao2].map((c) => storedBeforeTheIndex(a.companyId, c.id)))),
      ...(await Promise.all([bMaria, bMaria2].map((c) => storedBeforeTheIndex(b.companyId, c.id)))),
    ];
    await notYetRun();
    // the suggestions miss every contact stored before the index
    expect(await duplicatePairs(a)).toEqual([]);
    expect(await duplicatePairs(b)).toEqual([]);

    // a seed whose Lambda has no time left (under the margin it keeps) starts nothing and leaves it not done
    expect((await seedAfterDeploy(10_000)).upgrades).toEqual([{ name: NAME, status: 'paused', read: 0, written: 0 }]);
    expect((await record())?.doneAt).toBeUndefined();
    expect(await duplicatePairs(a)).toEqual([]);
    // the next deployment's seed
    const ran = (await seedAfterDeploy(120_000)).upgrades;
    expect(ran).toEqual([expect.objectContaining({ name: NAME, status: 'done' })]);
    expect(ran[0].written).toBeGreaterThanOrEqual(6);
    expect(await duplicatePairs(a)).toEqual(expectedA);
    expect(await duplicatePairs(b)).toEqual(expectedB);
    // only the index entries were written: every contact is again exactly as it was stored (updatedAt too)
    for (const item of before) expect(await table().get(item.pk, item.sk)).toEqual(item);
    expect(await record()).toMatchObject({ doneAt: expect.any(String), written: ran[0].written });
    expect((await record())?.runId).toBeUndefined();

    // recorded done: the next run reads and writes nothing
    const again = watchContacts([a.companyId, b.companyId]);
    expect(await upgrades.runUpgrades({ budgetMs: 60_000 })).toEqual([
      { name: NAME, status: 'done', read: 0, written: 0 },
    ]);
    expect(again.reads.size + again.writes.size).toBe(0);
    // and run anew, it finds every contact upgraded and writes none
    await notYetRun();
    const anew = watchContacts([a.companyId, b.companyId]);
    expect((await upgrades.runUpgrades({ budgetMs: 60_000 }))[0]).toMatchObject({ status: 'done', written: 0 });
    expect(anew.reads.size).toBe(6);
    expect(anew.writes.size).toBe(0);
  });

  it('an upgrade stopped by its time budget continues where it stopped: every contact read once and written once', async () => {
    const a = await newCompany('upgbudget');
    const b = await newCompany('upgbudget2');
    const contacts = [
      ...(await contactsOf(a, 7)).map((c) => ({ companyId: a.companyId, id: c.id })),
      ...(await contactsOf(b, 3)).map((c) => ({ companyId: b.companyId, id: c.id })),
    ];
    for (const c of contacts) await storedBeforeTheIndex(c.companyId, c.id);
    await notYetRun();

    // a clock that moves a second each time it is read: a budget of 5.5 s leaves about four pages a run
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const now = () => (clock += 1000);
    const watched = watchContacts([a.companyId, b.companyId]);
    const statuses: string[] = [];
    // (every company of the stack is walked: a whole suite's take a few hundred runs)
    for (let run = 0; run < 5000 && statuses.at(-1) !== 'done'; run++) {
      const [outcome] = await upgrades.runUpgrades({ budgetMs: 5_500, pageSize: 2, now });
      statuses.push(outcome!.status);
      if (run === 0) {
        // not done: it keeps where it stopped and holds no lease
        const kept = await record();
        expect(kept?.doneAt).toBeUndefined();
        expect(kept?.companyId).toEqual(expect.any(Number));
        expect(kept?.runId).toBeUndefined();
      }
    }
    expect(statuses.at(-1)).toBe('done');
    // these two companies alone take six pages: more than one run
    expect(statuses.filter((s) => s === 'paused').length).toBeGreaterThan(0);
    const keys = contacts.map((c) => `C#${c.companyId} ${contactSk(c.id)}`).sort();
    expect([...watched.reads.keys()].sort()).toEqual(keys);
    expect([...watched.reads.values()].every((n) => n === 1)).toBe(true);
    expect([...watched.writes.keys()].sort()).toEqual(keys);
    expect([...watched.writes.values()].every((n) => n === 1)).toBe(true);
    expect((await record())?.doneAt).toEqual(expect.any(String));
  }, 120_000);

  it('an upgrade that crashes midway resumes from its last saved page: every contact written exactly once, none missed', async () => {
    const a = await newCompany('upgcrash');
    const contacts = await contactsOf(a, 7);
    for (const c of contacts) await storedBeforeTheIndex(a.companyId, c.id);
    await notYetRun();

    // pages of two: the fifth write (the third page) fails
    const first = watchContacts([a.companyId], 5);
    await expect(upgrades.runUpgrades({ budgetMs: 60_000, pageSize: 2 })).rejects.toThrow(/injected/);
    const kept = await record();
    expect(kept?.doneAt).toBeUndefined();
    expect(kept).toMatchObject({
      companyId: a.companyId,
      cursor: { pk: `C#${a.companyId}`, sk: contactSk(contacts[3]!.id) },
    });
    vi.restoreAllMocks();

    const second = watchContacts([a.companyId]);
    expect((await upgrades.runUpgrades({ budgetMs: 60_000, pageSize: 2 }))[0]?.status).toBe('done');
    // it started at the page after the last one saved, not over
    expect([...second.reads.keys()].sort()).toEqual(
      contacts.slice(4).map((c) => `C#${a.companyId} ${contactSk(c.id)}`),
    );
    const writes = new Map(first.writes);
    for (const [key, n] of second.writes) writes.set(key, (writes.get(key) ?? 0) + n);
    expect([...writes.keys()].sort()).toEqual(contacts.map((c) => `C#${a.companyId} ${contactSk(c.id)}`).sort());
    expect([...writes.values()].every((n) => n === 1)).toBe(true);
    for (const c of contacts)
      expect(await table().get(`C#${a.companyId}`, contactSk(c.id))).toMatchObject({
        gsi4pk: `C#${a.companyId}#CDUPP`,
      });
  });

  it('a run killed without a word (a Lambda timeout) holds its lease until it lapses; then the next run takes over', async () => {
    const a = await newCompany('upglease');
    const [c] = await contactsOf(a, 1);
    await storedBeforeTheIndex(a.companyId, c!.id);
    await notYetRun();
    const at = Date.parse('2026-01-01T00:00:00Z');
    await table().set('PLATFORM', `UPGRADE#${NAME}`, { runId: 'killed', leaseUntil: at + 60_000 });

    const watched = watchContacts([a.companyId]);
    const during = await upgrades.runUpgrades({ budgetMs: 60_000, now: () => at + 30_000 });
    expect(during).toEqual([{ name: NAME, status: 'busy', read: 0, written: 0 }]);
    expect(watched.writes.size).toBe(0);
    expect((await record())?.runId).toBe('killed');

    const after = await upgrades.runUpgrades({ budgetMs: 60_000, now: () => at + 61_000 });
    expect(after[0]?.status).toBe('done');
    expect([...watched.writes.values()]).toEqual([1]);
  });
});
