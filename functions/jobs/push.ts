import '#lib/startup';
import type { SQSEvent } from 'aws-lambda';
import { runPushJob } from '#lib/push/dispatch';
import type { PushJob } from '#lib/push/jobs';
import { log, withLogContext } from '#lib/log';

/**
 * Consumer of the `push` queue: each record is a push event (who is told is worked out here) or one
 * device's delivery being retried. A failed record is reported as failed and SQS retries it.
 */
export const handler = async (event: SQSEvent) => {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    try {
      const job = JSON.parse(record.body) as PushJob;
      await withLogContext({ companyId: job.companyId, push: job.kind }, () => runPushJob(job));
    } catch (err) {
      log.error('push job failed', { messageId: record.messageId, error: (err as Error).message });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
