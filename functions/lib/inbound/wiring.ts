import type { InboundMessage } from '#shared/whatsapp-protocol';
import type { Whatsapp } from '#shared/schemas/whatsapp';
import type { Ticket } from '#shared/schemas/tickets';
import { isWithinHours } from '#shared/business-hours';
import { getCompanySchedules, listSettings } from '../settings';
import { upsertContactFromWhatsApp } from '../contacts/service';
import { findOrCreateTicket, getTicket, updateTicket } from '../tickets/service';
import { sendMessage, storeInboundMessage } from '../messages/service';
import { getOptionTree, getQueues } from '../queues/repo';
import { getBotState, saveBotState } from '../chatbot/state';
import { awaitedRating, finishRating } from '../chatbot/rating';
import { scheduleDue } from '../chatbot/timers';
import type { BotOption } from '../chatbot/engine';
import { runInboundMessage, type Ports } from './pipeline';

type PortTicket = Ticket;

/** The contact's ids from a message: the number jid and the `@lid` id, whichever WhatsApp gave. */
export function contactIds(message: InboundMessage) {
  const ids = [message.chatJid, message.chatAltJid].filter((j): j is string => Boolean(j));
  return {
    number: message.isGroup ? message.chatJid : (ids.find((j) => !j.endsWith('@lid')) ?? ''),
    lid: message.isGroup ? undefined : ids.find((j) => j.endsWith('@lid')),
  };
}

/** Binds the pipeline's ports to the contacts, tickets, messages, queues and settings services. */
export function portsFor(companyId: number, whatsapp: Whatsapp): Ports<PortTicket> {
  let settingsCache: Record<string, string> | undefined;
  const settings = async () =>
    (settingsCache ??= Object.fromEntries((await listSettings(companyId)).map((s) => [s.key, s.value])));
  return {
    settings,
    upsertContact: async (message) => {
      const { number, lid } = contactIds(message);
      const contact = await upsertContactFromWhatsApp(companyId, {
        number,
        lid,
        // a message we typed on the phone carries our own name, not the contact's
        name: message.fromMe ? undefined : message.pushName,
        profilePicUrl: message.profilePicUrl,
        isGroup: message.isGroup,
      });
      return { id: contact.id, name: contact.name };
    },
    findOrCreateTicket: (contact, message) =>
      findOrCreateTicket(companyId, {
        contactId: contact.id,
        whatsappId: whatsapp.id,
        isGroup: message.isGroup,
        fromMe: message.fromMe,
      }),
    storeMessage: async (ticket, _contact, message) => {
      const out = await storeInboundMessage(companyId, ticket, message);
      return { created: !out.duplicate, ticket: out.ticket };
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
    now: () => new Date(),
  };
}

export async function processMessage(whatsapp: Whatsapp, message: InboundMessage) {
  return runInboundMessage(portsFor(whatsapp.companyId, whatsapp), whatsapp, message);
}
