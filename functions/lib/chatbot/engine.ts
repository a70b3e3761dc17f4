/**
 * The chatbot's decisions, as a pure function: given the ticket, the connection, its queues, the
 * option tree, the settings and the clock, what does the bot say and where does the ticket go?
 * The inbound pipeline gathers the inputs and applies the actions (functions/lib/chatbot/apply.ts).
 *
 * Rules (issue 5 "Rules"; management.md "Queues"):
 * - never answer our own messages, a group, or a ticket an attendant has taken (open / with a user);
 * - the connection's greeting opens the conversation; one queue: assign it directly (greeting only
 *   with `sendGreetingMessageOneQueues`); several queues: greeting + numbered queue menu, routed by
 *   the reply; invalid replies repeat the menu;
 * - a queue's option tree is walked with the reply numbers, `0` goes up a level, `#` back to the start;
 * - `maxUseBotQueues` bounds how many times the bot sends the queue menu or repeats a menu after an
 *   invalid reply (walking the tree is progress and does not count); after that it stays quiet
 *   until `timeUseBotQueues` minutes have passed since it last spoke (0: until a person takes over),
 *   so two bots can never loop;
 * - out of hours (`scheduleType` company, or queue for the chosen queue): the out-of-hours message
 *   is sent and the ticket stays pending.
 */

export interface BotQueue {
  id: number;
  name: string;
  greetingMessage?: string;
  outOfHoursMessage?: string;
}

export interface BotOption {
  id: number;
  title: string;
  message?: string;
  option: string | number;
  parentId: number | null;
  children?: BotOption[];
}

export interface BotState {
  /** where the conversation is: the queue menu, or a node of the chosen queue's option tree */
  stage: 'queues' | 'options' | 'done';
  queueId?: number | null;
  /** the option whose children are being offered (null: the queue's top level) */
  optionId?: number | null;
  /** menus sent in this ticket */
  menus: number;
  /** epoch ms the bot last spoke */
  lastBotAt?: number;
}

export interface BotInput {
  message: { body: string; fromMe: boolean };
  ticket: { status: string; queueId: number | null; userId: number | null; isGroup: boolean };
  /** the ticket was created by this message */
  isNewTicket: boolean;
  state: BotState | undefined;
  connection: { greetingMessage: string; outOfHoursMessage: string; maxUseBotQueues: number; timeUseBotQueues: number };
  /** the connection's queues, in menu order */
  queues: BotQueue[];
  /** option tree (top-level nodes with nested children) per queue id */
  options: Record<number, BotOption[]>;
  settings: { sendGreetingMessageOneQueues: string; scheduleType: string };
  /** business hours: `queueId` undefined asks for the company's hours */
  isOpen: (queueId?: number) => boolean;
  now: number;
}

export type BotAction =
  | { type: 'send'; body: string }
  | { type: 'setQueue'; queueId: number }
  | { type: 'saveState'; state: BotState }
  | { type: 'outOfHours' };

const line = (n: string | number, title: string) => `*[ ${n} ]* - ${title}`;
const join = (...parts: (string | undefined)[]) => parts.filter((p) => p?.trim()).join('\n\n');

export const BACK = '0';
export const RESTART = '#';

export function queueMenu(greeting: string, queues: BotQueue[]) {
  return join(greeting, queues.map((q, i) => line(i + 1, q.name)).join('\n'));
}

export function optionsMenu(header: string | undefined, children: BotOption[], nested: boolean) {
  const items = sortOptions(children).map((o) => line(o.option, o.title));
  if (nested) items.push(line(BACK, 'Voltar'));
  items.push(line(RESTART, 'Menu inicial'));
  return join(header, items.join('\n'));
}

const sortOptions = (list: BotOption[]) =>
  [...list].sort((a, b) => Number(a.option) - Number(b.option) || String(a.option).localeCompare(String(b.option)));

function findOption(tree: BotOption[], id: number | null | undefined): BotOption | undefined {
  for (const node of tree) {
    if (node.id === id) return node;
    const inner = findOption(node.children ?? [], id);
    if (inner) return inner;
  }
  return undefined;
}

/** The menu budget: spent after maxUseBotQueues menus, refilled timeUseBotQueues minutes after the bot last spoke. */
function budget(state: BotState | undefined, input: BotInput): BotState | undefined {
  if (!state) return undefined;
  const max = input.connection.maxUseBotQueues;
  if (!max || state.menus < max) return state;
  const coolMs = input.connection.timeUseBotQueues * 60_000;
  if (coolMs > 0 && state.lastBotAt !== undefined && input.now - state.lastBotAt >= coolMs)
    return { ...state, menus: 0 };
  return state;
}

