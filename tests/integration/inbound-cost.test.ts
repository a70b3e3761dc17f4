import { beforeAll, describe, expect, it } from 'vitest';
import { api, useStackFromWorker, newCompany } from './helpers';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';
import type { DbUsage } from '../../functions/lib/metrics';

/**
 * DynamoDB requests and capacity per unit of work (issue 15, "A cheaper inbound path"), measured with
 * `metrics.measure()` around the same services the handlers call, against the stack's DynamoDB Local
 * (the table built from infra/table.ts, so index copies count). The stack runs in another process:
 * this worker points its own config at the same table, queues and WebSocket gateway.
 */
let fns: {
  metrics: typeof import('../../functions/lib/metrics').metrics;
  handleInbound: typeof import('../../functions/lib/inbound/handle').handleInbound;
  updateTicketByUser: typeof import('../../functions/lib/tickets/service').updateTicketByUser;
  getTicket: typeof import('../../functions/lib/tickets/service').getTicket;
  sendMessage: typeof import('../../functions/lib/messages/send').sendMessage;
  dashboard: typeof import('../../functions/lib/dashboard/service').dashboard;
  resolveRange: typeof import('../../functions/lib/dashboard/service').resolveRange;
  recentSettings: typeof import('../../functions/lib/settings').recentSettings;
  activeRules: typeof import('../../functions/lib/automation/emit').activeRules;
  getStored: typeof import('../../functions/lib/tickets/repo').getStoredTicket;
  updateItem: typeof import('../../functions/lib/db').updateItem;
  getItem: typeof import('../../functions/lib/db').getItem;
  deleteItem: typeof import('../../functions/lib/db').deleteItem;
  listMessages: typeof import('../../functions/lib/messages/list').listMessages;
};

beforeAll(async () => {
  await useStackFromWorker();
  const [metrics, handle, tickets, messages, dash, settings, ticketRepo, db, list, automation] = await Promise.all([
    import('../../functions/lib/metrics'),
    import('../../functions/lib/inbound/handle'),
    import('../../functions/lib/tickets/service'),
    import('../../functions/lib/messages/send'),
    import('../../functions/lib/dashboard/service'),
    import('../../functions/lib/settings'),
    import('../../functions/lib/tickets/repo'),
    import('../../functions/lib/db'),
    import('../../functions/lib/messages/list'),
    import('../../functions/lib/automation/emit'),
  ]);
  fns = {
    metrics: metrics.metrics,
    handleInbound: handle.handleInbound,
    updateTicketByUser: tickets.updateTicketByUser,
    getTicket: tickets.getTicket,
    sendMessage: messages.sendMessage,
    dashboard: dash.dashboard,
    resolveRange: dash.resolveRange,
    recentSettings: settings.recentSettings,
    getStored: ticketRepo.getStoredTicket,
    updateItem: db.updateItem,
    getItem: db.getItem,
    deleteItem: db.deleteItem,
    listMessages: list.listMessages,
    activeRules: automation.activeRules,
  };
});

const show = (what: string, usage: DbUsage) =>
  console.log(`${what}: ${usage.calls} requests, ${usage.capacity.toFixed(1)} capacity`, usage.byCommand);

/** A company with a connection, a contact who wrote once (pending ticket) and the admin's token. */
async function conversation(label: string, from: string) {
  const co = await newCompany(label);
  const w = await connectedWhatsapp(co.adminToken, co.companyId);
  await phone(co.companyId, w.id).send({ from, pushName: 'Cliente Custo', body: 'primeira' });
  const ticket = await eventually(async () => {
    const list = (await api('GET', '/tickets?status=pending&showAll=true', { token: co.adminToken })).body.tickets;
    return list?.[0] as { id: number } | undefined;
  });
  return { co, whatsappId: w.id, ticketId: ticket.id };
}

const inboundText = (companyId: number, whatsappId: number, from: string, wid: string, body: string) => ({
  type: 'message' as const,
  companyId,
  whatsappId,
  message: {
    wid,
    chatJid: `${from}@s.whatsapp.net`,
    fromMe: false,
    isGroup: false,
    pushName: 'Cliente Custo',
    body,
    mediaType: 'chat' as const,
    timestamp: Math.floor(Date.now() / 1000),
  },
});

