import { randomUUID } from 'node:crypto';
import { cloudWindowLeftMs } from '#shared/cloud-window';
import { FAILOVER_AFTER_SECONDS, isDualTransport, transportUp } from '#shared/transports';
import {
  ACK,
  CLOUD_COMMAND_QUEUE,
  COMMAND_QUEUE,
  TRANSPORT_FAILOVER_QUEUE,
  commandGroupId,
  type SessionCommand,
} from '#shared/whatsapp-protocol';
import { log } from '../log';
import { enqueue } from '../queue';
import { getWhatsapp } from '../whatsapp/repo';
import { requireStoredTicket, toTicket } from '../tickets/repo';
import { getMessageById } from './repo';
import { claimForCloud, releaseCloudClaim } from './sent-claim';
import { patchFound } from './store';

export type SendCommand = Extract<SessionCommand, { type: 'send' }>;

/**
 * The failover of a send between the two transports of one number (shared/transports.ts): a send
 * routed to WhatsApp Web goes out with `fallback`, and a copy of its command waits
 * FAILOVER_AFTER_SECONDS on the `transport-failover` queue. Then, if no runner has claimed it (the
 * runner died, the session dropped, nobody noticed yet), the Cloud API transport claims it (the same
 * claim item the runner uses, sent-claim.ts) and sends it; a runner that gets the command later
 * finds it claimed and leaves it. A send the runner claimed first is the runner's, even when its
 * outcome is unknown: it is never sent twice (the undelivered watchdog shows one that never arrived).
 */
export async function armFailover(command: SendCommand) {
  try {
    await enqueue(TRANSPORT_FAILOVER_QUEUE, command, { delaySeconds: FAILOVER_AFTER_SECONDS });
  } catch (err) {
    // the send itself is queued: without its check it stays with WhatsApp Web, as on a Web-only connection
    log.error('send failover not armed', { messageId: command.messageId, error: (err as Error).message });
  }
}

/**
 * The other way: Meta refused a send of a number with both transports (or its Cloud API transport is
 * down), so nothing went out there; while WhatsApp Web is up, the send goes through it instead,
 * marked `failedOver`. A template stays refused (only Meta sends templates).
 */
export async function moveToWeb(command: SendCommand): Promise<boolean> {
  const { companyId, whatsappId, messageId } = command;
  const connection = await getWhatsapp(companyId, whatsappId);
  if (command.template || !isDualTransport(connection) || !transportUp(connection!, 'web')) return false;
  const found = await getMessageById(companyId, messageId);
  if (!found || found.isDeleted || found.ack >= ACK.sent) return false;
  if (!(await releaseCloudClaim(companyId, command.wid))) return false;
  await patchFound(companyId, undefined, found, { transport: 'web', failedOver: true });
  const { fallback: _none, ...plain } = command;
  await enqueue(
    COMMAND_QUEUE,
    { ...plain, commandId: randomUUID() },
    {
      groupId: commandGroupId(companyId, whatsappId),
      dedupId: `${command.commandId}:back-to-web`,
    },
  );
  log.info('send moved to the WhatsApp Web transport', { companyId, whatsappId, messageId });
  return true;
}

export type FailoverOutcome = 'done' | 'claimedByRunner' | 'movedToCloud' | 'backToWeb';

/**
 * One due check. Moves the send to the Cloud API when the message is still unsent, unclaimed, and
 * the Cloud API transport is up and may carry it (inside the customer's window, or a template).
 * When it may not, the send goes back to WhatsApp Web without `fallback`: the runner that left it
 * keeps it until the session is back, as on a Web-only connection (nothing is dropped).
 */
export async function failOver(command: SendCommand, now = Date.now()): Promise<FailoverOutcome> {
  const { companyId, whatsappId, messageId } = command;
  const found = await getMessageById(companyId, messageId);
  if (!found || found.isDeleted || found.ack >= ACK.sent || found.error || found.transport !== 'web') return 'done';
  const [connection, stored] = await Promise.all([
    getWhatsapp(companyId, whatsappId),
    requireStoredTicket(companyId, found.ticketId),
  ]);
  const ticket = toTicket(stored);
  const movable =
    isDualTransport(connection) &&
    transportUp(connection!, 'cloud') &&
    (Boolean(command.template) || cloudWindowLeftMs(ticket.customerMessageAt, now) > 0);
  if (!movable) {
    const { fallback: _left, ...plain } = command;
    await enqueue(
      COMMAND_QUEUE,
      { ...plain, commandId: randomUUID() },
      {
        groupId: commandGroupId(companyId, whatsappId),
        dedupId: `${command.commandId}:web`,
      },
    );
    return 'backToWeb';
  }
  if (!(await claimForCloud(companyId, command.wid))) return 'claimedByRunner';
  await patchFound(companyId, ticket, found, { transport: 'cloud', failedOver: true });
  await enqueue(
    CLOUD_COMMAND_QUEUE,
    { ...command, commandId: randomUUID() },
    {
      groupId: commandGroupId(companyId, whatsappId),
      dedupId: `${command.commandId}:cloud`,
    },
  );
  log.info('send moved to the Cloud API transport', { companyId, whatsappId, messageId });
  return 'movedToCloud';
}