export function decide(input: BotInput): BotAction[] {
  const { message, ticket, connection, queues } = input;
  if (message.fromMe || ticket.isGroup) return [];
  if (ticket.userId !== null || ticket.status !== 'pending') return [];
  const state = budget(input.state, input);
  if (state?.stage === 'done') return [];
  const max = connection.maxUseBotQueues;
  const spent = Boolean(state && max && state.menus >= max);
  const speak = (actions: BotAction[], next: Omit<BotState, 'menus' | 'lastBotAt'>, counts = true): BotAction[] => {
    if (counts && spent) return [];
    const menus = (state?.menus ?? 0) + (counts ? 1 : 0);
    return [...actions, { type: 'saveState', state: { ...next, menus, lastBotAt: input.now } }];
  };

  // Company hours come first: outside them nobody is routed, the contact is told and waits.
  if (input.settings.scheduleType === 'company' && !input.isOpen()) {
    if (spent) return [];
    return speak(
      [
        { type: 'outOfHours' },
        ...(connection.outOfHoursMessage ? [{ type: 'send' as const, body: connection.outOfHoursMessage }] : []),
      ],
      // the conversation resumes where it was once the company opens
      { stage: state?.stage ?? 'queues', queueId: state?.queueId ?? ticket.queueId, optionId: state?.optionId ?? null },
    );
  }

  /** The chosen queue: its out-of-hours rule, greeting and option tree. */
  const enterQueue = (queue: BotQueue, pre: BotAction[], greeting: string | undefined): BotAction[] => {
    const actions: BotAction[] = [...pre, { type: 'setQueue', queueId: queue.id }];
    if (input.settings.scheduleType === 'queue' && !input.isOpen(queue.id)) {
      const body = queue.outOfHoursMessage || connection.outOfHoursMessage;
      return speak(
        [...actions, { type: 'outOfHours' }, ...(body ? [{ type: 'send' as const, body }] : [])],
        { stage: 'done', queueId: queue.id },
        false,
      );
    }
    const tree = input.options[queue.id] ?? [];
    if (tree.length) {
      return speak(
        [...actions, { type: 'send', body: optionsMenu(join(greeting, queue.greetingMessage), tree, false) }],
        {
          stage: 'options',
          queueId: queue.id,
          optionId: null,
        },
        false,
      );
    }
    const text = join(greeting, queue.greetingMessage);
    return speak(
      [...actions, ...(text ? [{ type: 'send' as const, body: text }] : [])],
      { stage: 'done', queueId: queue.id },
      false,
    );
  };

  if (!queues.length) {
    // No queues: the greeting opens a new ticket, nothing to route.
    if (!input.isNewTicket || !connection.greetingMessage) return [];
    return speak([{ type: 'send', body: connection.greetingMessage }], { stage: 'done' }, false);
  }

  if (queues.length === 1 && !state) {
    const greeting = input.settings.sendGreetingMessageOneQueues === 'enabled' ? connection.greetingMessage : undefined;
    return enterQueue(queues[0]!, [], greeting);
  }

  const reply = message.body.trim();
  const showQueues = () =>
    speak([{ type: 'send', body: queueMenu(connection.greetingMessage, queues) }], { stage: 'queues' });

  if (!state || state.stage === 'queues') {
    if (!state) return showQueues();
    const index = /^\d+$/.test(reply) ? Number(reply) - 1 : -1;
    const chosen = queues[index];
    if (!chosen) return showQueues();
    return enterQueue(chosen, [], undefined);
  }

  // Walking the chosen queue's option tree.
  const queue = queues.find((q) => q.id === state.queueId);
  const tree = queue ? (input.options[queue.id] ?? []) : [];
  if (!queue || !tree.length) return [];
  const parent = state.optionId ? findOption(tree, state.optionId) : undefined;
  const siblings = parent ? (parent.children ?? []) : tree;
  // Moving through the tree is progress; only a repeated menu (invalid reply) spends the budget.
  const showNode = (node: BotOption | undefined, repeat = false) =>
    speak(
      [
        {
          type: 'send',
          body: optionsMenu(
            node ? node.message || node.title : queue.greetingMessage,
            node ? (node.children ?? []) : tree,
            Boolean(node) || queues.length > 1,
          ),
        },
      ],
      { stage: 'options', queueId: queue.id, optionId: node?.id ?? null },
      repeat,
    );

  if (reply === RESTART) return queues.length > 1 ? showQueues() : showNode(undefined);
  if (reply === BACK) {
    if (!parent) return queues.length > 1 ? showQueues() : showNode(undefined);
    return showNode(parent.parentId ? findOption(tree, parent.parentId) : undefined);
  }
  const picked = siblings.find((o) => String(o.option).trim() === reply);
  if (!picked) return showNode(parent, true);
  if (picked.children?.length) return showNode(picked);
  // A leaf: its message is the answer; the conversation waits for an attendant.
  return speak(
    [...(picked.message ? [{ type: 'send' as const, body: picked.message }] : [])],
    { stage: 'done', queueId: queue.id, optionId: picked.id },
    false,
  );
}
