import '#lib/startup';
import type { SQSEvent } from 'aws-lambda';
import type { SessionCommand } from '#shared/whatsapp-protocol';
import { sendViaCloud } from '#lib/whatsapp-cloud/send';
import { log, withLogContext } from '#lib/log';

/**
 * Consumer of the `cloud-commands` FIFO queue: sends of Cloud API connections through the Graph
 * API. A record that fails is reported (its group's later records with it) and retried by SQS;
 * the claim on the message keeps a retry from sending twice.
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
      const command = JSON.parse(record.body) as SessionCommand;
      if (command.type !== 'send') {
        log.warn('cloud command ignored', { type: command.type });
        continue;
      }
      await withLogContext({ companyId: command.companyId, whatsappId: command.whatsappId }, () =>
        sendViaCloud(command),
      );
    } catch (err) {
      log.error('cloud send failed', { messageId: record.messageId, error: (err as Error).message });
      failedGroups.add(group);
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
};
