import '#lib/startup';
import type { SQSEvent } from 'aws-lambda';
import type { SessionCommand } from '#shared/whatsapp-protocol';
import { reactViaCloud, sendViaCloud } from '#lib/whatsapp-cloud/send';
import { log, withLogContext } from '#lib/log';
import { eachInGroupOrder } from '#lib/fifo-batch';

/**
 * Consumer of the `cloud-commands` FIFO queue: sends of Cloud API connections through the Graph
 * API. A record that fails is reported (its group's later records with it) and retried by SQS;
 * the claim on the message keeps a retry from sending twice.
 */
export const handler = (event: SQSEvent) =>
  eachInGroupOrder(event, 'cloud send failed', async (body) => {
    const command = JSON.parse(body) as SessionCommand;
    const context = { companyId: command.companyId, whatsappId: command.whatsappId };
    if (command.type === 'react') return withLogContext(context, () => reactViaCloud(command));
    if (command.type !== 'send') return log.warn('cloud command ignored', { type: command.type });
    await withLogContext(context, () => sendViaCloud(command));
  });
