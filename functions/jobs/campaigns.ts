import '#lib/startup';
import type { SQSEvent } from 'aws-lambda';
import type { CampaignJob } from '#lib/campaigns/jobs';
import { planPage } from '#lib/campaigns/planner';
import { redeliverStep, sendStep } from '#lib/campaigns/sender';
import { checkItems } from '#lib/contact-lists/checks';
import { log, withLogContext } from '#lib/log';

/** Consumer of the `campaigns` queue: planning pages, paced send steps, list number checks; failures retried alone. */
export const handler = async (event: SQSEvent) => {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    try {
      const job = JSON.parse(record.body) as CampaignJob;
      await withLogContext({ companyId: job.companyId, job: job.kind }, async () => {
        if (job.kind === 'plan') await planPage(job);
        else if (job.kind === 'send') await sendStep(job);
        else if (job.kind === 'redeliver') await redeliverStep(job);
        else await checkItems(job);
      });
    } catch (err) {
      log.error('campaign job failed', { messageId: record.messageId, error: (err as Error).message });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
