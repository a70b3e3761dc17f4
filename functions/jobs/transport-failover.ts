import '#lib/startup';
import type { SQSEvent, SQSBatchResponse } from 'aws-lambda';
import { failOver, type SendCommand } from '#lib/messages/failover';
import { log, withLogContext } from '#lib/log';

/**
 * Consumer of the `transport-failover` queue (standard, each record delayed FAILOVER_AFTER_SECONDS):
 * sends routed to WhatsApp Web that no runner took move to the connection's Cloud API transport
 * (messages/failover.ts). A record that fails is retried by SQS; the claim makes a retry harmless.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const command = JSON.parse(record.body) as SendCommand;
    try {
      await withLogContext({ companyId: command.companyId, whatsappId: command.whatsappId }, () => failOver(command));
    } catch (err) {
      log.error('send failover failed', { messageId: command.messageId, error: (err as Error).message });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
