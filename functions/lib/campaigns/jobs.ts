import { config } from '../config';
import { enqueue } from '../queue';

/**
 * Jobs of the `campaigns` queue (SQS, standard): planning pages, paced send steps, and number checks
 * of contact list items. SQS delays at most 15 minutes: a longer wait carries `notBefore` and is
 * re-enqueued until it is due.
 */
export const CAMPAIGN_QUEUE = 'campaigns';
export const MAX_DELAY_SECONDS = 900;

export type CampaignJob =
  | { kind: 'plan'; companyId: number; campaignId: number; page: number; startKey?: Record<string, unknown> }
  | { kind: 'send'; companyId: number; campaignId: number; step: number; notBefore?: number }
  /** one contact's send again: Meta refused the one it had taken for its rate limits (sender.ts) */
  | { kind: 'redeliver'; companyId: number; campaignId: number; number: string; notBefore?: number }
  | {
      kind: 'checkItems';
      companyId: number;
      contactListId: number;
      itemIds: number[];
      /** instead of itemIds: every item of the list still unchecked, a page per job from startKey */
      unchecked?: boolean;
      startKey?: Record<string, unknown>;
      /** checks wait until then (the connection's check budget or a restriction stopped them) */
      notBefore?: number;
    };

/** Enqueues a job to run `delayMs` from now (chained through `notBefore` past SQS's 15 minutes). */
export async function enqueueCampaignJob(job: CampaignJob, delayMs = 0) {
  const body =
    delayMs > MAX_DELAY_SECONDS * 1000 && job.kind !== 'plan' ? { ...job, notBefore: Date.now() + delayMs } : job;
  const seconds = Math.min(MAX_DELAY_SECONDS, Math.max(0, delayMs) / 1000);
  // whole seconds on SQS; the local queue honours fractions (tests shrink a pacing second to a few ms)
  const local = Boolean(config().sqsEndpoint);
  await enqueue(CAMPAIGN_QUEUE, body, { delaySeconds: local ? seconds : Math.ceil(seconds) });
}
