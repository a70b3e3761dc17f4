import { emitAutomationEvent, scheduleReplyChecks } from '../automation/emit';
import type { InboundMessage } from '#shared/whatsapp-protocol';
import type { Whatsapp } from '#shared/schemas/whatsapp';
import type { Ticket } from '#shared/schemas/tickets';
import { isWithinHours } from '#shared/business-hours';
import type { Contact } from '#shared/schemas/contacts';
import { batchGet, type Item, type Key } from '../db';
import { getCompanySchedules, recentSettings } from '../settings';
import { upsertContactFromWhatsApp, whatsappContactIds } from '../contacts/service';
import { contactKeys, lidGuardKeys, numberGuardKeys, toContact } from '../contacts/repo';
import { findOrCreateTicket, getTicket, updateTicket } from '../tickets/service';
import { getStoredTicket, openGuardKeys, ticketKeys, toStored, type StoredTicket } from '../tickets/repo';
import { toWhatsapp, whatsappKeys } from '../whatsapp/repo';
import { sendMessage } from '../messages/send';
import { storeInboundMessage } from '../messages/inbound';
import { getOptionTree, getQueues } from '../queues/repo';
import { getBotState, saveBotState } from '../chatbot/state';
import { awaitedRating, finishRating } from '../chatbot/rating';
import { scheduleDue } from '../chatbot/timers';
import type { BotOption } from '../chatbot/engine';
import { companyPlan } from '../accounts/companies';
import { getAssistState, runAssistant } from '../integrations/assistant';
import { notifyTicketMessage } from '../push/notify';
import { wakeOnCustomerMessage } from '../tickets/snooze';
import { runInboundMessage, type Ports } from './pipeline';
import { remember } from '../lru';

type PortTicket = Ticket;

/** The contact's ids from a message: the number jid and the `@lid` id, whichever WhatsApp gave. */
export function contactIds(message: InboundMessage) {
  const ids = [message.chatJid, message.chatAltJid].filter((j): j is string => Boolean(j));
  return {
    number: message.isGroup ? message.chatJid : (ids.find((j) => !j.endsWith('@lid')) ?? ''),
    lid: message.isGroup ? undefined : ids.find((j) => j.endsWith('@lid')),
  };
}

/** What the first reads of a message found: the contact by its guards and its open or pending ticket. */
interface Known {
  contact: Contact;
  ticket: StoredTicket | null;
}

/**
 * The reads every message starts with, batched (issue 15): the connection with the contact's
 * number and lid guards, then the contact with its open-ticket guard, then that ticket. A chat seen
 * recently on this instance skips the guards: its contact is remembered (`chatHints`), so the
 * connection, the contact, its open-ticket guard and the ticket it named last time are one
 * BatchGet. Undefined when the connection is gone.
 */
async function loadInbound(companyId: number, whatsappId: number, message: InboundMessage) {
  const ids = contactIds(message);
  const { number, lid } = whatsappContactIds({ number: ids.number, lid: ids.lid, isGroup: message.isGroup });
  const connectionKey = whatsappKeys(companyId, whatsappId);
  const hintKey = `${companyId}:${whatsappId}:${number}:${lid ?? ''}`;
  const hint = chatHints.get(hintKey);
  if (hint) {
    const fromHint = await loadByHint(companyId, whatsappId, connectionKey, hint, { number, lid });
    if (fromHint) {
      rememberHint(hintKey, fromHint.known);
      return fromHint;
    }
  }
  const guardKeys = [
    number ? numberGuardKeys(companyId, number) : undefined,
    lid ? lidGuardKeys(companyId, lid) : undefined,
  ];
  const first = await batchGet([connectionKey, ...guardKeys.filter((k): k is Key => Boolean(k))]);
  const connection = find(first, connectionKey);
  if (!connection) return undefined;
  const whatsapp = toWhatsapp(connection);
  // the number guard first, as upsertContactFromWhatsApp looks them up
  const guard = guardKeys.map((k) => k && find(first, k)).find(Boolean);
  if (!guard) return { whatsapp };
  const contactId = Number(guard.contactId);
  const second = await batchGet([contactKeys(companyId, contactId), openGuardKeys(companyId, contactId, whatsappId)]);
  const contact = find(second, contactKeys(companyId, contactId));
  // a guard without its contact: the upsert looks again and repairs it as usual
  if (!contact) return { whatsapp };
  const open = find(second, openGuardKeys(companyId, contactId, whatsappId));
  const ticket = open ? ((await getStoredTicket(companyId, Number(open.ticketId))) ?? null) : null;
  const known = { contact: toContact(contact), ticket };
  rememberHint(hintKey, known);
  return { whatsapp, known };
}

/**
 * The contact a chat led to, and its open ticket, per instance. Only a hint: the contact must still
 * hold the number (or, without one, the lid) the message came from, and the open-ticket guard is
 * read with it, so a ticket closed or opened since is seen; anything else takes the full path.
 */
const chatHints = new Map<string, { contactId: number; ticketId: number | null }>();
const MAX_CHAT_HINTS = 10_000;

function rememberHint(key: string, known: Known) {
  remember(chatHints, key, { contactId: known.contact.id, ticketId: known.ticket?.id ?? null }, MAX_CHAT_HINTS);
}

