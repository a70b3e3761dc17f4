import '#lib/startup';
import type { SQSEvent } from 'aws-lambda';
import type { InboundEvent } from '#shared/whatsapp-protocol';
import { handleInbound } from '#lib/inbound/handle';
import { withLogContext } from '#lib/log';
import { eachInGroupOrder } from '#lib/fifo-batch';

/**
 * Consumer of the `inbound` FIFO queue (provider events from the session runner and the Cloud API
 * webhook), in each chat's order (eachInGroupOrder: a failed record holds back its chat's later ones).
 */
export const handler = (event: SQSEvent) =>
  eachInGroupOrder(event, 'inbound event failed', async (body) => {
    const inbound = JSON.parse(body) as InboundEvent;
    await withLogContext({ companyId: inbound.companyId, whatsappId: inbound.whatsappId, inbound: inbound.type }, () =>
      handleInbound(inbound),
    );
  });
