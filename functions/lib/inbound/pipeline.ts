import type { InboundMessage } from '#shared/whatsapp-protocol';
import type { Whatsapp } from '#shared/schemas/whatsapp';
import { fillVariables } from '#shared/message-variables';
import { decide, type BotOption, type BotQueue } from '../chatbot/engine';
import type { StoredBotState } from '../chatbot/state';

/**
 * The inbound message rules, written against small ports (contacts, tickets, messages, queues,
 * clock) so they are tested without a table; `functions/lib/inbound/wiring.ts` binds the ports to
 * the real services.
 */
export interface PipelineTicket {
  id: number;
  status: string;
  queueId: number | null;
  userId: number | null;
  isGroup: boolean;
  contactId: number;
  whatsappId: number;
  useIntegration?: boolean;
  promptId?: number | null;
  integrationId?: number | null;
}

/** Who answers instead of the chatbot: an AI prompt or a queue integration (management.md). */
export interface AssistantTarget {
  kind: 'prompt' | 'integration';
  id: number;
}

export interface PipelineContact {
  id: number;
  name: string;
}

export interface AwaitedRating {
  ticketId: number;
  userId: number | null;
  askedAt: number;
}

export interface Ports<T extends PipelineTicket = PipelineTicket> {
  settings(): Promise<Record<string, string>>;
  upsertContact(message: InboundMessage): Promise<PipelineContact>;
  findOrCreateTicket(contact: PipelineContact, message: InboundMessage): Promise<{ ticket: T; created: boolean }>;
  /**
   * stores idempotently; `created` false for a redelivery or the echo of a message sent from the app.
   * `replaced`: the message took the place of its placeholder (it could not be decrypted at first);
   * `openedTicket` says whether that placeholder opened the ticket.
   */
  storeMessage(
    ticket: T,
    contact: PipelineContact,
    message: InboundMessage,
    opts?: { openedTicket?: boolean },
  ): Promise<{ created: boolean; ticket?: T; replaced?: { openedTicket: boolean } }>;
  /** a rating asked on close that this contact has not answered yet */
  awaitedRating(contact: PipelineContact): Promise<AwaitedRating | undefined>;
  ticketById(id: number): Promise<T | undefined>;
  finishRating(rating: AwaitedRating, contact: PipelineContact, value: number | null): Promise<void>;
  botState(ticket: T): Promise<StoredBotState | undefined>;
  saveBotState(ticket: T, state: StoredBotState): Promise<void>;
  queues(
    ids: number[],
  ): Promise<(BotQueue & { schedules?: unknown; promptId?: number | null; integrationId?: number | null })[]>;
  optionTree(queueId: number): Promise<BotOption[]>;
  isOpen(queueId?: number): Promise<boolean>;
  sendBot(ticket: T, body: string): Promise<void>;
  setQueue(ticket: T, queueId: number): Promise<T>;
  scheduleTransfer(ticket: T, minutes: number): Promise<void>;
  /** the plan flags that let prompts (useOpenAi) and integrations (useIntegrations) answer */
  features(): Promise<{ useOpenAi: boolean; useIntegrations: boolean }>;
  /** people took the ticket over from its prompt or integration (transfer, finish, failure) */
  handedToPeople(ticket: T): Promise<boolean>;
  /** hands the ticket and the customer's message to its prompt or integration (outside any request) */
  runAssistant(ticket: T, target: AssistantTarget, message: InboundMessage): Promise<void>;
  now(): Date;
}

const RATING_ANSWER = /^\s*([1-3])\s*$/;

