/**
 * The automation engine (issue 40 item 2), run by the `automation` queue's consumer and timer, never
 * on a request's path. For one event: one BatchGet reads the ticket and the rules' version item
 * (rules.ts); the company's parsed rule set is kept per instance by version, so the cost does not
 * grow with the number of rules. Each rule of the event (in order) whose chain does not already hold
 * it and whose conditions hold on the ticket as it is now runs its actions as the system, inside the
 * loop guard's context (emit.ts `runInChain`), and its run is logged (runs.ts).
 *
 * Pieces for reuse (macros): `conditionsHold` (conditions.ts, pure), `factsOf` and `runActions`.
 */
import { isWithinHours } from '#shared/business-hours';
import { fillVariables, protocolOf } from '#shared/message-variables';
import {
  AUTOMATION_ACTIONS_PER_TICKET_HOUR,
  MAX_AUTOMATION_CHAIN,
  type AutomationAction,
  type AutomationActionResult,
  type AutomationEventType,
  type AutomationRule,
} from '#shared/schemas/automation';
import type { Ticket } from '#shared/schemas/tickets';
import { contactVariables } from '#shared/schemas/custom-fields';
import type { QuickMessage } from '#shared/schemas/quick-messages';
import { getContact } from '../contacts/repo';
import { updateContact } from '../contacts/service';
import { loadFields } from '../custom-fields/repo';
import { setTicketFields } from '../custom-fields/service';
import { batchGet, getItem, putItem, updateItem } from '../db';
import { AppError } from '../errors';
import { ProviderError, postJson } from '../integrations/call';
import { pad } from '../keys';
import { log } from '../log';
import { sendMessage } from '../messages/send';
import { createSystemNote } from '../notes/service';
import { quickMessageKeys } from '../quick-messages/service';
import { getCompanySchedules } from '../settings';
import { setTicketTags } from '../tags/service';
import { assignInTurn } from '../tickets/assignment';
import { ticketKeys, toStored, toTicket, type StoredTicket } from '../tickets/repo';
import { updateTicket } from '../tickets/service';
import { conditionsHold, describeCondition, type ConditionFacts } from './conditions';
import { automationDueKeys, runInChain, type AutomationEventInput } from './emit';
import { loadRuleSet, rulesVersionKeys, summaryOf } from './rules';
import { newRunId, recordRun } from './runs';

/** The per-ticket hourly budget: `C#<cid>#AUTOCAP` / `T#<pad(ticketId)>#<hour>` {n}, TTL two hours. */
export const capKeys = (companyId: number, ticketId: number, hour: string) => ({
  pk: `C#${companyId}#AUTOCAP`,
  sk: `T#${pad(ticketId)}#${hour}`,
});

/** Takes one action's slot of the ticket's hour; false when AUTOMATION_ACTIONS_PER_TICKET_HOUR are used. */
async function takeSlot(companyId: number, ticketId: number, now: Date): Promise<boolean> {
  const hour = now.toISOString().slice(0, 13);
  // a refused condition reads as undefined: the hour's budget is spent
  const taken = await updateItem(capKeys(companyId, ticketId, hour), {
    add: { n: 1 },
    set: { ttl: Math.floor(now.getTime() / 1000) + 7200 },
    condition: 'attribute_not_exists(#n) OR #n < :max',
    conditionNames: { '#n': 'n' },
    conditionValues: { ':max': AUTOMATION_ACTIONS_PER_TICKET_HOUR },
  });
  return taken !== undefined;
}

/** The facts the conditions read: the ticket, the event's message, the hours and the fields they name. */
export async function factsOf(
  companyId: number,
  ticket: StoredTicket,
  opts: { messageText?: string; needHours?: boolean; needContact?: boolean; now?: Date },
): Promise<ConditionFacts> {
  const [schedules, contact] = await Promise.all([
    opts.needHours ? getCompanySchedules(companyId) : undefined,
    opts.needContact ? getContact(companyId, ticket.contactId) : undefined,
  ]);
  return {
    queueId: ticket.queueId,
    whatsappId: ticket.whatsappId,
    tagIds: ticket.tagIds ?? [],
    userId: ticket.userId,
    status: ticket.status,
    withinHours: schedules ? isWithinHours(schedules, opts.now ?? new Date()) : true,
    messageText: opts.messageText ?? ticket.lastMessage ?? '',
    contactFields: contact?.customFields ?? {},
    ticketFields: ticket.customFields ?? {},
  };
}

