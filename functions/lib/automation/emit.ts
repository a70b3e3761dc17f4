/**
 * Where things happen, `emitAutomationEvent` hands the event to the `automation` queue (jobs/automation.ts),
 * never evaluating rules on the request's path. It costs nothing when no active rule of the company
 * listens for the event: each instance keeps a view of which event types have active rules (the
 * rules' version item, rules.ts), forgotten in-process on a rule write and re-read after
 * ACTIVE_EVENTS_TTL_MS, so another instance sees a rule written elsewhere at most that late.
 *
 * Loop guard: an event emitted while a rule's actions run (inside `runInChain`) carries the chain
 * of rule ids behind it; one deeper than MAX_AUTOMATION_CHAIN is dropped here already.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { MAX_AUTOMATION_CHAIN, type AutomationEventType } from '#shared/schemas/automation';
import { deleteItem, getItem, putItem } from '../db';
import { dueShardPk } from '../due';
import { pad } from '../keys';
import { log } from '../log';
import { remember } from '../lru';
import { enqueue } from '../queue';
import { rulesVersionKeys, summaryOf, type RulesSummary } from './rules';

export const ACTIVE_EVENTS_TTL_MS = 30_000;
const MAX_VIEWS = 5_000;
const views = new Map<number, { summary: RulesSummary; at: number }>();
export const forgetActiveEvents = (companyId: number) => views.delete(companyId);

/** What the company's active rules listen for, as this instance knows it. */
export async function activeRules(companyId: number): Promise<RulesSummary> {
  const kept = views.get(companyId);
  if (kept && Date.now() - kept.at < ACTIVE_EVENTS_TTL_MS) return kept.summary;
  const summary = summaryOf(await getItem(rulesVersionKeys(companyId)));
  remember(views, companyId, { summary, at: Date.now() }, MAX_VIEWS);
  return summary;
}

const chainContext = new AsyncLocalStorage<number[]>();
/** Runs `fn` as the actions of the rules `chain` (the last one acting): events it causes carry it. */
export const runInChain = <T>(chain: number[], fn: () => Promise<T>) => chainContext.run(chain, fn);
export const currentChain = () => chainContext.getStore() ?? [];

export interface AutomationEventInput {
  type: AutomationEventType;
  ticketId: number;
  /** the customer's message (message_received) */
  messageText?: string;
  /** the tag added (tag_added) */
  tagId?: number;
  /** the timed events' minutes */
  minutes?: number;
}
export interface AutomationJob {
  kind: 'event';
  companyId: number;
  event: AutomationEventInput;
  chain: number[];
  at: string;
}

/** Never throws: an event that cannot be queued is logged, the action that caused it stands. */
export async function emitAutomationEvent(companyId: number, event: AutomationEventInput) {
  try {
    const chain = currentChain();
    if (chain.length > MAX_AUTOMATION_CHAIN) return;
    const { events } = await activeRules(companyId);
    if (!events.includes(event.type)) return;
    const job: AutomationJob = { kind: 'event', companyId, event, chain, at: new Date().toISOString() };
    await enqueue('automation', job);
  } catch (err) {
    log.error('automation event not queued', { companyId, type: event.type, error: (err as Error).message });
  }
}

/** Due items of the automation timer (functions/lib/due.ts): waits and the `no_*_reply` checks. */
export const AUTOMATION_DUE_PREFIX = 'AUTODUE';
export const AUTOMATION_DUE_SHARDS = 4;
export const automationDueKeys = (companyId: number, ticketId: number, due: string, tail: string) => ({
  pk: dueShardPk(AUTOMATION_DUE_PREFIX, (companyId + ticketId) % AUTOMATION_DUE_SHARDS),
  sk: `${due}#${companyId}#${pad(ticketId)}#${tail}`,
});

export interface TimedDue {
  kind: 'timed';
  companyId: number;
  ticketId: number;
  type: 'no_customer_reply' | 'no_agent_reply';
  minutes: number;
  /** the message time it counts from: fires only if the ticket's mark is still this one */
  since: string;
}

const OTHER: Record<TimedDue['type'], TimedDue['type']> = {
  no_agent_reply: 'no_customer_reply',
  no_customer_reply: 'no_agent_reply',
};

/**
 * A message that starts a `no_*_reply` wait was stored (`no_agent_reply`: the customer's;
 * `no_customer_reply`: an attendant's): one due item per distinct `minutes` of the active rules. It
 * also ends the other side's wait: its checks, counted from `answered` (the ticket's mark of the other
 * side's last message), go. (Message times come in whole seconds from WhatsApp, so an answer in the
 * same second could not be told from the message it answers by time alone.)
 */
export async function scheduleReplyChecks(
  companyId: number,
  ticketId: number,
  type: TimedDue['type'],
  since: string,
  answered?: string | null,
) {
  try {
    const { timed } = await activeRules(companyId);
    for (const minutes of timed[type] ?? []) {
      const due = new Date(Date.parse(since) + minutes * 60_000).toISOString();
      const item: TimedDue = { kind: 'timed', companyId, ticketId, type, minutes, since };
      const key = automationDueKeys(companyId, ticketId, due, `${type}#${minutes}`);
      await putItem({ ...key, ...item, key, due });
    }
    const other = OTHER[type];
    if (answered)
      for (const minutes of timed[other] ?? []) {
        const due = new Date(Date.parse(answered) + minutes * 60_000).toISOString();
        await deleteItem(automationDueKeys(companyId, ticketId, due, `${other}#${minutes}`));
      }
  } catch (err) {
    log.error('automation reply check not scheduled', { companyId, ticketId, error: (err as Error).message });
  }
}
