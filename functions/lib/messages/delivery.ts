import { randomUUID } from 'node:crypto';
import type { Message, UndeliveredCount } from '#shared/schemas/messages';
import type { Ticket } from '#shared/schemas/tickets';
import { REPAIR_AFTER_UNDELIVERED } from '#shared/constants';
import { ACK, COMMAND_QUEUE, commandGroupId, type ProviderError, type SessionCommand } from '#shared/whatsapp-protocol';
import { log } from '../log';
import { enqueue } from '../queue';
import { contactJid, requireContact } from '../contacts/repo';
import { requireStoredTicket, toTicket, type StoredTicket } from '../tickets/repo';
import { mutateTicket } from '../tickets/mutate';
import { publishTicketChange } from '../tickets/events';
import { getMessageById, getMessageByWid, widGuardKeys, type StoredMessage } from './repo';
import { deleteItem, putItem } from '../db';
import { isCloudProvider } from '#shared/constants';
import { getWhatsapp } from '../whatsapp/repo';
import { patchFound, stripKey } from './store';

/**
 * The runner's outcome of a send: the ack it reached, or the error. It may come after acks of the
 * same message (they travel in the chat's FIFO group, which may be the other id form's), so it
 * only ever raises the ack. Returns the message as it stands, or undefined when it is unknown.
 */
export async function applySendResult(
  companyId: number,
  result: { messageId: string; ack: number; wid?: string; error?: string; providerError?: ProviderError },
): Promise<Message | undefined> {
  let found = await getMessageById(companyId, result.messageId);
  if (!found) return undefined;
  if (result.wid && result.wid !== found.wid) found = await adoptWid(companyId, found, result.wid);
  if (result.error) return (await markSendFailed(companyId, found, result.providerError)) ?? stripKey(found);
  return (await raiseAck(companyId, found, result.ack)) ?? stripKey(found);
}

/**
 * Makes a provider's id of a stored message find it (acks, statuses): a guard like the one the
 * message was stored with. The Cloud API sender writes it as soon as Meta answers, so a status that
 * outruns the send's result still finds the message.
 */
export async function linkWid(companyId: number, found: StoredMessage, wid: string) {
  await putItem({
    ...widGuardKeys(companyId, wid),
    msgPk: found.key.pk,
    msgSk: found.key.sk,
    messageId: found.id,
    ticketId: found.ticketId,
  });
}

/**
 * A provider that names the message itself (the Cloud API's wamid, known only from its answer): the
 * message takes that id, with a guard for it, so the provider's statuses find it; the guard of the
 * id we chose goes (nothing of that provider ever names it). Idempotent: a redelivered result finds
 * the message by its id and writes the same values.
 */
async function adoptWid(companyId: number, found: StoredMessage, wid: string): Promise<StoredMessage> {
  await linkWid(companyId, found, wid);
  const updated = await patchFound(
    companyId,
    undefined,
    found,
    { wid },
    found.wid ? { expr: 'wid = :old', values: { ':old': found.wid } } : undefined,
  );
  if (updated && found.wid) await deleteItem(widGuardKeys(companyId, found.wid));
  return { ...(updated ?? found), wid, key: found.key };
}

/**
 * An ack from WhatsApp, found by the message's WhatsApp id whichever chat id form (number or
 * `@lid`) it came under; an ack with an error marks the send as failed.
 */
export async function applyAck(
  companyId: number,
  event: { wid: string; ack: number; error?: string; providerError?: ProviderError },
): Promise<Message | undefined> {
  const found = await getMessageByWid(companyId, event.wid);
  if (!found) return undefined;
  if (event.error) return markSendFailed(companyId, found, event.providerError);
  return raiseAck(companyId, found, event.ack);
}

/**
 * Acks only move forward (a late "delivered" never undoes "read"), however events interleave.
 * A delivery ack clears the undelivered watchdog's flag.
 */
