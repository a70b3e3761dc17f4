import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DueItem } from '#lib/chatbot/timers';

const store = vi.hoisted(() => ({ due: [] as DueItem[][], removed: [] as DueItem[], retried: [] as DueItem[] }));

vi.mock('#lib/chatbot/timers', () => ({
  dueItems: async () => store.due.shift() ?? [],
  removeDue: async (d: DueItem) => void store.removed.push(d),
  retryDue: async (d: DueItem) => {
    store.retried.push(d);
    return true;
  },
}));
vi.mock('#lib/chatbot/rating', () => ({
  expireRatingWait: async (companyId: number) => {
    if (companyId === 666) throw new Error('table unavailable');
  },
  onTicketClosed: async () => undefined,
}));
vi.mock('#lib/tickets/service', () => ({
  getTicket: async () => undefined,
  updateTicket: async () => undefined,
  onTicketMoved: () => undefined,
}));
vi.mock('#lib/messages/send', () => ({ sendMessage: async () => undefined }));
vi.mock('#lib/whatsapp/repo', () => ({ getWhatsapp: async () => undefined }));
vi.mock('#lib/log', () => ({ log: { error: () => undefined, info: () => undefined, warn: () => undefined } }));

const { handler } = await import('./whatsapp-timers');

const wakeUp = (companyId: number): DueItem => ({
  kind: 'rating',
  companyId,
  ticketId: 1,
  dueAt: '2026-01-01T00:00:00.000Z',
});

describe('chatbot wake-up timer', () => {
  beforeEach(() => {
    store.due = [];
    store.removed = [];
    store.retried = [];
  });

  it('a wake-up whose firing fails is kept for a retry, never deleted; the others are removed once handled', async () => {
    const failing = wakeUp(666);
    const fine = wakeUp(7);
    store.due = [[failing, fine]];
    expect(await handler()).toEqual({ handled: 2 });
    expect(store.retried).toEqual([failing]);
    expect(store.removed).toEqual([fine]);
  });
});
