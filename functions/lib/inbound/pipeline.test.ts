import { describe, it, expect } from 'vitest';
import type { InboundMessage } from '#shared/whatsapp-protocol';
import type { Whatsapp } from '#shared/schemas/whatsapp';
import {
  runInboundMessage,
  type AssistantTarget,
  type AwaitedRating,
  type PipelineTicket,
  type Ports,
} from './pipeline';
import type { StoredBotState } from '../chatbot/state';

const whatsapp = {
  id: 1,
  companyId: 1,
  queueIds: [11, 12],
  greetingMessage: 'Hello {{firstName}}! Choose:',
  outOfHoursMessage: 'Closed',
  maxUseBotQueues: 3,
  timeUseBotQueues: 0,
  timeToTransfer: 10,
  transferQueueId: 12,
} as unknown as Whatsapp;

function msg(body: string, over: Partial<InboundMessage> = {}): InboundMessage {
  return {
    wid: `W${Math.random()}`,
    chatJid: '5511988887777@s.whatsapp.net',
    fromMe: false,
    isGroup: false,
    body,
    mediaType: 'chat',
    timestamp: 1,
    pushName: 'Maria Silva',
    ...over,
  };
}

/** In-memory ports: one contact, tickets, messages by wid, bot state, sent bot messages. */
function fakes(
  settings: Record<string, string> = { userRating: 'enabled' },
  bots: {
    queueLinks?: Record<number, { promptId?: number; integrationId?: number }>;
    features?: { useOpenAi: boolean; useIntegrations: boolean };
    handedToPeople?: Set<number>;
  } = {},
) {
  const assisted: { ticketId: number; target: AssistantTarget; body: string }[] = [];
  const tickets: PipelineTicket[] = [];
  const stored = new Map<string, number>();
  const placeholders = new Map<string, { openedTicket: boolean }>();
  const bot = new Map<number, StoredBotState>();
  const sent: { ticketId: number; body: string }[] = [];
  const transfers: number[] = [];
  const ratings: { rating: AwaitedRating; value: number | null }[] = [];
  let awaited: AwaitedRating | undefined;
  const ports: Ports = {
    settings: async () => ({
      CheckMsgIsGroup: 'enabled',
      scheduleType: 'disabled',
      sendGreetingMessageOneQueues: 'disabled',
      ...settings,
    }),
    upsertContact: async () => ({ id: 7, name: 'Maria Silva' }),
    findOrCreateTicket: async (contact, m) => {
      const open = tickets.find((t) => t.contactId === contact.id && t.status !== 'closed');
      if (open) return { ticket: open, created: false };
      const ticket = {
        id: tickets.length + 1,
        status: m.fromMe ? 'open' : 'pending',
        queueId: null,
        userId: null,
        isGroup: m.isGroup,
        contactId: contact.id,
        whatsappId: 1,
      };
      tickets.push(ticket);
      return { ticket, created: true };
    },
    storeMessage: async (ticket, _c, m, opts) => {
      const placeholder = placeholders.get(m.wid);
      // the real message of a placeholder takes its place, once (as storeInboundMessage does)
      if (placeholder && !m.undecryptable) {
        placeholders.delete(m.wid);
        return { created: true, replaced: placeholder };
      }
      if (stored.has(m.wid)) return { created: false };
      stored.set(m.wid, ticket.id);
      if (m.undecryptable) placeholders.set(m.wid, { openedTicket: Boolean(opts?.openedTicket) });
      return { created: true };
    },
    awaitedRating: async () => awaited,
    ticketById: async (id) => tickets.find((t) => t.id === id),
    finishRating: async (rating, _c, value) => {
      ratings.push({ rating, value });
      awaited = undefined;
    },
    botState: async (t) => bot.get(t.id),
    saveBotState: async (t, s) => void bot.set(t.id, s),
    queues: async (ids) =>
      ids.map((id) => ({
        id,
        name: id === 11 ? 'Sales' : 'Support',
        greetingMessage: id === 12 ? 'Support here' : '',
        ...(bots.queueLinks?.[id] ?? {}),
      })),
    optionTree: async () => [],
    isOpen: async () => true,
    sendBot: async (t, body) => void sent.push({ ticketId: t.id, body }),
    setQueue: async (t, queueId) => Object.assign(t, { queueId }),
    scheduleTransfer: async (t) => void transfers.push(t.id),
    features: async () => bots.features ?? { useOpenAi: true, useIntegrations: true },
    handedToPeople: async (t) => Boolean(bots.handedToPeople?.has(t.id)),
    runAssistant: async (t, target, m) => void assisted.push({ ticketId: t.id, target, body: m.body }),
    now: () => new Date('2026-11-20T15:00:00Z'),
  };
  return {
    ports,
    tickets,
    stored,
    sent,
    transfers,
    ratings,
    assisted,
    setAwaited: (a: AwaitedRating) => (awaited = a),
  };
}

