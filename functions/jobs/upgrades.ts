import type { Context } from 'aws-lambda';
import { budgetFor, runUpgrades } from '#lib/upgrades/run';

/**
 * Timer `upgrades` (platform-wide): continues a data upgrade the seed could not finish within its
 * run (lib/upgrades/run.ts). Once every upgrade is done, a tick is one read of each record.
 */
export const handler = async (_event: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>) =>
  runUpgrades({ budgetMs: budgetFor(context) });