describe('cost per unit of work (DynamoDB requests and capacity)', () => {
  it("a ticket's message page on an instance that never saw it costs 2 requests in 1 round trip with the client's conversation hint (3 in 3 without)", async () => {
    const { co, whatsappId, ticketId } = await conversation('cost-page', '5511977770021');
    const admin = { userId: co.admin.id, profile: 'admin' };
    const ticket = await fns.getStored(co.companyId, ticketId);
    const hint = `${ticket!.contactId}-${whatsappId}`;
    // read already: the unread reset (a write after the answer) is not part of the page
    const read = { set: { unreadMessages: 0 } };
    await fns.updateItem({ pk: `C#${co.companyId}`, sk: `TICKET#${String(ticketId).padStart(10, '0')}` }, read);
    const hinted = await fns.metrics.measure(() =>
      fns.listMessages(co.companyId, admin, ticketId, undefined, 20, hint),
    );
    show('message page, hinted', hinted.usage);
    expect(hinted.result.messages.map((m) => m.body)).toEqual(['primeira']);
    expect(hinted.usage).toMatchObject({ calls: 2, rounds: 1 });

    // a second conversation of the company, never seen, and no hint: the ticket is read first
    const second = await conversation('cost-page-2', '5511977770022');
    await fns.updateItem(
      { pk: `C#${second.co.companyId}`, sk: `TICKET#${String(second.ticketId).padStart(10, '0')}` },
      read,
    );
    const cold = await fns.metrics.measure(() =>
      fns.listMessages(second.co.companyId, { userId: second.co.admin.id, profile: 'admin' }, second.ticketId),
    );
    show('message page, cold', cold.usage);
    expect(cold.result.messages.map((m) => m.body)).toEqual(['primeira']);
    expect(cold.usage.rounds).toBeGreaterThan(1);
  });

  it('accepting a pending ticket takes at most 5 DynamoDB requests (was 8)', async () => {
    const { co, ticketId } = await conversation('cost-accept', '5511977770001');
    const { result, usage } = await fns.metrics.measure(() =>
      fns.updateTicketByUser(
        co.companyId,
        { userId: co.admin.id, profile: 'admin' },
        ticketId,
        { status: 'open', userId: co.admin.id },
        { companyId: co.companyId, userId: co.admin.id, address: null },
      ),
    );
    show('accept', usage);
    expect(result).toMatchObject({ status: 'open', userId: co.admin.id, user: { id: co.admin.id } });
    expect(usage.calls).toBeLessThanOrEqual(5);
    // the day's counters and the attendant's, now one item, both moved
    const dash = await fns.dashboard(co.companyId, fns.resolveRange({ days: 1 }));
    expect(dash.counters).toMatchObject({ supportHappening: 1, supportPending: 0 });
    expect(dash.attendants.find((a) => a.id === co.admin.id)).toMatchObject({ tickets: 1 });
  });

  it('accepting a pending ticket created on an earlier day, its counters and its attendant open-ticket count moved in its transaction, takes at most 5 requests (was 6)', async () => {
    const { co, ticketId } = await conversation('cost-accept-old', '5511977770008');
    // an older ticket: its day's status counters and today's wait and attendant counters are two items
    const key = { pk: `C#${co.companyId}`, sk: `TICKET#${String(ticketId).padStart(10, '0')}` };
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await fns.updateItem(key, { set: { createdDay: yesterday } });
    const { result, usage } = await fns.metrics.measure(() =>
      fns.updateTicketByUser(
        co.companyId,
        { userId: co.admin.id, profile: 'admin' },
        ticketId,
        { status: 'open', userId: co.admin.id },
        { companyId: co.companyId, userId: co.admin.id, address: null },
      ),
    );
    show('accept (older ticket)', usage);
    expect(result).toMatchObject({ status: 'open', userId: co.admin.id });
    expect(usage.calls).toBeLessThanOrEqual(5);
    // one transaction: the ticket and the list counters, where the attendant's open tickets are counted
    expect(usage.byCommand).toMatchObject({ TransactWriteCommand: 1 });
    const counts = await fns.getItem<Record<string, number>>({ pk: `C#${co.companyId}#TCOUNT`, sk: 'LISTS' });
    expect(counts?.[`TU#${co.admin.id}#open`]).toBe(1);
    expect(counts?.['TS#pending']).toBe(0);
  });

  it('an inbound text on an open ticket takes under 10 capacity units (was 27.5), and at most 6 requests (was 10) once the instance has seen the chat', async () => {
    const from = '5511977770002';
    const { co, whatsappId, ticketId } = await conversation('cost-inbound', from);
    await api('PUT', `/tickets/${ticketId}`, { token: co.adminToken, body: { status: 'open', userId: co.admin.id } });
    // the settings are read once per instance and RECENT_SETTINGS_MS (a warm instance, as at volume),
    // and so is the summary of the company's automation rules (once per ACTIVE_EVENTS_TTL_MS)
    await fns.recentSettings(co.companyId);
    await fns.activeRules(co.companyId);
    const runs: DbUsage[] = [];
    for (let i = 0; i < 3; i++) {
      const { usage } = await fns.metrics.measure(() =>
        fns.handleInbound(inboundText(co.companyId, whatsappId, from, `COSTIN${i}`, `mensagem ${i}`)),
      );
      show(`inbound ${i}`, usage);
      runs.push(usage);
    }
    const ticket = await fns.getTicket(co.companyId, ticketId);
    expect(ticket).toMatchObject({ status: 'open', lastMessage: 'mensagem 2', unreadMessages: 4 });
    const messages = (await api('GET', `/messages/${ticketId}`, { token: co.adminToken })).body.messages;
    expect(messages.map((m: { body: string }) => m.body)).toEqual([
      'primeira',
      'mensagem 0',
      'mensagem 1',
      'mensagem 2',
    ]);
    // the guard, the message, the ticket and its two list moves (attendant's and company's) are 7
    // write units; the reads are one BatchGet of 0.5-unit items
    for (const usage of runs) expect(usage.capacity).toBeLessThan(10);
    // this instance's first message of the chat reads the contact's guards (7 requests); later ones
    // read the contact it remembers, with its open-ticket guard and ticket, in one BatchGet
    expect(runs[0]!.calls).toBeLessThanOrEqual(7);
    for (const usage of runs.slice(1)) {
      expect(usage.calls).toBeLessThanOrEqual(6);
      expect(usage.byCommand).toMatchObject({ BatchGetCommand: 1 });
    }
  });

  it('a redelivery repairs a ticket that a crash left behind its stored message, and stores nothing twice', async () => {
    const from = '5511977770005';
    const { co, whatsappId, ticketId } = await conversation('cost-repair', from);
    const before = await fns.getStored(co.companyId, ticketId);
    await fns.handleInbound(inboundText(co.companyId, whatsappId, from, 'REPAIR1', 'depois do crash'));
    // the crash: the message and its guard were written, the ticket's move was not
    await fns.updateItem(
      { pk: `C#${co.companyId}`, sk: `TICKET#${String(ticketId).padStart(10, '0')}` },
      {
        set: { lastMessage: before!.lastMessage, updatedAt: before!.updatedAt, unreadMessages: before!.unreadMessages },
        remove: ['lastMessageId'],
      },
    );
    expect(await fns.getTicket(co.companyId, ticketId)).toMatchObject({ lastMessage: 'primeira' });
    await fns.handleInbound(inboundText(co.companyId, whatsappId, from, 'REPAIR1', 'depois do crash'));
    expect(await fns.getTicket(co.companyId, ticketId)).toMatchObject({
      lastMessage: 'depois do crash',
      unreadMessages: before!.unreadMessages + 1,
    });
    // a further redelivery changes nothing
    await fns.handleInbound(inboundText(co.companyId, whatsappId, from, 'REPAIR1', 'depois do crash'));
    expect(await fns.getTicket(co.companyId, ticketId)).toMatchObject({ unreadMessages: before!.unreadMessages + 1 });
    const messages = (await api('GET', `/messages/${ticketId}`, { token: co.adminToken })).body.messages;
    expect(messages.map((m: { body: string }) => m.body)).toEqual(['primeira', 'depois do crash']);
  });

  it('a redelivery restores a message whose first delivery died right after claiming its WhatsApp id', async () => {
    const from = '5511977770006';
    const { co, whatsappId, ticketId } = await conversation('cost-guard-only', from);
    const before = await fns.getStored(co.companyId, ticketId);
    await fns.handleInbound(inboundText(co.companyId, whatsappId, from, 'GUARDONLY1', 'so o guarda'));
    // the crash: only the guard was written (no message, no ticket move)
    const guard = await fns.getItem<{ msgPk: string; msgSk: string; messageId: string }>({
      pk: `C#${co.companyId}#WID#GUARDONLY1`,
      sk: 'WID',
    });
    expect(guard?.messageId).toMatch(/^[0-9a-z]{26}-[0-9a-z]+-[0-9a-z]+$/);
    await fns.deleteItem({ pk: guard!.msgPk, sk: guard!.msgSk });
    await fns.updateItem(
      { pk: `C#${co.companyId}`, sk: `TICKET#${String(ticketId).padStart(10, '0')}` },
      {
        set: { lastMessage: before!.lastMessage, updatedAt: before!.updatedAt, unreadMessages: before!.unreadMessages },
        remove: ['lastMessageId'],
      },
    );
    const bodies = async () =>
      (await api('GET', `/messages/${ticketId}`, { token: co.adminToken })).body.messages.map(
        (m: { id: string; body: string }) => `${m.id}:${m.body}`,
      );
    expect((await bodies()).map((b: string) => b.split(':')[1])).toEqual(['primeira']);
    await fns.handleInbound(inboundText(co.companyId, whatsappId, from, 'GUARDONLY1', 'so o guarda'));
    await fns.handleInbound(inboundText(co.companyId, whatsappId, from, 'GUARDONLY1', 'so o guarda'));
    // the ticket moved once (reading the messages below resets the unread count, so it is read first)
    expect(await fns.getTicket(co.companyId, ticketId)).toMatchObject({
      lastMessage: 'so o guarda',
      unreadMessages: 1,
    });
    // stored once, under the id the guard named
    const after = await bodies();
    expect(after).toHaveLength(2);
    expect(after[1]).toBe(`${guard!.messageId}:so o guarda`);
  });

  it('a chat this instance remembers still lands on the ticket that is open now', async () => {
    const from = '5511977770007';
    const { co, whatsappId, ticketId } = await conversation('cost-hint', from);
    await fns.handleInbound(inboundText(co.companyId, whatsappId, from, 'HINT1', 'antes de fechar'));
    await api('PUT', `/tickets/${ticketId}`, { token: co.adminToken, body: { status: 'closed' } });
    await fns.handleInbound(inboundText(co.companyId, whatsappId, from, 'HINT2', 'depois de fechar'));
    const reopened = (await api('GET', '/tickets?status=pending&showAll=true', { token: co.adminToken })).body
      .tickets as { id: number; lastMessage: string }[];
    expect(reopened).toHaveLength(1);
    expect(reopened[0]!.id).not.toBe(ticketId);
    expect(reopened[0]!.lastMessage).toBe('depois de fechar');
    await fns.handleInbound(inboundText(co.companyId, whatsappId, from, 'HINT3', 'no novo'));
    expect(await fns.getTicket(co.companyId, reopened[0]!.id)).toMatchObject({ lastMessage: 'no novo' });
    expect(await fns.getTicket(co.companyId, ticketId)).toMatchObject({
      status: 'closed',
      lastMessage: 'antes de fechar',
    });
  });

  it('a send takes at most 5 requests and under 10 capacity units (was 25); the first reply of a wait one more (its first-response time on the day item)', async () => {
    const { co, ticketId } = await conversation('cost-send', '5511977770003');
    const ticket = await fns.getTicket(co.companyId, ticketId);
    // a warm instance knows the company has no automation rules (one GetItem per ACTIVE_EVENTS_TTL_MS)
    await fns.activeRules(co.companyId);
    const { result, usage } = await fns.metrics.measure(() =>
      fns.sendMessage(co.companyId, ticket!, { body: 'resposta', userId: co.admin.id }),
    );
    show('send', usage);
    expect(result).toMatchObject({ body: 'resposta', fromMe: true });
    expect(usage.calls).toBeLessThanOrEqual(6);
    expect(usage.capacity).toBeLessThan(11);
    expect(await fns.getTicket(co.companyId, ticketId)).toMatchObject({ lastMessage: 'resposta' });
    const next = await fns.getTicket(co.companyId, ticketId);
    const second = await fns.metrics.measure(() =>
      fns.sendMessage(co.companyId, next!, { body: 'mais uma', userId: co.admin.id }),
    );
    show('send (second)', second.usage);
    expect(second.usage.calls).toBeLessThanOrEqual(5);
    expect(second.usage.capacity).toBeLessThan(10);
  });

  it("the dashboard takes 4 requests on an instance's first read (its aggregates, the service-level days and the roster's version at once, then the users with their presence), then 1", async () => {
    const { co } = await conversation('cost-dash', '5511977770004');
    const { result, usage } = await fns.metrics.measure(() =>
      fns.dashboard(co.companyId, fns.resolveRange({ days: 30 })),
    );
    show('dashboard', usage);
    expect(result.counters.supportPending).toBe(1);
    expect(result.attendants.map((a) => a.id)).toEqual([co.admin.id]);
    expect(usage.calls).toBeLessThanOrEqual(4);
    // read again: the settled days are kept, and the open ones and the roster asked for their
    // versions in one BatchGet (kept-days.ts, accounts/users.ts): nothing moved, so that is all
    const again = await fns.metrics.measure(() => fns.dashboard(co.companyId, fns.resolveRange({ days: 30 })));
    show('dashboard again', again.usage);
    expect(again.result).toEqual(result);
    expect(again.usage.byCommand).toEqual({ BatchGetCommand: 1 });
    expect(again.usage.capacity).toBeLessThanOrEqual(1.5);
    expect(again.usage.retries).toBe(0);
  });
});
