import type { Ticket } from '#shared/schemas/tickets';
import { channelEvent } from '#shared/events';
import { updateItem } from '../db';
import { log } from '../log';
import { companyConnections, postAll } from '../realtime';
import { listUsers } from '../accounts/users';
import { notifySlaBreach } from '../push/notify';
import { emitAutomationEvent } from '../automation/emit';
import { ticketKeys, toStored, toTicket } from '../tickets/repo';
import { publishTicketChange } from '../tickets/events';
import { countBreach } from './metrics';
import { dueSlaWakes, removeSlaWake, type SlaKind, type SlaWake } from './clock';

const FIELDS: Record<SlaKind, { due: string; flag: string }> = {
  firstResponse: { due: 'slaFirstResponseDueAt', flag: 'slaFirstResponseBreached' },
  resolution: { due: 'slaResolutionDueAt', flag: 'slaResolutionBreached' },
};

/**
 * Timer `sla` (every minute, platform-wide): each due wake-up is checked against its ticket. A
 * ticket still open or pending with that very deadline, not yet met (no first response, not
 * closed) and not yet marked, is marked breached by one conditional write, so a redelivered or
 * repeated wake-up marks it once. Then: the breach is counted in the metrics, the ticket's viewers
 * get the update, its attendant and the company's admins get `sla` breach, and Web Push tells them.
 * A wake-up is removed once handled; a failed one stays and is tried on the next run.
 */
export async function runSlaTimer(now = new Date()) {
  let checked = 0;
  let breached = 0;
  for (;;) {
    const due = await dueSlaWakes(now);
    if (!due.length) break;
    let failed = 0;
    for (const wake of due) {
      try {
        if (await markBreach(wake, now)) breached++;
        await removeSlaWake(wake);
        checked++;
      } catch (err) {
        failed++;
        log.error('sla breach check failed', {
          companyId: wake.companyId,
          ticketId: wake.ticketId,
          error: (err as Error).message,
        });
      }
    }
    // what failed stays due: stop rather than read it again in this run
    if (failed) break;
  }
  return { checked, breached };
}

async function markBreach(wake: SlaWake, now: Date): Promise<boolean> {
  const { due, flag } = FIELDS[wake.kind];
  const updated = await updateItem(ticketKeys(wake.companyId, wake.ticketId), {
    set: { [flag]: true },
    add: { version: 1 },
    condition: `attribute_exists(pk) AND #due = :due AND (attribute_not_exists(#flag) OR #flag = :false) AND #status IN (:open, :pending)${
      wake.kind === 'firstResponse' ? ' AND (attribute_not_exists(#first) OR attribute_type(#first, :nullType))' : ''
    }`,
    conditionNames: {
      '#due': due,
      '#flag': flag,
      '#status': 'status',
      ...(wake.kind === 'firstResponse' ? { '#first': 'firstResponseAt' } : {}),
    },
    conditionValues: {
      ':due': wake.dueAt,
      ':false': false,
      ':open': 'open',
      ':pending': 'pending',
      ...(wake.kind === 'firstResponse' ? { ':nullType': 'NULL' } : {}),
    },
  });
  if (!updated) return false;
  const ticket = toTicket(toStored(updated));
  // counted on the day it is found (a minute after the deadline at most): past days never change
  await countBreach(wake.companyId, ticket, now.toISOString());
  await announceBreach(wake, ticket);
  await emitAutomationEvent(wake.companyId, { type: 'sla_breached', ticketId: ticket.id });
  return true;
}

/** The ticket's viewers see the mark; its attendant and the admins get the breach itself, live and by push. */
async function announceBreach(wake: SlaWake, ticket: Ticket) {
  const { companyId } = wake;
  const [connections, users] = await Promise.all([companyConnections(companyId), listUsers(companyId)]);
  await publishTicketChange(companyId, ticket, ticket, 'update', connections);
  const told = connections.filter(
    (c) => c.profile === 'admin' || (ticket.userId !== null && c.userId === ticket.userId),
  );
  const message = {
    event: channelEvent(companyId, 'sla'),
    data: { action: 'breach', kind: wake.kind, dueAt: wake.dueAt, ticketId: ticket.id, ticket },
  };
  await postAll(told.map((conn) => ({ conn, message })));
  const userIds = [
    ...new Set([
      ...(ticket.userId !== null ? [ticket.userId] : []),
      ...users.filter((u) => u.profile === 'admin').map((u) => u.id),
    ]),
  ];
  await notifySlaBreach(companyId, ticket.id, userIds);
}
