import { describe, it, expect } from 'vitest';
import { decide, type BotInput, type BotAction, type BotState } from './engine';

const queues = [
  { id: 11, name: 'Sales', greetingMessage: 'Welcome to sales' },
  { id: 12, name: 'Support', greetingMessage: 'Support here', outOfHoursMessage: 'Support is closed' },
];
const tree = [
  {
    id: 1,
    title: 'Billing',
    message: 'Billing menu',
    option: '1',
    parentId: null,
    children: [
      { id: 3, title: 'Second copy', message: 'Here is your second copy link', option: '1', parentId: 1, children: [] },
      { id: 4, title: 'Dispute', message: 'Tell us what happened', option: '2', parentId: 1, children: [] },
    ],
  },
  { id: 2, title: 'Technical', message: 'A technician will answer', option: '2', parentId: null, children: [] },
];

function input(over: Partial<BotInput> = {}): BotInput {
  return {
    message: { body: 'hi', fromMe: false },
    ticket: { status: 'pending', queueId: null, userId: null, isGroup: false },
    isNewTicket: true,
    state: undefined,
    connection: {
      greetingMessage: 'Hello! Choose:',
      outOfHoursMessage: 'We are closed',
      maxUseBotQueues: 3,
      timeUseBotQueues: 0,
    },
    queues,
    options: {},
    settings: { sendGreetingMessageOneQueues: 'disabled', scheduleType: 'disabled' },
    isOpen: () => true,
    now: 1_000_000,
    ...over,
  };
}
const sent = (actions: BotAction[]) =>
  actions.filter((a) => a.type === 'send').map((a) => (a as { body: string }).body);
const stateOf = (actions: BotAction[]) =>
  (actions.find((a) => a.type === 'saveState') as { state: BotState } | undefined)?.state;
const queueOf = (actions: BotAction[]) =>
  (actions.find((a) => a.type === 'setQueue') as { queueId: number } | undefined)?.queueId;

/** Runs a conversation: each reply goes through decide with the state the previous one saved. */
function talk(replies: string[], over: Partial<BotInput> = {}) {
  let state: BotState | undefined;
  let queueId: number | null = null;
  const log: BotAction[][] = [];
  replies.forEach((body, i) => {
    const actions = decide(
      input({
        ...over,
        message: { body, fromMe: false },
        state,
        isNewTicket: i === 0,
        ticket: { status: 'pending', queueId, userId: null, isGroup: false },
      }),
    );
    state = stateOf(actions) ?? state;
    queueId = queueOf(actions) ?? queueId;
    log.push(actions);
  });
  return { log, state, queueId };
}

describe('chatbot engine', () => {
  it('several queues: greeting + numbered queue menu, reply "2" routes to the second queue', () => {
    const { log, queueId } = talk(['hi', '2']);
    expect(sent(log[0]!)).toEqual(['Hello! Choose:\n\n*[ 1 ]* - Sales\n*[ 2 ]* - Support']);
    expect(queueId).toBe(12);
    expect(sent(log[1]!)).toEqual(['Support here']);
  });

  it('an invalid reply repeats the menu', () => {
    const { log, queueId } = talk(['hi', 'banana', '7']);
    expect(sent(log[1]!)).toEqual(sent(log[0]!));
    expect(sent(log[2]!)).toEqual(sent(log[0]!));
    expect(queueId).toBeNull();
  });

  it('maxUseBotQueues bounds the menus: after 3 the bot stays quiet (no loop with another bot)', () => {
    const { log } = talk(['hi', 'x', 'y', 'z', 'w']);
    expect(log.map((a) => sent(a).length)).toEqual([1, 1, 1, 0, 0]);
    // invalid replies inside the option tree spend the same budget
    const inTree = talk(['hi', '1', 'x', 'y', 'z'], { options: { 11: tree } });
    expect(inTree.log.map((a) => sent(a).length)).toEqual([1, 1, 1, 1, 0]);
  });

  it('timeUseBotQueues is the cool-down: once it passed since the bot spoke, the menu comes again', () => {
    const state: BotState = { stage: 'queues', menus: 3, lastBotAt: 0 };
    const quiet = decide(
      input({ state, isNewTicket: false, now: 4 * 60_000, connection: { ...input().connection, timeUseBotQueues: 5 } }),
    );
    expect(sent(quiet)).toEqual([]);
    const again = decide(
      input({ state, isNewTicket: false, now: 6 * 60_000, connection: { ...input().connection, timeUseBotQueues: 5 } }),
    );
    expect(sent(again)).toHaveLength(1);
  });

  it('one queue: assigned directly, without greeting unless sendGreetingMessageOneQueues is enabled', () => {
    const silent = decide(input({ queues: [queues[0]!] }));
    expect(queueOf(silent)).toBe(11);
    expect(sent(silent)).toEqual(['Welcome to sales']);
    const greeted = decide(
      input({ queues: [queues[0]!], settings: { sendGreetingMessageOneQueues: 'enabled', scheduleType: 'disabled' } }),
    );
    expect(sent(greeted)).toEqual(['Hello! Choose:\n\nWelcome to sales']);
  });

  it('nested options: walk the tree by number, 0 goes up a level, # back to the start, a leaf answers', () => {
    const over = { options: { 11: tree } };
    const { log, state } = talk(['hi', '1', '1', '0', '#', '1', '1', '2'], over);
    expect(sent(log[1]!)[0]).toContain('*[ 1 ]* - Billing');
    expect(sent(log[2]!)[0]).toContain('Billing menu');
    expect(sent(log[2]!)[0]).toContain('*[ 2 ]* - Dispute');
    expect(sent(log[3]!)[0]).toContain('*[ 2 ]* - Technical'); // up to the queue's top level
    expect(sent(log[4]!)[0]).toContain('*[ 2 ]* - Support'); // back to the queue menu
    expect(sent(log[7]!)).toEqual(['Tell us what happened']);
    expect(state).toMatchObject({ stage: 'done', queueId: 11, optionId: 4 });
  });

  it('never answers its own messages, groups, or tickets taken by an attendant', () => {
    expect(decide(input({ message: { body: 'hi', fromMe: true } }))).toEqual([]);
    expect(decide(input({ ticket: { status: 'pending', queueId: null, userId: null, isGroup: true } }))).toEqual([]);
    expect(decide(input({ ticket: { status: 'open', queueId: 11, userId: 5, isGroup: false } }))).toEqual([]);
  });

  it('out of hours (scheduleType company): out-of-hours message, no routing, ticket stays pending', () => {
    const actions = decide(
      input({ settings: { sendGreetingMessageOneQueues: 'disabled', scheduleType: 'company' }, isOpen: () => false }),
    );
    expect(sent(actions)).toEqual(['We are closed']);
    expect(queueOf(actions)).toBeUndefined();
    expect(actions.some((a) => a.type === 'outOfHours')).toBe(true);
  });

  it('out of hours (scheduleType queue): the chosen queue closed sends its out-of-hours message', () => {
    const { log, queueId } = talk(['hi', '2'], {
      settings: { sendGreetingMessageOneQueues: 'disabled', scheduleType: 'queue' },
      isOpen: (q) => q !== 12,
    });
    expect(queueId).toBe(12);
    expect(sent(log[1]!)).toEqual(['Support is closed']);
  });

  it('no queues: the greeting answers a new ticket once', () => {
    expect(sent(decide(input({ queues: [] })))).toEqual(['Hello! Choose:']);
    expect(sent(decide(input({ queues: [], isNewTicket: false })))).toEqual([]);
  });
});