/** A message's text with the message variables filled for the ticket's contact. */
export async function fillFor(
  companyId: number,
  ticket: Pick<Ticket, 'id' | 'contactId'>,
  text: string,
  now = new Date(),
) {
  if (!/\{\{/.test(text)) return text;
  const contact = await getContact(companyId, ticket.contactId);
  const fields =
    contact && /\{\{\s*contact\./i.test(text) ? contactVariables(await loadFields(companyId), contact) : undefined;
  return fillVariables(text, {
    contactName: contact?.name ?? '',
    now,
    protocol: protocolOf(now, ticket.id),
    contactFields: fields,
  });
}

/** What a run is about: the company, the ticket, and the rule behind it (for waits and the chain). */
export interface ActionContext {
  companyId: number;
  ticketId: number;
  /** the rules whose actions these are, the acting one last (the loop guard) */
  chain: number[];
  rule?: Pick<AutomationRule, 'id' | 'name'>;
  event?: AutomationEventType;
  now?: Date;
}

async function currentTicket(companyId: number, ticketId: number) {
  const item = await getItem(ticketKeys(companyId, ticketId));
  if (!item) throw new AppError('ERR_NO_TICKET_FOUND');
  return toStored(item);
}

const reasonOf = (err: unknown) =>
  err instanceof AppError
    ? err.code
    : err instanceof ProviderError
      ? 'ERR_AUTOMATION_WEBHOOK'
      : 'ERR_INTERNAL_SERVER_ERROR';

/** Runs one action as the system. */
async function runAction(ctx: ActionContext, a: Exclude<AutomationAction, { type: 'wait' }>) {
  const { companyId, ticketId } = ctx;
  const ticket = await currentTicket(companyId, ticketId);
  switch (a.type) {
    case 'assign_user':
      await updateTicket(companyId, ticketId, { userId: a.userId, status: 'open' }, null);
      return;
    case 'assign_queue':
      await updateTicket(companyId, ticketId, { queueId: a.queueId, userId: null, status: 'pending' }, null);
      if (a.roundRobin) await assignInTurn(companyId, a.queueId, ticketId);
      return;
    case 'add_tag':
      if (!ticket.tagIds.includes(a.tagId)) await setTicketTags(companyId, null, ticketId, [...ticket.tagIds, a.tagId]);
      return;
    case 'remove_tag':
      if (ticket.tagIds.includes(a.tagId))
        await setTicketTags(
          companyId,
          null,
          ticketId,
          ticket.tagIds.filter((id) => id !== a.tagId),
        );
      return;
    case 'set_field':
      if (a.entity === 'ticket') await setTicketFields(companyId, null, ticketId, { [a.key]: a.value });
      else await updateContact(companyId, ticket.contactId, { customFields: { [a.key]: a.value } });
      return;
    case 'send_message':
      await sendMessage(companyId, toTicket(ticket), {
        body: await fillFor(companyId, ticket, a.body),
        automatic: true,
      });
      return;
    case 'send_quick_message': {
      const q = (await getItem(quickMessageKeys(companyId, a.quickMessageId))) as QuickMessage | undefined;
      if (!q) throw new AppError('ERR_AUTOMATION_REFERENCE');
      await sendMessage(companyId, toTicket(ticket), {
        body: await fillFor(companyId, ticket, q.message ?? ''),
        automatic: true,
      });
      return;
    }
    case 'add_note':
      await createSystemNote(companyId, ticket, await fillFor(companyId, ticket, a.body));
      return;
    case 'set_status':
      if (a.message)
        await sendMessage(companyId, toTicket(ticket), {
          body: await fillFor(companyId, ticket, a.message),
          automatic: true,
        });
      await updateTicket(companyId, ticketId, { status: a.status }, null);
      return;
    case 'webhook': {
      const signal = AbortSignal.timeout(10_000);
      await postJson(
        a.url,
        { event: ctx.event ?? null, ruleId: ctx.rule?.id ?? null, ticket: toTicket(ticket) },
        signal,
      );
      return;
    }
  }
}

/**
 * Runs `actions` in order as the system, each under the ticket's hourly budget (beyond it:
 * `skipped`/`capped`, and so are the rest). A failed action is `failed` with its ERR_* code and the
 * next ones still run. A `wait` stores the remaining actions as a due item (the automation timer
 * resumes them) and ends this part of the run. Events the actions cause carry `ctx.chain`.
 */
export async function runActions(ctx: ActionContext, actions: AutomationAction[]): Promise<AutomationActionResult[]> {
  const results: AutomationActionResult[] = [];
  const now = ctx.now ?? new Date();
  await runInChain(ctx.chain, async () => {
    let capped = false;
    for (let i = 0; i < actions.length; i++) {
      const a = actions[i]!;
      if (a.type === 'wait') {
        const due = new Date(now.getTime() + a.minutes * 60_000).toISOString();
        const rest = actions.slice(i + 1);
        const key = automationDueKeys(ctx.companyId, ctx.ticketId, due, newRunId());
        await putItem({
          ...key,
          key,
          kind: 'resume',
          companyId: ctx.companyId,
          ticketId: ctx.ticketId,
          chain: ctx.chain,
          ruleId: ctx.rule?.id ?? null,
          name: ctx.rule?.name ?? '',
          event: ctx.event ?? null,
          actions: rest,
          due,
        });
        results.push({ type: 'wait', outcome: 'waiting' });
        return;
      }
      if (capped || !(await takeSlot(ctx.companyId, ctx.ticketId, now))) {
        capped = true;
        results.push({ type: a.type, outcome: 'skipped', reason: 'capped' });
        continue;
      }
      try {
        await runAction(ctx, a);
        results.push({ type: a.type, outcome: 'done' });
      } catch (err) {
        log.warn('automation action failed', {
          companyId: ctx.companyId,
          ticketId: ctx.ticketId,
          ruleId: ctx.rule?.id,
          action: a.type,
          error: (err as Error).message,
        });
        results.push({ type: a.type, outcome: 'failed', reason: reasonOf(err) });
      }
    }
  });
  return results;
}

async function logRun(
  ctx: ActionContext & { rule: Pick<AutomationRule, 'id' | 'name'>; event: AutomationEventType },
  matched: string[],
  results: AutomationActionResult[],
) {
  const ticket = await getItem(ticketKeys(ctx.companyId, ctx.ticketId));
  const t = ticket ? toStored(ticket) : { id: ctx.ticketId, status: 'closed' as const, queueId: null, userId: null };
  await recordRun(
    {
      id: newRunId(),
      companyId: ctx.companyId,
      ruleId: ctx.rule.id,
      macroId: null,
      name: ctx.rule.name,
      ticketId: ctx.ticketId,
      event: ctx.event,
      matched,
      actions: results,
      userId: null,
      at: (ctx.now ?? new Date()).toISOString(),
    },
    t,
  );
}

/**
 * One event: the rules of its type (and minutes, for the timed ones) that its chain does not hold,
 * each evaluated on the ticket as it is now and run when its conditions hold. An event deeper than
 * MAX_AUTOMATION_CHAIN is not evaluated.
 */
export async function handleAutomationEvent(
  companyId: number,
  event: AutomationEventInput,
  chain: number[],
  now = new Date(),
): Promise<{ ran: number[] }> {
  const ran: number[] = [];
  if (chain.length > MAX_AUTOMATION_CHAIN) return { ran };
  const items = await batchGet([ticketKeys(companyId, event.ticketId), rulesVersionKeys(companyId)]);
  const ticketItem = items.find((i) => i.sk === ticketKeys(companyId, event.ticketId).sk);
  if (!ticketItem) return { ran };
  const { v } = summaryOf(items.find((i) => i.sk === 'VERSION'));
  const set = await loadRuleSet(companyId, v);
  const rules = (set.byEvent.get(event.type) ?? []).filter(
    (r) => !chain.includes(r.id) && (r.event.minutes === undefined || r.event.minutes === event.minutes),
  );
  // every rule is judged on the ticket as the event found it; what their actions change is heard
  // through the events those changes emit (carrying the chain), not by the rules after them here
  const ticket = toStored(ticketItem);
  // the facts are read once per event, whatever the number of rules (hours and contact only when a rule asks)
  const facts = await factsOf(companyId, ticket, {
    messageText: event.messageText,
    needHours: rules.some((r) => r.conditions.some((c) => c.type === 'business_hours')),
    needContact: rules.some((r) => r.conditions.some((c) => c.type === 'field' && c.entity === 'contact')),
    now,
  });
  const matching = rules.filter((rule) => conditionsHold(rule.conditions, facts));
  for (const rule of matching) {
    const ctx = { companyId, ticketId: ticket.id, chain: [...chain, rule.id], rule, event: event.type, now };
    const results = await runActions(ctx, rule.actions);
    await logRun(ctx, rule.conditions.map(describeCondition), results);
    ran.push(rule.id);
  }
  return { ran };
}

/** A wait ended: the rest of a rule's actions run (logged as a run of their own). */
export async function resumeActions(
  due: {
    companyId: number;
    ticketId: number;
    chain: number[];
    ruleId: number | null;
    name: string;
    event: AutomationEventType | null;
    actions: AutomationAction[];
  },
  now = new Date(),
) {
  const exists = await getItem(ticketKeys(due.companyId, due.ticketId));
  if (!exists) return;
  const rule = due.ruleId !== null ? { id: due.ruleId, name: due.name } : undefined;
  const ctx = {
    companyId: due.companyId,
    ticketId: due.ticketId,
    chain: due.chain,
    rule,
    event: due.event ?? undefined,
    now,
  };
  const results = await runActions(ctx, due.actions);
  if (rule && due.event) await logRun({ ...ctx, rule, event: due.event }, ['resumed after wait'], results);
}
