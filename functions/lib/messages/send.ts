import { scheduleReplyChecks } from '../automation/emit';
import { randomUUID } from 'node:crypto';
import type { Message } from '#shared/schemas/messages';
import { mediaKindOf, mediaTypeOf } from '#shared/schemas/messages';
import type { Ticket } from '#shared/schemas/tickets';
import {
  ACK,
  CLOUD_COMMAND_QUEUE,
  COMMAND_QUEUE,
  commandGroupId,
  type MediaKind,
  type SessionCommand,
} from '#shared/whatsapp-protocol';
import { isCloudProvider } from '#shared/constants';
import { cloudWindowEndsAt, cloudWindowLeftMs } from '#shared/cloud-window';
import { chooseTransport, isDualTransport, type Transport } from '#shared/transports';
import { protocolOf } from '#shared/message-variables';
import type { TemplateSendInput } from '#shared/schemas/whatsapp-templates';
import { prepareTemplateSend } from '../whatsapp-cloud/templates';
import { getWhatsapp, knownProvider, toWhatsapp, whatsappKeys } from '../whatsapp/repo';
import { batchGet } from '../db';
import { countIfFirstResponse } from '../sla/clock';
import { AppError } from '../errors';
import { stripKeys, updateItem } from '../db';
import { nowIso } from '../keys';
import { log } from '../log';
import { enqueue } from '../queue';
import { acceptStoredUpload, assertTenantKey } from '../storage';
import { contactJid, contactKeys, toContact } from '../contacts/repo';
import { requireStoredTicket, toTicket } from '../tickets/repo';
import { assertCanSee, assertMaySend, type Actor } from '../tickets/access';
import { conversationMessageId, getMessageById, newWid } from './repo';
import { announce, insertWithTicket, patchMessage, quoteOf, sameConversation, storedOrUndefined } from './store';
import { countUndelivered } from './delivery';
import { armFailover } from './failover';

/**
 * The outbound path: stores the message (fromMe, ack 0) with the WhatsApp id it will be sent with,
 * bumps the ticket, publishes, and asks the session runner to send it with that id (FIFO group per
 * connection, deduplicated by command id). Every ack and echo then finds the message, whatever
 * order they arrive in. A failure to enqueue is recorded on the message (ERR_SENDING_WAPP_MSG),
 * never silent.
 */
