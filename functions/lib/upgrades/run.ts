import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { getItem, updateItem, type Item, type UpdateSpec } from '../db';
import { log } from '../log';
import { companiesIndexKey, queryCompanies } from '../accounts/companies';
import { contactsDuplicateIndex } from './contacts-duplicate-index';
import type { DataUpgrade } from './upgrade';

/**
 * Data upgrades: changes a new version makes to data an older one wrote (an index entry it did not
 * write), run by themselves by the seed after each deployment and at every local start. Each walks
 * every company (the companies index, by id) and pages through that company's items by Query, never
 * a Scan. Its record `PLATFORM` / `UPGRADE#<name>` keeps where it is (the company and the page cursor
 * within it) after every page, so a run that runs out of time, times out or crashes is continued
 * from its last page by the next one; once it reaches the end it is marked done and never runs
 * again. A run holds a lease on the record, so two runs never walk at once.
 */

/** In order: a later upgrade may count on an earlier one. Append only. */
export const UPGRADES: DataUpgrade[] = [contactsDuplicateIndex];

export const upgradeKeys = (name: string) => ({ pk: 'PLATFORM', sk: `UPGRADE#${name}` });

export interface UpgradeRun {
  /** no page is started after this many ms */
  budgetMs: number;
  /** items one page reads */
  pageSize?: number;
  now?: () => number;
}

export interface UpgradeOutcome {
  name: string;
  /** done: recorded done (now or before); paused: the budget ran out; busy: another run holds it */
  status: 'done' | 'paused' | 'busy';
  read: number;
  written: number;
}

interface UpgradeRecord {
  doneAt?: string;
  /** the company being upgraded, or the last one finished when there is no cursor */
  companyId?: number;
  /** where the next page of `companyId` starts */
  cursor?: Item;
  runId?: string;
  leaseUntil?: number;
}

const PAGE_SIZE = 100;
/** A crashed run's lease lapses this long after its budget. */
const LEASE_SLACK_MS = 60_000;
/** A Lambda stops this long before its timeout: the last page and the record's writes. */
const LAMBDA_MARGIN_MS = 15_000;
/** Without a Lambda's clock (the local stack's start). */
const LOCAL_BUDGET_MS = 60_000;

/** The time a run may take: what the Lambda has left, less a margin. */
export const budgetFor = (context?: Pick<Context, 'getRemainingTimeInMillis'>) =>
  context ? Math.max(0, context.getRemainingTimeInMillis() - LAMBDA_MARGIN_MS) : LOCAL_BUDGET_MS;

/** Runs the upgrades not yet done, in order, until one is not finished within the budget. */
export async function runUpgrades(run: UpgradeRun, upgrades = UPGRADES): Promise<UpgradeOutcome[]> {
  const now = run.now ?? Date.now;
  const deadline = now() + run.budgetMs;
  const outcomes: UpgradeOutcome[] = [];
  for (const upgrade of upgrades) {
    const outcome = await runUpgrade(upgrade, { ...run, now }, deadline);
    outcomes.push(outcome);
    if (outcome.read || outcome.written || outcome.status !== 'done') log.info('data upgrade', { ...outcome });
    if (outcome.status !== 'done') break;
  }
  return outcomes;
}

async function runUpgrade(
  upgrade: DataUpgrade,
  run: UpgradeRun & { now: () => number },
  deadline: number,
): Promise<UpgradeOutcome> {
  const key = upgradeKeys(upgrade.name);
  const outcome: UpgradeOutcome = { name: upgrade.name, status: 'done', read: 0, written: 0 };
  if ((await getItem<UpgradeRecord>(key))?.doneAt) return outcome;
  const runId = randomUUID();
  const record = await updateItem<UpgradeRecord>(key, {
    set: { runId, leaseUntil: deadline + LEASE_SLACK_MS },
    setIfAbsent: { startedAt: new Date(run.now()).toISOString() },
    condition: 'attribute_not_exists(doneAt) AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now)',
    conditionValues: { ':now': run.now() },
  });
  if (!record) return { ...outcome, status: 'busy' };
  /** A write of this run's progress; it fails once another run took the record over (our lease lapsed). */
  const save = async (spec: Omit<UpdateSpec, 'condition' | 'conditionValues'>) => {
    const saved = await updateItem(key, { ...spec, condition: 'runId = :runId', conditionValues: { ':runId': runId } });
    if (!saved) throw new Error(`data upgrade ${upgrade.name}: another run took it over`);
  };

  /** Pages through one company from `startKey`; false when the budget ran out first. */
  const upgradeCompany = async (companyId: number, startKey: Item | undefined) => {
    let cursor = startKey;
    do {
      if (run.now() >= deadline) return false;
      const page = await upgrade.page(companyId, cursor, run.pageSize ?? PAGE_SIZE);
      outcome.read += page.read;
      outcome.written += page.written;
      cursor = page.lastKey;
      await save({
        set: { companyId, cursor },
        remove: cursor ? [] : ['cursor'],
        add: { read: page.read, written: page.written },
      });
    } while (cursor);
    return true;
  };

  /** The companies from where the record stands; false when the budget ran out first. */
  const walk = async () => {
    if (record.companyId !== undefined && record.cursor && !(await upgradeCompany(record.companyId, record.cursor)))
      return false;
    let startKey: Item | undefined = record.companyId === undefined ? undefined : companiesIndexKey(record.companyId);
    do {
      const page = await queryCompanies({ limit: 100, startKey });
      // a deleted company's items are on their way out
      for (const company of page.companies)
        if (!company.deletingAt && !(await upgradeCompany(company.id, undefined))) return false;
      startKey = page.lastKey;
    } while (startKey);
    return true;
  };

  let finished = false;
  try {
    if (!(await walk())) return { ...outcome, status: 'paused' };
    await save({ set: { doneAt: new Date(run.now()).toISOString() }, remove: ['runId', 'leaseUntil', 'companyId'] });
    finished = true;
    return outcome;
  } finally {
    // stopped or failed: the lease is handed back so the next run continues at once (if this write
    // fails too, the lease lapses by itself)
    if (!finished) await save({ remove: ['runId', 'leaseUntil'] }).catch(() => undefined);
  }
}
