import type { Audience, EventAction, EventName } from '#shared/events';
import { channelEvent } from '#shared/events';
import type { Ticket } from '#shared/schemas/tickets';
import { companyConnections, mayReceive, postToConnection, type WsConnection } from '../realtime';

type Scope = Pick<Ticket, 'id' | 'status' | 'queueId' | 'userId'>;
export const ticketAudience = (t: Scope): Audience => ({
  kind: 'ticket',
  ticketId: t.id,
  status: t.status,
  queueId: t.queueId,
  userId: t.userId,
});

/**
 * A ticket changed: connections that may see it now get `update`; those that could see it before
 * but no longer can (moved to a queue they are not in) get `delete`, so it leaves their lists.
 * One Query for the company's connections, then bounded fan-out.
 */
export async function publishTicketChange(
  companyId: number,
  before: Scope | null,
  after: Ticket,
  action: EventAction = 'update',
  known?: WsConnection[],
) {
  const connections = known ?? (await companyConnections(companyId));
  const sends: (() => Promise<unknown>)[] = [];
  for (const conn of connections) {
    if (mayReceive(conn, ticketAudience(after))) {
      sends.push(() =>
        postToConnection(conn, {
          event: channelEvent(companyId, 'ticket'),
          data: { action, ticket: after, ticketId: after.id },
        }),
      );
    } else if (before && mayReceive(conn, ticketAudience(before))) {
      sends.push(() =>
        postToConnection(conn, {
          event: channelEvent(companyId, 'ticket'),
          data: { action: 'delete', ticketId: after.id },
        }),
      );
    }
  }
  await runBounded(sends);
}

/** Any ticket-scoped event (appMessage, ticketNote, ticket delete/updateUnread) to those who may see the ticket. */
export async function publishToTicket(
  companyId: number,
  ticket: Scope,
  name: EventName,
  data: Record<string, unknown> & { action: EventAction },
  known?: WsConnection[],
) {
  const connections = (known ?? (await companyConnections(companyId))).filter((c) =>
    mayReceive(c, ticketAudience(ticket)),
  );
  await runBounded(
    connections.map((conn) => () => postToConnection(conn, { event: channelEvent(companyId, name), data })),
  );
}

const CONCURRENCY = 16;
async function runBounded(sends: (() => Promise<unknown>)[]) {
  let next = 0;
  const worker = async () => {
    while (next < sends.length) await sends[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, sends.length) }, worker));
}
