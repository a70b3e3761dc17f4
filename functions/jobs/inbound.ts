import '#lib/startup';
import type { SQSEvent } from 'aws-lambda';
import type { InboundEvent } from '#shared/whatsapp-protocol';
import { handleInbound } from '#lib/inbound/handle';
import { log, withLogContext } from '#lib/log';

/**
 * Consumer of the `inbound` FIFO queue (provider events from the session runner). After a record
 * fails, the later records of its message group (one chat) are not processed and are reported as
 * failed with it, so SQS retries them in order and a retried message never lands after its
 * successors; other groups in the batch go on.
 */
export const handler = async (event: SQSEvent) => {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  const failedGroups = new Set<string>();
  for (const record of event.Records) {
    const group = record.attributes.MessageGroupId ?? '';
    if (failedGroups.has(group)) {
      batchItemFailures.push({ itemIdentifier: record.messageId });
      continue;
    }
    try {
      const inbound = JSON.parse(record.body) as InboundEvent;
      await withLogContext(
        { companyId: inbound.companyId, whatsappId: inbound.whatsappId, inbound: inbound.type },
        () => handleInbound(inbound),
      );
    } catch (err) {
      log.error('inbound event failed', {
        messageId: record.messageId,
        error: (err as Error).message,
        stack: (err as Error).stack,
      });
      failedGroups.add(group);
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
