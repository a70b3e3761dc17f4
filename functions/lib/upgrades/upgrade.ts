import type { Item } from '../db';

/** One data upgrade (run.ts walks the companies and records where it is); each lives in its own module. */
export interface DataUpgrade {
  /** recorded as done under this name: never rename a shipped upgrade */
  name: string;
  /** Upgrades one page of a company's items from `startKey`; answers where the next page starts (none: the company is done). */
  page(
    companyId: number,
    startKey: Item | undefined,
    limit: number,
  ): Promise<{ lastKey?: Item; read: number; written: number }>;
}
