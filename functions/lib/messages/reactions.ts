import { randomUUID } from 'node:crypto';
import type { Message, MessageReaction } from '#shared/schemas/messages';
import { isCloudProvider } from '#shared/constants';
import { isDualTransport, transportUp } from '#shared/transports';
import { wamidOf } from '#shared/wamid';
import {
  CLOUD_COMMAND_QUEUE,
  COMMAND_QUEUE,
  commandGroupId,
  type EditSender,
  type SessionCommand,
} from '#shared/whatsapp-protocol';
import { AppError } from '../errors';
import { log } from '../log';
import { nowIso } from '../keys';
import { enqueue } from '../queue';
import { contactJid, digitsOnly, getContact, jidUser, requireContact } from '../contacts/repo';
import { isChatOf } from './edits';
import { requireStoredTicket, toTicket } from '../tickets/repo';
import { assertCanSee, assertMaySend, type Actor } from '../tickets/access';
import { getWhatsapp } from '../whatsapp/repo';
import { getMessageById, getMessageByWid, type StoredMessage } from './repo';
import { patchFound, stripKey } from './store';

/**
 * Reactions (an emoji on a message), both ways and on both transports: a message keeps one
 * reaction per reactor (`by`: `me` for the company, else the contact's or the group member's id),
 * a new one replacing it and an empty one taking it back, as WhatsApp shows them.
 */

/** the company's own reactions, whichever attendant or phone made them */
const ME = 'me';
/** a reaction is one emoji (a few code points with modifiers and joiners), never text */
const EMOJI = /^(?:\p{Extended_Pictographic}|\p{Emoji_Component}|\p{Emoji_Modifier}|\u200d|\ufe0f|\u20e3){1,16}$/u;
const MAX_TRIES = 3;

export const isReactionEmoji = (emoji: string) => emoji === '' || (emoji.length <= 32 && EMOJI.test(emoji));

/** The message's reactions with `by`'s set to `emoji` (or taken back when empty). */
export function withReaction(
  reactions: MessageReaction[] | undefined,
  by: string,
  emoji: string,
  extra: { fromMe: boolean; at: string; userId?: number },
): MessageReaction[] {
  const rest = (reactions ?? []).filter((r) => r.by !== by);
  return emoji ? [...rest, { by, emoji, ...extra }] : rest;
}

/** Sets one reaction on a stored message, conditionally on the version read (a concurrent one is read again). */
async function react(
  companyId: number,
  found: StoredMessage,
  by: string,
  emoji: string,
  extra: { fromMe: boolean; at: string; userId?: number },
  ticket?: Parameters<typeof patchFound>[1],
): Promise<Message | undefined> {
  let current: StoredMessage | undefined = found;
  for (let attempt = 0; attempt < MAX_TRIES && current; attempt++) {
    const reactions = withReaction(current.reactions, by, emoji, extra);
    const updated = await patchFound(
      companyId,
      ticket,
      current,
      { reactions },
      {
        expr: 'updatedAt = :seen',
        values: { ':seen': current.updatedAt },
      },
    );
    if (updated) return updated;
    current = await getMessageById(companyId, found.id);
  }
  log.warn('reaction not stored: the message kept changing', { companyId, messageId: found.id });
  return undefined;
}

/**
 * A reaction WhatsApp reported (`reaction` event, either transport): applied to the message it
 * names when that message is of the same connection and chat; anything else is ignored.
 */
export async function applyReaction(
  companyId: number,
  event: { whatsappId: number; wid: string; chatJid: string; emoji: string } & EditSender,
): Promise<Message | undefined> {
  const found = await getMessageByWid(companyId, event.wid);
  if (!found || found.whatsappId !== event.whatsappId) return undefined;
  if (!isReactionEmoji(event.emoji)) return undefined;
  // only in the chat the message is in: a contact cannot mark another chat's messages
  const contact = await getContact(companyId, found.contactId);
  if (!contact || !isChatOf(contact, event.chatJid)) return undefined;
  const by = event.fromMe ? ME : (event.participantJid ?? jidUser(event.chatJid));
  return react(companyId, found, by, event.emoji, { fromMe: event.fromMe === true, at: nowIso() });
}

/**
 * POST /messages/{id}/reactions: the caller reacts in the company's name (the soft lock applies, as
 * for sending), stored at once and sent to WhatsApp through the transport that can carry it now.
 */
export async function reactByUser(companyId: number, actor: Actor, id: string, emoji: string): Promise<Message> {
  if (!isReactionEmoji(emoji)) throw new AppError('ERR_VALIDATION', 400, [{ path: ['emoji'], message: 'invalid' }]);
  const found = await getMessageById(companyId, id);
  if (!found) throw new AppError('ERR_NOT_FOUND');
  const stored = await requireStoredTicket(companyId, found.ticketId);
  await assertCanSee(companyId, actor, stored);
  // a reaction reaches the customer as a message does: only the ticket's holder sends it (the soft lock)
  assertMaySend(actor, stored);
  if (!found.wid || found.isDeleted || found.undecryptable) throw new AppError('ERR_MESSAGE_NOT_REACTABLE');
  const ticket = toTicket(stored);
  const updated = await react(
    companyId,
    found,
    ME,
    emoji,
    { fromMe: true, at: nowIso(), ...(actor.userId != null ? { userId: actor.userId } : {}) },
    ticket,
  );
  const [contact, connection] = await Promise.all([
    requireContact(companyId, ticket.contactId),
    getWhatsapp(companyId, found.whatsappId),
  ]);
  const to = contactJid(contact);
  // the Cloud API for a Cloud API number, or for a number with both while WhatsApp Web is down
  const cloud =
    isCloudProvider(connection?.provider) ||
    (isDualTransport(connection) && !transportUp(connection!, 'web') && transportUp(connection!, 'cloud'));
  const command: SessionCommand = {
    type: 'react',
    commandId: randomUUID(),
    companyId,
    whatsappId: found.whatsappId,
    messageId: found.id,
    // Meta names the message by its wamid: a number with both transports keeps the device id, which the wamid carries
    wid:
      cloud && isDualTransport(connection)
        ? wamidOf({ chat: digitsOnly(jidUser(to)), fromMe: found.fromMe, id: found.wid })
        : found.wid,
    fromMe: found.fromMe,
    ...(found.participant ? { participant: found.participant } : {}),
    to,
    emoji,
  };
  await enqueue(cloud ? CLOUD_COMMAND_QUEUE : COMMAND_QUEUE, command, {
    groupId: commandGroupId(companyId, found.whatsappId),
    dedupId: command.commandId,
  }).catch((err) => log.error('reaction not enqueued', { messageId: id, error: (err as Error).message }));
  return updated ?? stripKey(found);
}
