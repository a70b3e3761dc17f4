import type { SQSEvent, SQSBatchResponse } from 'aws-lambda';
import { log } from './log';

/**
 * Runs a FIFO queue's batch in order, a record at a time. After a record fails, the later records
 * of its message group are not run and are reported as failed with it, so SQS retries them in
 * order and a retried record never lands after its successors; other groups in the batch go on.
 */
export async function eachInGroupOrder(
  event: SQSEvent,
  failure: string,
  work: (body: string) => Promise<void>,
): Promise<SQSBatchResponse> {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  const failedGroups = new Set<string>();
  for (const record of event.Records) {
    const group = record.attributes.MessageGroupId ?? '';
    if (failedGroups.has(group)) {
      batchItemFailures.push({ itemIdentifier: record.messageId });
      continue;
    }
    try {
      await work(record.body);
    } catch (err) {
      log.error(failure, { messageId: record.messageId, error: (err as Error).message, stack: (err as Error).stack });
      failedGroups.add(group);
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}
