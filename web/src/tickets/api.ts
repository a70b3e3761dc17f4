import { api } from '../api/client';
import type { TicketSnoozeBody } from '#shared/schemas/tickets';
import type { Ticket } from './types';

/** Ticket actions (attendance.md 4.2); the server applies the transition rules. */
export const ticketActions = {
  accept: (t: Pick<Ticket, 'id'>, userId: number) => api.put<Ticket>(`/tickets/${t.id}`, { status: 'open', userId }),
  reopen: (t: Pick<Ticket, 'id' | 'queueId'>, userId: number) =>
    api.put<Ticket>(`/tickets/${t.id}`, { status: 'open', userId, queueId: t.queueId }),
  return: (t: Pick<Ticket, 'id' | 'queueId'>) =>
    api.put<Ticket>(`/tickets/${t.id}`, { status: 'pending', userId: null, queueId: t.queueId }),
  resolve: (t: Pick<Ticket, 'id' | 'queueId'>, userId: number) =>
    api.put<Ticket>(`/tickets/${t.id}`, {
      status: 'closed',
      userId,
      queueId: t.queueId,
      useIntegration: false,
      promptId: null,
      integrationId: null,
    }),
  transfer: (t: Pick<Ticket, 'id'>, queueId: number, userId: number | null) =>
    api.put<Ticket>(`/tickets/${t.id}`, { queueId, userId, status: userId ? 'open' : 'pending' }),
  remove: (t: Pick<Ticket, 'id'>) => api.delete(`/tickets/${t.id}`),
  /** issue 24: take over a ticket another attendant handles */
  takeOver: (t: Pick<Ticket, 'id'>) => api.post<Ticket>(`/tickets/${t.id}/takeover`),
  /** issue 40: put the ticket aside until a time or until the customer writes; `wake` ends it now */
  snooze: (t: Pick<Ticket, 'id'>, body: TicketSnoozeBody) => api.post<Ticket>(`/tickets/${t.id}/snooze`, body),
  wake: (t: Pick<Ticket, 'id'>) => api.delete<Ticket>(`/tickets/${t.id}/snooze`),
  syncTags: (ticketId: number, tags: { id: number }[]) => api.post('/tags/sync', { ticketId, tags }),
};