export async function sendMessage(
  companyId: number,
  ticket: Ticket,
  input: {
    body: string;
    media?: { key: string; mimetype: string; fileName: string; kind: MediaKind; ptt?: boolean };
    quotedMsgId?: string;
    userId?: number | null;
    automatic?: boolean;
    /** chosen by a resend, which records it on the message it replaces before sending */
    id?: string;
    /** a campaign's send: its acks are reported to the campaign */
    campaign?: Message['campaign'];
    /** an approved template of a Cloud API connection: the message's text is the template's, filled */
    template?: TemplateSendInput;
    /** an AI agent's answer: the knowledge articles it names */
    knowledgeArticles?: Message['knowledgeArticles'];
  },
): Promise<Message> {
  if (!input.media && !input.template && !input.body.trim())
    throw new AppError('ERR_VALIDATION', 400, [{ path: ['body'], message: 'required' }]);
  if (input.media) assertTenantKey(companyId, input.media.key);
  // a Cloud API connection's sends go to the Graph API sender, not to a session runner; a connection
  // with both transports chooses one per message (shared/transports.ts)
  const { contact, provider, connection } = await contactAndProvider(companyId, ticket);
  const now = Date.now();
  const dual = isDualTransport(connection);
  if (input.template && !(isCloudProvider(provider) || dual)) throw new AppError('ERR_TEMPLATES_NEED_CLOUD');
  const transport: Transport =
    dual && connection
      ? chooseTransport(connection, {
          template: Boolean(input.template),
          group: ticket.isGroup,
          customerMessageAt: ticket.customerMessageAt,
          now,
        })
      : isCloudProvider(provider)
        ? 'cloud'
        : 'web';
  const cloud = transport === 'cloud';
  const template =
    input.template &&
    (await prepareTemplateSend(companyId, ticket.whatsappId, input.template, {
      contactName: contact.name,
      now: new Date(),
      protocol: protocolOf(new Date(), ticket.id),
    }));
  // outside the customer service window Meta takes only templates (its 131047): refused here, nothing stored
  if (cloud && !template && cloudWindowLeftMs(ticket.customerMessageAt, Date.now()) === 0)
    throw new AppError('ERR_CLOUD_WINDOW_CLOSED', undefined, {
      windowEndsAt: cloudWindowEndsAt(ticket.customerMessageAt),
    });
  // WhatsApp locked new chats from this number: a first message to someone who never wrote is refused
  if (!cloud && !ticket.customerMessageAt && !input.campaign)
    assertMayReachOut(connection ?? (await getWhatsapp(companyId, ticket.whatsappId)));
  const quoted = sameConversation(
    ticket,
    input.quotedMsgId ? await getMessageById(companyId, input.quotedMsgId) : undefined,
  );
  const wid = newWid();
  const message: Message = {
    id: input.id ?? conversationMessageId(ticket, now, now),
    companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    whatsappId: ticket.whatsappId,
    wid,
    body: template ? template.text : input.body,
    fromMe: true,
    read: true,
    ack: 0,
    mediaType: input.media ? mediaTypeOf(input.media.mimetype) : 'chat',
    mediaUrl: null,
    mediaKey: input.media?.key ?? null,
    mediaName: input.media?.fileName ?? null,
    isDeleted: false,
    isEdited: false,
    quotedMsgId: quoted?.id ?? null,
    quotedMsg: quoteOf(quoted),
    contact: null,
    userId: input.userId ?? null,
    automatic: Boolean(input.automatic),
    error: null,
    ...(input.campaign ? { campaign: input.campaign } : {}),
    ...(template ? { template: template.kept } : {}),
    ...(input.knowledgeArticles?.length ? { knowledgeArticles: input.knowledgeArticles } : {}),
    ...(dual ? { transport } : {}),
    createdAt: new Date(now).toISOString(),
    updatedAt: new Date(now).toISOString(),
  };
  // an attendant's message may be the wait's first response (service levels, sla/clock.ts)
  const human = input.userId != null && !input.automatic && ticket.status !== 'closed';
  const { before, after } = await insertWithTicket(companyId, ticket.id, message, {
    wid,
    freshWid: true,
    unread: false,
    initial: storedOrUndefined(ticket),
    // a group reports delivery per member, not as one ack: the watchdog would flag every group
    // message and offer a resend that the whole group receives twice
    watch: !ticket.isGroup,
    firstResponse: human,
    // the AI agent's metrics: a person's message, or the answer of the AI prompt holding the ticket
    by: human ? 'person' : input.automatic && ticket.promptId ? 'ai' : undefined,
  });
  if (human) await countIfFirstResponse(before, after, input.userId!, message.createdAt);
  // the automation rules' "no customer reply for N minutes" counts from an attendant's message
  if (human && !ticket.isGroup)
    await scheduleReplyChecks(companyId, ticket.id, 'no_customer_reply', message.createdAt, ticket.customerMessageAt);
  const current = toTicket(after);
  const saved = { ...message, contactId: after.contactId, whatsappId: after.whatsappId };
  await announce(companyId, before, current, saved, 'create');
  const failover = dual && !cloud && !ticket.isGroup && !input.campaign;
  const command: SessionCommand = {
    type: 'send',
    commandId: randomUUID(),
    companyId,
    whatsappId: after.whatsappId,
    messageId: saved.id,
    wid,
    ticketId: ticket.id,
    to: contactJid(contact),
    body: saved.body,
    ...(input.media ? { media: input.media } : {}),
    ...(template ? { template: template.graph } : {}),
    // a reply WhatsApp Web does not take in time moves to the Cloud API (not a group's, not a paced campaign's)
    ...(failover ? { fallback: true } : {}),
    ...(quoted?.wid
      ? {
          quotedWid: quoted.wid,
          quotedFromMe: quoted.fromMe,
          quotedBody: quoted.body,
          ...(quoted.participant ? { quotedParticipant: quoted.participant } : {}),
        }
      : {}),
  };
  try {
    await enqueue(cloud ? CLOUD_COMMAND_QUEUE : COMMAND_QUEUE, command, {
      groupId: commandGroupId(companyId, after.whatsappId),
      dedupId: command.commandId,
    });
  } catch (err) {
    log.error('send command not enqueued', { messageId: saved.id, error: (err as Error).message });
    return (await patchMessage(companyId, current, saved.id, { error: 'ERR_SENDING_WAPP_MSG' })) ?? saved;
  }
  if (failover) await armFailover(command);
  return saved;
}

