import type { AutomationAction, AutomationEventType } from '#shared/schemas/automation';
import { deleteItem, getItem, type Key } from '../db';
import { dueAcrossShards } from '../due';
import { log } from '../log';
import { ticketKeys, toStored } from '../tickets/repo';
import { handleAutomationEvent, resumeActions } from './engine';
import { AUTOMATION_DUE_PREFIX, AUTOMATION_DUE_SHARDS, type TimedDue } from './emit';

type ResumeDue = {
  kind: 'resume';
  companyId: number;
  ticketId: number;
  chain: number[];
  ruleId: number | null;
  name: string;
  event: AutomationEventType | null;
  actions: AutomationAction[];
};
type Due = (TimedDue | ResumeDue) & { key: Key; due: string };

/**
 * A `no_*_reply` check fires only when nothing changed since the message it counts from: the
 * ticket's mark (customerMessageAt / agentMessageAt) is still that message's time and nobody on the
 * other side wrote after it; a closed ticket never fires.
 */
async function stillSilent(d: TimedDue): Promise<boolean> {
  const item = await getItem(ticketKeys(d.companyId, d.ticketId));
  if (!item) return false;
  const t = toStored(item);
  if (t.status === 'closed') return false;
  const customer = t.customerMessageAt ?? null;
  const agent = (t as { agentMessageAt?: string | null }).agentMessageAt ?? null;
  if (d.type === 'no_agent_reply') return customer === d.since && !(agent && agent > d.since);
  return agent === d.since && !(customer && customer > d.since);
}

/**
 * Timer `automation` (every minute, platform-wide): waits whose time came resume their actions;
 * `no_*_reply` checks that fell due fire their event when the ticket stayed silent. A handled item
 * goes; a failed one stays for the next run.
 */
export async function runAutomationTimer(now = new Date()) {
  let fired = 0;
  let resumed = 0;
  for (;;) {
    const due = await dueAcrossShards<Due>(AUTOMATION_DUE_PREFIX, AUTOMATION_DUE_SHARDS, now);
    if (!due.length) break;
    let failed = 0;
    for (const d of due) {
      try {
        if (d.kind === 'timed') {
          if (await stillSilent(d)) {
            await handleAutomationEvent(
              d.companyId,
              { type: d.type, ticketId: d.ticketId, minutes: d.minutes },
              [],
              now,
            );
            fired++;
          }
        } else {
          await resumeActions(d, now);
          resumed++;
        }
        await deleteItem(d.key);
      } catch (err) {
        failed++;
        log.error('automation due item failed', {
          companyId: d.companyId,
          ticketId: d.ticketId,
          error: (err as Error).message,
        });
      }
    }
    if (failed) break;
  }
  return { fired, resumed };
}