describe('inbound pipeline rules', () => {
  it('a first message opens a pending ticket and gets the greeting with the queue menu, variables filled', async () => {
    const f = fakes();
    await runInboundMessage(f.ports, whatsapp, msg('hi'));
    expect(f.tickets).toHaveLength(1);
    expect(f.tickets[0]!.status).toBe('pending');
    expect(f.sent).toEqual([{ ticketId: 1, body: 'Hello Maria! Choose:\n\n*[ 1 ]* - Sales\n*[ 2 ]* - Support' }]);
    expect(f.transfers).toEqual([1]);
  });

  it('a redelivered message is stored once and the bot does not answer twice', async () => {
    const f = fakes();
    const m = msg('hi');
    await runInboundMessage(f.ports, whatsapp, m);
    const again = await runInboundMessage(f.ports, whatsapp, m);
    expect(again).toEqual({ duplicate: true });
    expect(f.stored.size).toBe(1);
    expect(f.sent).toHaveLength(1);
  });

  it('reply "2" puts the ticket in the second queue', async () => {
    const f = fakes();
    await runInboundMessage(f.ports, whatsapp, msg('hi'));
    await runInboundMessage(f.ports, whatsapp, msg('2'));
    expect(f.tickets[0]!.queueId).toBe(12);
    expect(f.sent.at(-1)!.body).toBe('Support here');
  });

  it('messages typed on the phone (fromMe) are stored but never answered', async () => {
    const f = fakes();
    await runInboundMessage(f.ports, whatsapp, msg('we will call you', { fromMe: true }));
    expect(f.stored.size).toBe(1);
    expect(f.sent).toEqual([]);
  });

  it('groups are ignored with CheckMsgIsGroup enabled, and handled (without bot) when disabled', async () => {
    const ignoring = fakes();
    await runInboundMessage(ignoring.ports, whatsapp, msg('hello group', { isGroup: true, chatJid: '123@g.us' }));
    expect(ignoring.stored.size).toBe(0);
    const handling = fakes({ CheckMsgIsGroup: 'disabled' });
    await runInboundMessage(handling.ports, whatsapp, msg('hello group', { isGroup: true, chatJid: '123@g.us' }));
    expect(handling.stored.size).toBe(1);
    expect(handling.sent).toEqual([]);
  });

  it('a 1-3 answer to a rating goes to the rated ticket and is recorded; anything else ends the wait', async () => {
    const f = fakes();
    f.tickets.push({ id: 1, status: 'closed', queueId: 11, userId: 4, isGroup: false, contactId: 7, whatsappId: 1 });
    f.setAwaited({ ticketId: 1, userId: 4, askedAt: 0 });
    const out = await runInboundMessage(f.ports, whatsapp, msg(' 3 '));
    expect(out).toEqual({ rated: 3 });
    expect(f.ratings).toEqual([{ rating: { ticketId: 1, userId: 4, askedAt: 0 }, value: 3 }]);
    expect([...f.stored.values()]).toEqual([1]);
    expect(f.tickets).toHaveLength(1);

    f.setAwaited({ ticketId: 1, userId: 4, askedAt: 0 });
    await runInboundMessage(f.ports, whatsapp, msg('I have another question'));
    expect(f.ratings.at(-1)!.value).toBeNull();
    expect(f.tickets).toHaveLength(2);
  });

  it('with userRating disabled a "3" is an ordinary message (no rating lookup)', async () => {
    const f = fakes({ userRating: 'disabled' });
    f.tickets.push({ id: 1, status: 'closed', queueId: 11, userId: 4, isGroup: false, contactId: 7, whatsappId: 1 });
    f.setAwaited({ ticketId: 1, userId: 4, askedAt: 0 });
    await runInboundMessage(f.ports, whatsapp, msg('3'));
    expect(f.ratings).toEqual([]);
    expect(f.tickets).toHaveLength(2);
  });

  it('a ticket an attendant already took gets no bot message', async () => {
    const f = fakes();
    f.tickets.push({ id: 1, status: 'open', queueId: 11, userId: 4, isGroup: false, contactId: 7, whatsappId: 1 });
    await runInboundMessage(f.ports, whatsapp, msg('hello again'));
    expect(f.stored.size).toBe(1);
    expect(f.sent).toEqual([]);
  });
});