async function loadByHint(
  companyId: number,
  whatsappId: number,
  connectionKey: Key,
  hint: { contactId: number; ticketId: number | null },
  seen: { number: string; lid?: string },
) {
  const guardKey = openGuardKeys(companyId, hint.contactId, whatsappId);
  const items = await batchGet([
    connectionKey,
    contactKeys(companyId, hint.contactId),
    guardKey,
    ...(hint.ticketId ? [ticketKeys(companyId, hint.ticketId)] : []),
  ]);
  const connection = find(items, connectionKey);
  const contact = find(items, contactKeys(companyId, hint.contactId));
  const sameContact =
    contact &&
    (seen.number
      ? contact.number === seen.number || contact.mergedNumbers?.includes(seen.number)
      : contact.lid === seen.lid || contact.mergedLids?.includes(seen.lid ?? ''));
  if (!connection || !sameContact) return undefined;
  const open = find(items, guardKey);
  const openId = open ? Number(open.ticketId) : null;
  const hinted = openId && openId === hint.ticketId ? find(items, ticketKeys(companyId, openId)) : undefined;
  const ticket = hinted ? toStored(hinted) : openId ? ((await getStoredTicket(companyId, openId)) ?? null) : null;
  return { whatsapp: toWhatsapp(connection), known: { contact: toContact(contact), ticket } };
}

const find = (items: Item[], key: Key) => items.find((i) => i.pk === key.pk && i.sk === key.sk);

/** Binds the pipeline's ports to the contacts, tickets, messages, queues and settings services. */
export function portsFor(companyId: number, whatsapp: Whatsapp, known?: Known): Ports<PortTicket> {
  let settingsCache: Record<string, string> | undefined;
  const settings = async () =>
    (settingsCache ??= Object.fromEntries((await recentSettings(companyId)).map((s) => [s.key, s.value])));
  return {
    settings,
    upsertContact: async (message) => {
      const { number, lid } = contactIds(message);
      const contact = await upsertContactFromWhatsApp(
        companyId,
        {
          number,
          lid,
          // a message we typed on the phone carries our own name, not the contact's
          name: message.fromMe ? undefined : message.pushName,
          profilePicUrl: message.profilePicUrl,
          isGroup: message.isGroup,
        },
        known?.contact,
      );
      return { id: contact.id, name: contact.name };
    },
    findOrCreateTicket: (contact, message) =>
      findOrCreateTicket(
        companyId,
        { contactId: contact.id, whatsappId: whatsapp.id, isGroup: message.isGroup, fromMe: message.fromMe },
        known?.contact.id === contact.id ? known.ticket : undefined,
      ),
    storeMessage: async (ticket, _contact, message, opts) => {
      const out = await storeInboundMessage(companyId, ticket, message, opts);
      // the attendant's devices hear of it through the push queue (one SQS send, no table read);
      // of a message that could not be read, once the real one replaces its placeholder
      if (!out.duplicate && !message.undecryptable) await notifyTicketMessage(companyId, out.ticket, out.message);
      // the customer wrote: a snoozed ticket wakes (tickets/snooze.ts)
      const current =
        !out.duplicate && !message.fromMe ? await wakeOnCustomerMessage(companyId, out.ticket) : out.ticket;
      // the automation rules hear of it (nothing is read or sent when none listens)
      if (!out.duplicate && !message.fromMe && !message.isGroup) {
        await emitAutomationEvent(companyId, {
          type: 'message_received',
          ticketId: current.id,
          messageText: out.message.body ?? '',
        });
        await scheduleReplyChecks(
          companyId,
          current.id,
          'no_agent_reply',
          out.message.createdAt,
          out.ticket.agentMessageAt,
        );
      }
      return { created: !out.duplicate, ticket: current, replaced: out.replaced };
    },
    awaitedRating: (contact) => awaitedRating(companyId, whatsapp.id, contact.id),
    ticketById: (id) => getTicket(companyId, id),
    finishRating: (_rating, contact, value) => finishRating(companyId, whatsapp.id, contact.id, value),
    botState: (ticket) => getBotState(companyId, ticket.id),
    saveBotState: (ticket, state) => saveBotState(companyId, ticket.id, state),
    queues: async (ids) =>
      (await getQueues(companyId, ids)).map((q) => ({
        id: q.id,
        name: q.name,
        greetingMessage: q.greetingMessage,
        outOfHoursMessage: q.outOfHoursMessage,
        schedules: q.schedules,
        promptId: q.promptId ?? null,
        integrationId: q.integrationId ?? null,
      })),
    optionTree: async (queueId) => (await getOptionTree(companyId, queueId)) as unknown as BotOption[],
    isOpen: async (queueId) => {
      const s = await settings();
      if (queueId === undefined)
        return s.scheduleType !== 'company' || isWithinHours(await getCompanySchedules(companyId), new Date());
      if (s.scheduleType !== 'queue') return true;
      const [queue] = await getQueues(companyId, [queueId]);
      return !queue || isWithinHours(queue.schedules, new Date());
    },
    sendBot: async (ticket, body) => {
      await sendMessage(companyId, ticket, { body, automatic: true });
    },
    setQueue: (ticket, queueId) => updateTicket(companyId, ticket.id, { queueId }, null),
    scheduleTransfer: (ticket, minutes) => scheduleDue('transfer', companyId, ticket.id, minutes),
    features: async () => {
      const plan = await companyPlan(companyId);
      return { useOpenAi: Boolean(plan?.useOpenAi), useIntegrations: Boolean(plan?.useIntegrations) };
    },
    handedToPeople: async (ticket) => Boolean((await getAssistState(companyId, ticket.id))?.human),
    runAssistant: (ticket, target, message) => runAssistant(companyId, ticket, target, message),
    now: () => new Date(),
  };
}

/** One message from WhatsApp through the pipeline; a deleted connection's last messages have nowhere to go. */
export async function processMessage(companyId: number, whatsappId: number, message: InboundMessage) {
  const loaded = await loadInbound(companyId, whatsappId, message);
  if (!loaded) return undefined;
  return runInboundMessage(portsFor(companyId, loaded.whatsapp, loaded.known), loaded.whatsapp, message);
}
