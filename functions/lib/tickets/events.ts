import type { Audience, EventAction, EventName } from '#shared/events';
import { channelEvent } from '#shared/events';
import type { Ticket } from '#shared/schemas/tickets';
import { viewersOf, type TicketViewersEvent } from '#shared/presence';
import { companyConnections, mayReceive, postAll, type WsConnection } from '../realtime';

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
 * When one of those had it open, the others with it open are told who views it now (issue 35: only
 * those who may see it; presence/service.ts checks the same at every later use). One Query for the
 * company's connections, then bounded fan-out.
 */
export async function publishTicketChange(
  companyId: number,
  before: Scope | null,
  after: Ticket,
  action: EventAction = 'update',
  known?: WsConnection[],
) {
  const connections = known ?? (await companyConnections(companyId));
  const event = channelEvent(companyId, 'ticket');
  const posts: { conn: WsConnection; message: unknown }[] = [];
  const viewing = (conn: WsConnection) => (conn.chatBoxes ?? []).includes(after.id);
  let viewerLost = false;
  for (const conn of connections) {
    if (mayReceive(conn, ticketAudience(after)))
      posts.push({ conn, message: { event, data: { action, ticket: after, ticketId: after.id } } });
    else if (before && mayReceive(conn, ticketAudience(before))) {
      posts.push({ conn, message: { event, data: { action: 'delete', ticketId: after.id } } });
      viewerLost ||= viewing(conn);
    }
  }
  if (viewerLost) {
    const room = connections.filter((conn) => viewing(conn) && mayReceive(conn, ticketAudience(after)));
    const data: TicketViewersEvent = { action: 'update', ticketId: after.id, viewers: viewersOf(room) };
    const message = { event: channelEvent(companyId, 'ticketViewers'), data };
    posts.push(...room.map((conn) => ({ conn, message })));
  }
  await postAll(posts);
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
  const message = { event: channelEvent(companyId, name), data };
  await postAll(connections.map((conn) => ({ conn, message })));
}
