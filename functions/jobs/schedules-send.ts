import '#lib/startup';
import type { SQSEvent } from 'aws-lambda';
import { sendSchedule, type ScheduleJob } from '#lib/schedules/dispatch';
import { log, withLogContext } from '#lib/log';

/** Consumer of the `schedules` queue: sends each claimed schedule; failures are retried alone. */
export const handler = async (event: SQSEvent) => {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    try {
      const job = JSON.parse(record.body) as ScheduleJob;
      await withLogContext({ companyId: job.companyId, scheduleId: job.scheduleId }, () =>
        sendSchedule(job, Number(record.attributes.ApproximateReceiveCount ?? 1)),
      );
    } catch (err) {
      log.error('schedule job failed', { messageId: record.messageId, error: (err as Error).message });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