export async function runInboundMessage<T extends PipelineTicket>(
  ports: Ports<T>,
  whatsapp: Whatsapp,
  message: InboundMessage,
) {
  const settings = await ports.settings();
  // "group-message ignore" (attendance.md section 9)
  if (message.isGroup && settings.CheckMsgIsGroup === 'enabled') return { ignored: true as const };

  const contact = await ports.upsertContact(message);

  // A message that could not be read is only shown (a placeholder): nobody can answer what it says,
  // so no rating, bot, greeting or assistant. They run when the real message replaces it (below).
  if (message.undecryptable) {
    const { ticket, created } = await ports.findOrCreateTicket(contact, message);
    const stored = await ports.storeMessage(ticket, contact, message, { openedTicket: created });
    return stored.created
      ? { ticket: stored.ticket ?? ticket, placeholder: true as const }
      : { duplicate: true as const };
  }

  // A rating answer belongs to the closed ticket that asked for it, not to a new conversation.
  if (!message.fromMe && !message.isGroup && settings.userRating === 'enabled') {
    const awaited = await ports.awaitedRating(contact);
    if (awaited) {
      const rated = await ports.ticketById(awaited.ticketId);
      const match = RATING_ANSWER.exec(message.body);
      if (rated && match) {
        await ports.storeMessage(rated, contact, message);
        await ports.finishRating(awaited, contact, Number(match[1]));
        return { rated: Number(match[1]) };
      }
      // anything else ends the wait and starts a conversation as usual
      await ports.finishRating(awaited, contact, null);
    }
  }

  const { ticket, created } = await ports.findOrCreateTicket(contact, message);
  const stored = await ports.storeMessage(ticket, contact, message);
  if (!stored.created) return { duplicate: true as const };
  const current = stored.ticket ?? ticket;
  // the ticket is new to this message also when the placeholder it replaced opened it
  const isNewTicket = stored.replaced ? stored.replaced.openedTicket : created;
  if (message.fromMe || current.isGroup) return { ticket: current };
  if (current.status !== 'pending' || current.userId !== null) return { ticket: current };

  // A prompt or integration of the ticket, its queue or its connection answers instead of the chatbot.
  const assistant = await pickAssistant(ports, current, whatsapp.promptId ?? null);
  if (assistant) {
    await ports.runAssistant(current, assistant, message);
    return { ticket: current, assistant };
  }

  // nothing for a bot to say: no queues to offer, no greeting, no out-of-hours rule
  const botIdle = !whatsapp.queueIds.length && !whatsapp.greetingMessage && settings.scheduleType !== 'company';
  if (botIdle) return { ticket: current };

  const state = await ports.botState(current);
  const queues = await ports.queues(whatsapp.queueIds);
  const byId = new Map(queues.map((q) => [q.id, q]));
  const ordered = whatsapp.queueIds.map((id) => byId.get(id)).filter((q): q is NonNullable<typeof q> => Boolean(q));
  const options: Record<number, BotOption[]> = {};
  for (const q of ordered) options[q.id] = await ports.optionTree(q.id);
  const openQueues = new Map<number | undefined, boolean>();
  for (const key of [undefined, ...ordered.map((q) => q.id)]) openQueues.set(key, await ports.isOpen(key));
  const now = ports.now();

  const actions = decide({
    message: { body: message.body, fromMe: message.fromMe },
    ticket: { status: current.status, queueId: current.queueId, userId: current.userId, isGroup: current.isGroup },
    isNewTicket,
    state,
    connection: {
      greetingMessage: whatsapp.greetingMessage,
      outOfHoursMessage: whatsapp.outOfHoursMessage,
      maxUseBotQueues: whatsapp.maxUseBotQueues,
      timeUseBotQueues: whatsapp.timeUseBotQueues,
    },
    queues: ordered,
    options,
    settings: {
      sendGreetingMessageOneQueues: settings.sendGreetingMessageOneQueues ?? 'disabled',
      scheduleType: settings.scheduleType ?? 'disabled',
    },
    isOpen: (queueId) => openQueues.get(queueId) ?? true,
    now: now.getTime(),
  });

  const queueBefore = current.queueId;
  let target = current;
  for (const action of actions) {
    if (action.type === 'setQueue') target = await ports.setQueue(target, action.queueId);
    else if (action.type === 'send')
      await ports.sendBot(target, fillVariables(action.body, { contactName: contact.name, now, protocol: target.id }));
    else if (action.type === 'saveState') await ports.saveBotState(target, action.state);
  }
  // The chosen queue's prompt or integration takes the conversation from here, starting with this message.
  if (target.queueId !== null && target.queueId !== queueBefore) {
    const next = await pickAssistant(ports, target, null, byId.get(target.queueId));
    if (next) {
      await ports.runAssistant(target, next, message);
      return { ticket: target, actions, assistant: next };
    }
  }
  // A pending ticket the bot could not route moves to transferQueueId after timeToTransfer minutes.
  if (isNewTicket && target.queueId === null && whatsapp.timeToTransfer && whatsapp.transferQueueId) {
    await ports.scheduleTransfer(target, whatsapp.timeToTransfer);
  }
  return { ticket: target, actions };
}

type QueueLinks = { promptId?: number | null; integrationId?: number | null };

/**
 * The ticket's own integration or prompt, else its queue's, else the connection's prompt; only
 * those the plan allows, and none once people took the ticket over. The plan and hand-over reads
 * happen only when there is a candidate, so tickets without bots cost nothing more.
 */
async function pickAssistant<T extends PipelineTicket>(
  ports: Ports<T>,
  ticket: T,
  connectionPromptId: number | null,
  knownQueue?: QueueLinks,
): Promise<AssistantTarget | undefined> {
  const candidates: AssistantTarget[] = [];
  if (ticket.useIntegration && ticket.integrationId) candidates.push({ kind: 'integration', id: ticket.integrationId });
  if (ticket.promptId) candidates.push({ kind: 'prompt', id: ticket.promptId });
  if (ticket.queueId !== null) {
    const queue = knownQueue ?? (await ports.queues([ticket.queueId]))[0];
    if (queue?.integrationId) candidates.push({ kind: 'integration', id: queue.integrationId });
    if (queue?.promptId) candidates.push({ kind: 'prompt', id: queue.promptId });
  }
  if (connectionPromptId) candidates.push({ kind: 'prompt', id: connectionPromptId });
  if (!candidates.length) return undefined;
  const features = await ports.features();
  const allowed = candidates.find((c) => (c.kind === 'prompt' ? features.useOpenAi : features.useIntegrations));
  if (!allowed || (await ports.handedToPeople(ticket))) return undefined;
  return allowed;
}
