import { randomUUID } from 'node:crypto';
import type { Message } from '#shared/schemas/messages';
import type { Ticket } from '#shared/schemas/tickets';
import type { Contact } from '#shared/schemas/contacts';
import { COMMAND_QUEUE, commandGroupId, type EditSender, type SessionCommand } from '#shared/whatsapp-protocol';
import { AppError } from '../errors';
import { log } from '../log';
import { enqueue } from '../queue';
import { contactJid, digitsOnly, getContact, jidUser, requireContact } from '../contacts/repo';
import { requireStoredTicket, toTicket } from '../tickets/repo';
import { assertCanSee, assertMayChangeIn, type Actor } from '../tickets/access';
import { getMessageById, getMessageByWid } from './repo';
import { patchFound, stripKey } from './store';

/**
 * The message an edit or a revoke from WhatsApp may change: one in the chat it came from, on that
 * connection, and sent by the same side (our phone changes only our messages; a contact only its
 * own, in groups only the same participant's). Anything else is ignored, so a contact cannot
 * rewrite the company's messages or another contact's.
 */
async function editableByWid(
  companyId: number,
  change: { whatsappId: number; wid: string; chatJid: string } & EditSender,
) {
  const found = await getMessageByWid(companyId, change.wid);
  if (!found || found.whatsappId !== change.whatsappId) return undefined;
  const fromMe = change.fromMe === true;
  if (found.fromMe !== fromMe) return undefined;
  if (!fromMe && found.participant && found.participant !== change.participantJid) return undefined;
  const contact = await getContact(companyId, found.contactId);
  return contact && isChatOf(contact, change.chatJid) ? found : undefined;
}

/** Whether a chat id (`<number>@s.whatsapp.net`, `<id>@g.us`, `<lid>@lid`) names this contact. */
export function isChatOf(contact: Contact, chatJid: string) {
  const user = jidUser(chatJid);
  if (chatJid.endsWith('@lid')) return contact.lid === user;
  return contact.number === (contact.isGroup ? user : digitsOnly(user));
}

export async function markEdited(
  companyId: number,
  change: { whatsappId: number; wid: string; chatJid: string; body: string } & EditSender,
): Promise<Message | undefined> {
  const found = await editableByWid(companyId, change);
  if (!found) return undefined;
  return patchFound(companyId, undefined, found, { body: change.body, isEdited: true });
}

export async function markRevoked(
  companyId: number,
  change: { whatsappId: number; wid: string; chatJid: string } & EditSender,
): Promise<Message | undefined> {
  const found = await editableByWid(companyId, change);
  if (!found) return undefined;
  return patchFound(companyId, undefined, found, { isDeleted: true });
}

/**
 * DELETE /messages/{id}: only the company's messages (fromMe), in a ticket the caller may change
 * (the soft lock, access.ts assertMayChange); WhatsApp is asked to revoke it.
 */
export async function deleteMessageByUser(companyId: number, actor: Actor, id: string): Promise<Message> {
  const found = await getMessageById(companyId, id);
  if (!found) throw new AppError('ERR_NOT_FOUND');
  const ticket = await requireStoredTicket(companyId, found.ticketId);
  await assertCanSee(companyId, actor, ticket);
  await assertMayChangeIn(companyId, actor, ticket);
  if (!found.fromMe) throw new AppError('ERR_NO_PERMISSION');
  const updated = await patchFound(companyId, toTicket(ticket), found, { isDeleted: true });
  if (found.wid) {
    const contact = await requireContact(companyId, ticket.contactId);
    const command: SessionCommand = {
      type: 'delete',
      commandId: randomUUID(),
      companyId,
      whatsappId: found.whatsappId,
      messageId: found.id,
      wid: found.wid,
      to: contactJid(contact),
      fromMe: true,
    };
    await enqueue(COMMAND_QUEUE, command, {
      groupId: commandGroupId(companyId, found.whatsappId),
      dedupId: command.commandId,
    }).catch((err) => log.error('delete command not enqueued', { messageId: id, error: (err as Error).message }));
  }
  return updated ?? stripKey(found);
}

/** An audio's transcript (made for an AI prompt), stored on it and shown to the ticket's viewers. */
export async function saveTranscript(companyId: number, ticket: Ticket, wid: string, transcript: string) {
  const found = await getMessageByWid(companyId, wid);
  return found ? patchFound(companyId, ticket, found, { transcript }) : undefined;
}