async function raiseAck(companyId: number, found: StoredMessage, ack: number) {
  if (found.ack >= ack) return undefined;
  const raised = await patchFound(
    companyId,
    undefined,
    found,
    { ack },
    { expr: 'ack < :ack', values: { ':ack': ack } },
  );
  if (!raised?.undelivered || ack < ACK.delivered) return raised;
  const cleared = await patchFound(
    companyId,
    undefined,
    { ...raised, key: found.key },
    { undelivered: false },
    { expr: 'undelivered = :yes', values: { ':yes': true } },
  );
  if (cleared) await countUndelivered(companyId, cleared.ticketId, -1);
  return cleared ?? raised;
}

/**
 * WhatsApp did not take the message: shown on it for good (a late ack never clears the error),
 * with the provider's code and title when it gave them (a Cloud API `failed` status).
 */
const markSendFailed = (companyId: number, found: StoredMessage, providerError?: ProviderError) =>
  found.error === 'ERR_SENDING_WAPP_MSG'
    ? undefined
    : patchFound(companyId, undefined, found, {
        error: 'ERR_SENDING_WAPP_MSG',
        ...(providerError ? { providerError } : {}),
      });

/**
 * The ticket's count of flagged messages (the warning on its row), changed with the flag that
 * moved it; publishes the ticket update.
 */
export async function countUndelivered(companyId: number, ticketId: number, delta: number, initial?: StoredTicket) {
  const { before, after, changed } = await mutateTicket(
    companyId,
    ticketId,
    (t) => {
      const current = (t as StoredTicket & UndeliveredCount).undeliveredMessages ?? 0;
      const next = Math.max(0, current + delta);
      return next === current ? null : ({ ...t, undeliveredMessages: next } as StoredTicket);
    },
    { initial },
  );
  const ticket = toTicket(after) as Ticket & UndeliveredCount;
  if (changed) await publishTicketChange(companyId, before, ticket, 'update');
  return ticket;
}

/** A message we sent that the watchdog may flag: still without a delivery ack, not failed, deleted or resent. */
const awaitsDelivery = (m: Message) =>
  m.fromMe && m.ack < ACK.delivered && !m.error && !m.isDeleted && !m.resentAs && !m.undelivered;

/**
 * The undelivered watchdog's verdict on a message it found due: flags the message and counts it
 * on its ticket; from REPAIR_AFTER_UNDELIVERED flagged messages on one ticket on, the runner is
 * asked (once, when the count reaches it) to repair the session's keys for that chat.
 * Answers whether the message was flagged.
 */
export async function flagUndelivered(companyId: number, found: StoredMessage): Promise<boolean> {
  if (!awaitsDelivery(found)) return false;
  const stored = await requireStoredTicket(companyId, found.ticketId);
  // wake-ups armed before groups were left out of the watchdog: a group's message is never flagged
  if (stored.isGroup) return false;
  const flagged = await patchFound(
    companyId,
    toTicket(stored),
    found,
    { undelivered: true },
    {
      expr: 'ack < :delivered AND attribute_not_exists(resentAs) AND (attribute_not_exists(undelivered) OR undelivered = :no)',
      values: { ':delivered': ACK.delivered, ':no': false },
    },
  );
  if (!flagged) return false;
  const ticket = await countUndelivered(companyId, found.ticketId, 1, stored);
  // a Cloud API number has no session keys to repair (Meta reports each failure itself)
  if (
    ticket.undeliveredMessages === REPAIR_AFTER_UNDELIVERED &&
    !isCloudProvider((await getWhatsapp(companyId, ticket.whatsappId))?.provider)
  ) {
    const contact = await requireContact(companyId, ticket.contactId);
    const command: SessionCommand = {
      type: 'repairSession',
      commandId: randomUUID(),
      companyId,
      whatsappId: ticket.whatsappId,
      ticketId: ticket.id,
      to: contactJid(contact),
    };
    await enqueue(COMMAND_QUEUE, command, {
      groupId: commandGroupId(companyId, ticket.whatsappId),
      dedupId: command.commandId,
    });
    log.warn('session repair asked', { companyId, whatsappId: ticket.whatsappId, ticketId: ticket.id });
  }
  return true;
}