describe('inbound pipeline: a message that could not be decrypted', () => {
  const lost = (wid: string) => msg('', { wid, undecryptable: true });

  it('its placeholder is stored in a new pending ticket, and nothing answers it: no menu, greeting, transfer or assistant', async () => {
    const f = fakes();
    const out = await runInboundMessage(f.ports, whatsapp, lost('W-LOST'));
    expect(out).toEqual(expect.objectContaining({ placeholder: true }));
    expect(f.tickets).toHaveLength(1);
    expect(f.tickets[0]!.status).toBe('pending');
    expect(f.stored.get('W-LOST')).toBe(1);
    expect(f.sent).toEqual([]);
    expect(f.transfers).toEqual([]);
    const prompted = fakes({}, { features: { useOpenAi: true, useIntegrations: true } });
    await runInboundMessage(prompted.ports, { ...whatsapp, promptId: 5 } as Whatsapp, lost('W-LOST'));
    expect(prompted.assisted).toEqual([]);
  });

  it('a repeated report of it stores nothing twice', async () => {
    const f = fakes();
    await runInboundMessage(f.ports, whatsapp, lost('W-LOST'));
    expect(await runInboundMessage(f.ports, whatsapp, lost('W-LOST'))).toEqual({ duplicate: true });
    expect(f.stored.size).toBe(1);
  });

  it('the real message that replaces it gets what was held back, once, as the first message of the ticket the placeholder opened', async () => {
    const f = fakes();
    await runInboundMessage(f.ports, whatsapp, lost('W-LOST'));
    await runInboundMessage(f.ports, whatsapp, msg('hi', { wid: 'W-LOST' }));
    expect(f.sent).toEqual([{ ticketId: 1, body: 'Hello Maria! Choose:\n\n*[ 1 ]* - Sales\n*[ 2 ]* - Support' }]);
    // the transfer of a new ticket the bot could not route
    expect(f.transfers).toEqual([1]);
    // a redelivery of the real message is a duplicate
    expect(await runInboundMessage(f.ports, whatsapp, msg('hi', { wid: 'W-LOST' }))).toEqual({ duplicate: true });
    expect(f.sent).toHaveLength(1);
    // the greeting of a connection without queues opens a new ticket: the one the placeholder opened
    const noQueues = { ...whatsapp, queueIds: [], greetingMessage: 'Welcome!' } as unknown as Whatsapp;
    const g = fakes();
    await runInboundMessage(g.ports, noQueues, lost('W-2'));
    expect(g.sent).toEqual([]);
    await runInboundMessage(g.ports, noQueues, msg('hello', { wid: 'W-2' }));
    expect(g.sent).toEqual([{ ticketId: 1, body: 'Welcome!' }]);
  });

  it('an awaited rating is neither answered nor ended by it (nobody knows what it said)', async () => {
    const f = fakes();
    f.tickets.push({ id: 1, status: 'closed', queueId: 11, userId: 4, isGroup: false, contactId: 7, whatsappId: 1 });
    f.setAwaited({ ticketId: 1, userId: 4, askedAt: 0 });
    await runInboundMessage(f.ports, whatsapp, lost('W-LOST'));
    expect(f.ratings).toEqual([]);
    expect(await f.ports.awaitedRating({ id: 7, name: 'Maria Silva' })).toBeDefined();
  });

  it('groups ignored with CheckMsgIsGroup enabled: no placeholder either', async () => {
    const f = fakes();
    await runInboundMessage(
      f.ports,
      whatsapp,
      msg('', { wid: 'W-G', undecryptable: true, isGroup: true, chatJid: '1@g.us' }),
    );
    expect(f.stored.size).toBe(0);
  });
});

