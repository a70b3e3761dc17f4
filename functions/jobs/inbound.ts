import type { SQSEvent } from 'aws-lambda';
import type { InboundEvent } from '#shared/whatsapp-protocol';
import { handleInbound } from '#lib/inbound/handle';
import { log, withLogContext } from '#lib/log';

/**
 * Consumer of the `inbound` FIFO queue (provider events from the session runner). A failed record
 * is reported alone, so SQS retries it (and holds the rest of its group back) without redoing others.
 */
export const handler = async (event: SQSEvent) => {
  const batchItemFailures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
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
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