/** ERR_REACHOUT_LOCKED while the connection's reach-out lock holds (checked only for a new chat). */
function assertMayReachOut(connection: { reachoutLockedUntil?: string } | undefined) {
  const until = connection?.reachoutLockedUntil;
  if (until && Date.parse(until) > Date.now()) throw new AppError('ERR_REACHOUT_LOCKED', undefined, { until });
}

/**
 * The ticket's contact, and its connection (which transport sends): one read together, or only the
 * contact once this instance knows the connection is a Cloud API one (a provider never changes; a
 * WhatsApp Web connection is read each time: a Cloud API transport may be attached, and its
 * transports' states choose the route).
 */
async function contactAndProvider(companyId: number, ticket: Ticket) {
  const cached = knownProvider(companyId, ticket.whatsappId);
  const known = isCloudProvider(cached) ? cached : undefined;
  const keys = [
    contactKeys(companyId, ticket.contactId),
    ...(known ? [] : [whatsappKeys(companyId, ticket.whatsappId)]),
  ];
  const items = await batchGet(keys);
  const contactItem = items.find((i) => i.sk === keys[0]!.sk);
  if (!contactItem) throw new AppError('ERR_NO_CONTACT_FOUND');
  const item = items.find((i) => String(i.sk).startsWith('WHATSAPP#'));
  const connection = item && toWhatsapp(item);
  return { contact: toContact(contactItem), provider: known ?? connection?.provider, connection };
}

/**
 * POST /messages/{id}/resend: the same content again as a new message (new WhatsApp id) through
 * the normal send path (so only the ticket's assignee resends: the soft lock), for one of our messages that has no delivery ack. The old one is marked
 * with the new one's id first, conditionally, so a double click sends once.
 */
export async function resendMessage(companyId: number, actor: Actor, id: string): Promise<Message> {
  const found = await getMessageById(companyId, id);
  if (!found) throw new AppError('ERR_NOT_FOUND');
  const stored = await requireStoredTicket(companyId, found.ticketId);
  await assertCanSee(companyId, actor, stored);
  assertMaySend(actor, stored);
  if (!found.fromMe) throw new AppError('ERR_NO_PERMISSION');
  if (found.ack >= ACK.delivered || found.isDeleted || found.resentAs) throw new AppError('ERR_MESSAGE_NOT_RESENDABLE');
  const media = found.mediaKey
    ? { key: found.mediaKey, fileName: found.mediaName ?? found.mediaKey.split('/').pop() ?? 'file' }
    : undefined;
  const mimetype = media && (await acceptStoredUpload(companyId, media.key, media.fileName)).mimetype;
  const newId = conversationMessageId(found);
  const claimed = await updateItem(found.key, {
    set: { resentAs: newId, undelivered: false, updatedAt: nowIso() },
    condition: `ack < :delivered AND attribute_not_exists(resentAs) AND isDeleted = :no AND ${
      found.undelivered ? 'undelivered = :yes' : '(attribute_not_exists(undelivered) OR undelivered = :no)'
    }`,
    conditionValues: { ':delivered': ACK.delivered, ':no': false, ...(found.undelivered ? { ':yes': true } : {}) },
  });
  if (!claimed) throw new AppError('ERR_MESSAGE_NOT_RESENDABLE');
  if (found.undelivered) await countUndelivered(companyId, found.ticketId, -1);
  // read after the count moved: the send's transaction starts from this version
  const current = await requireStoredTicket(companyId, found.ticketId);
  await announce(companyId, null, toTicket(current), stripKeys(claimed) as Message, 'update');
  return sendMessage(companyId, current, {
    id: newId,
    body: found.body,
    media: media && mimetype ? { ...media, mimetype, kind: mediaKindOf(mimetype) } : undefined,
    quotedMsgId: found.quotedMsgId ?? undefined,
    userId: actor.userId,
    // a template goes again as the same template with the values it was sent with
    ...(found.template ? { template: found.template } : {}),
  });
}