describe('inbound pipeline: prompts and integrations', () => {
  const withPrompt = { ...whatsapp, promptId: 5 } as Whatsapp;

  it('a connection with a prompt hands the message to it instead of the chatbot', async () => {
    const f = fakes();
    await runInboundMessage(f.ports, withPrompt, msg('hi'));
    expect(f.assisted).toEqual([{ ticketId: 1, target: { kind: 'prompt', id: 5 }, body: 'hi' }]);
    expect(f.sent).toEqual([]);
  });

  it('a connection prompt answers even with no queues and no greeting', async () => {
    const f = fakes();
    const bare = { ...withPrompt, queueIds: [], greetingMessage: '' } as unknown as Whatsapp;
    await runInboundMessage(f.ports, bare, msg('hi'));
    expect(f.assisted.map((a) => a.target)).toEqual([{ kind: 'prompt', id: 5 }]);
  });

  it('choosing a queue with an integration hands that same message to the integration', async () => {
    const f = fakes(undefined, { queueLinks: { 12: { integrationId: 9 } } });
    await runInboundMessage(f.ports, whatsapp, msg('hi'));
    expect(f.assisted).toEqual([]);
    await runInboundMessage(f.ports, whatsapp, msg('2'));
    expect(f.tickets[0]!.queueId).toBe(12);
    expect(f.assisted).toEqual([{ ticketId: 1, target: { kind: 'integration', id: 9 }, body: '2' }]);
    // later messages go straight to it
    await runInboundMessage(f.ports, whatsapp, msg('more'));
    expect(f.assisted.at(-1)).toEqual({ ticketId: 1, target: { kind: 'integration', id: 9 }, body: 'more' });
  });

  it('a ticket people took over from the bot is not handed back to it', async () => {
    const f = fakes(undefined, { handedToPeople: new Set([1]) });
    await runInboundMessage(f.ports, withPrompt, msg('hi'));
    expect(f.assisted).toEqual([]);
  });

  it('plan flags: without useOpenAi the prompt stays silent; without useIntegrations the integration does', async () => {
    const noAi = fakes(undefined, { features: { useOpenAi: false, useIntegrations: true } });
    await runInboundMessage(noAi.ports, withPrompt, msg('hi'));
    expect(noAi.assisted).toEqual([]);
    expect(noAi.sent).toHaveLength(1); // the chatbot greeting instead

    const noIntegrations = fakes(undefined, {
      queueLinks: { 12: { integrationId: 9 } },
      features: { useOpenAi: true, useIntegrations: false },
    });
    await runInboundMessage(noIntegrations.ports, whatsapp, msg('hi'));
    await runInboundMessage(noIntegrations.ports, whatsapp, msg('2'));
    expect(noIntegrations.assisted).toEqual([]);
  });

  it('an open ticket (an attendant took it) never reaches the bot', async () => {
    const f = fakes();
    f.tickets.push({ id: 1, status: 'open', queueId: 11, userId: 4, isGroup: false, contactId: 7, whatsappId: 1 });
    await runInboundMessage(f.ports, withPrompt, msg('hello'));
    expect(f.assisted).toEqual([]);
  });
});
