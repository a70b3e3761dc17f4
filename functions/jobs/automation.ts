import '#lib/startup';
import type { SQSEvent } from 'aws-lambda';
import { handleAutomationEvent } from '#lib/automation/engine';
import type { AutomationJob } from '#lib/automation/emit';
import { log, withLogContext } from '#lib/log';

/**
 * Consumer of the `automation` queue: each record is one event of a ticket (automation/emit.ts),
 * evaluated against the company's active rules (automation/engine.ts). A failed record is retried by SQS.
 */
export const handler = async (event: SQSEvent) => {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    try {
      const job = JSON.parse(record.body) as AutomationJob;
      await withLogContext({ companyId: job.companyId, automation: job.event.type }, () =>
        handleAutomationEvent(job.companyId, job.event, job.chain),
      );
    } catch (err) {
      log.error('automation job failed', { messageId: record.messageId, error: (err as Error).message });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
