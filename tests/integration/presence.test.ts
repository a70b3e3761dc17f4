import { describe, expect, it } from 'vitest';
import { api, newCompany, realtimeClient, sleep } from './helpers';
import { createContact, createTicket, createUser, createWhatsapp } from './fixtures';

/** Presence (issue 24): who views a ticket, who types in it, and each user's status. */

type Client = Awaited<ReturnType<typeof realtimeClient>>;
type Event = { event: string; data: any };

const named = (companyId: number, name: string) => (e: Event) => e.event === `company-${companyId}-${name}`;

/** The last `ticketViewers` list a client received for a ticket, once it satisfies `match`. */
async function viewersSeen(client: Client, companyId: number, ticketId: number, match: (ids: number[]) => boolean) {
  const started = Date.now();
  for (;;) {
    const last = client.events
      .filter((e) => named(companyId, 'ticketViewers')(e) && e.data.ticketId === ticketId)
      .at(-1);
    const ids = ((last?.data.viewers ?? []) as { userId: number }[]).map((v) => v.userId).sort();
    if (last && match(ids)) return last.data.viewers as { userId: number; name: string }[];
    if (Date.now() - started > 5000) throw new Error(`viewers never matched; last ${JSON.stringify(ids)}`);
    await sleep(20);
  }
}

const statusEvent = (companyId: number, userId: number, status: string) => (e: Event) =>
  named(companyId, 'presence')(e) && e.data.userId === userId && e.data.status === status;

/** Runs `act`, then waits for a matching event that arrived after it started. */
async function eventAfter(client: Client, match: (e: Event) => boolean, act: () => Promise<unknown>) {
  const earlier = client.events.filter(match);
  await act();
  return client.waitFor((e) => match(e) && !earlier.includes(e));
}

async function presenceOf(token: string) {
  const res = await api('GET', '/presence', { token });
  expect(res.status).toBe(200);
  return new Map((res.body.users as { userId: number; status: string }[]).map((u) => [u.userId, u.status]));
}

async function teamWithTicket(label: string) {
  const co = await newCompany(label);
  const whatsapp = await createWhatsapp(co);
  const ana = await createUser(co, { name: 'Ana' });
  const bruno = await createUser(co, { name: 'Bruno' });
  const contact = await createContact(co.adminToken);
  // open, assigned to Ana; admins and the assignee see it
  const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id, userId: ana.id });
  return { co, ana, bruno, ticket };
}

describe('ticket viewers and typing', () => {
  it('a viewer appears to the others when they open the ticket and disappears when they leave or their socket closes', async () => {
    const { co, ana, ticket } = await teamWithTicket('pr-viewers');
    const anaWs = await realtimeClient(ana.token);
    const adminWs = await realtimeClient(co.adminToken);
    try {
      await anaWs.join('joinChatBox', ticket.id);
      expect(await viewersSeen(anaWs, co.companyId, ticket.id, (ids) => ids.length === 1)).toEqual([
        { userId: ana.id, name: 'Ana' },
      ]);

      await adminWs.join('joinChatBox', ticket.id);
      const both = [ana.id, co.admin.id].sort();
      // each sees both: the joiner learns who was there, the one there learns who came
      await viewersSeen(anaWs, co.companyId, ticket.id, (ids) => ids.join() === both.join());
      await viewersSeen(adminWs, co.companyId, ticket.id, (ids) => ids.join() === both.join());

      await adminWs.join('leaveChatBox', ticket.id);
      await viewersSeen(anaWs, co.companyId, ticket.id, (ids) => ids.join() === String(ana.id));

      await adminWs.join('joinChatBox', ticket.id);
      await viewersSeen(anaWs, co.companyId, ticket.id, (ids) => ids.join() === both.join());
      adminWs.close();
      await viewersSeen(anaWs, co.companyId, ticket.id, (ids) => ids.join() === String(ana.id));
    } finally {
      anaWs.close();
      adminWs.close();
    }
  });

  it('typing reaches the other viewers of the ticket, not the typist, not those without it open, not another company', async () => {
    const { co, ana, bruno, ticket } = await teamWithTicket('pr-typing');
    const other = await newCompany('pr-typing-other');
    // ticket numbers count per company: the other company's first ticket has the same number
    const otherTicket = await createTicket(other.adminToken, {
      contactId: (await createContact(other.adminToken)).id,
      whatsappId: (await createWhatsapp(other)).id,
    });
    expect(otherTicket.id).toBe(ticket.id);
    const anaWs = await realtimeClient(ana.token);
    const adminWs = await realtimeClient(co.adminToken);
    const brunoWs = await realtimeClient(bruno.token);
    const otherWs = await realtimeClient(other.adminToken);
    try {
      await anaWs.join('joinChatBox', ticket.id);
      await adminWs.join('joinChatBox', ticket.id);
      // the other company's admin opens its own ticket with the same number
      await otherWs.join('joinChatBox', otherTicket.id);

      anaWs.send('typing', ticket.id);
      const seen = await adminWs.waitFor(named(co.companyId, 'typing'));
      expect(seen.data).toEqual({ action: 'update', ticketId: ticket.id, userId: ana.id, name: 'Ana' });

      // a typing signal from a socket that has not the ticket open is dropped
      brunoWs.send('typing', ticket.id);
      // a later signal of Ana's is the marker that the earlier ones were handled
      await sleep(300);
      anaWs.send('typing', ticket.id);
      await adminWs.waitFor(
        (e) => named(co.companyId, 'typing')(e) && adminWs.events.indexOf(e) > adminWs.events.indexOf(seen),
      );
      const typists = adminWs.events.filter(named(co.companyId, 'typing')).map((e) => e.data.userId);
      expect(new Set(typists)).toEqual(new Set([ana.id]));
      expect(anaWs.events.some(named(co.companyId, 'typing'))).toBe(false);
      expect(brunoWs.events.some((e) => e.event.endsWith('-typing'))).toBe(false);
      expect(
        otherWs.events.some(
          (e) =>
            e.event.endsWith('-typing') ||
            (e.event.endsWith('-ticketViewers') && e.data.viewers.some((v: any) => v.userId === ana.id)),
        ),
      ).toBe(false);
    } finally {
      for (const ws of [anaWs, adminWs, brunoWs, otherWs]) ws.close();
    }
  });
});

describe('user status', () => {
  it('online on the first socket, away when every tab is idle, online on activity, offline when the last socket closes; admins hear it, other companies never', async () => {
    const co = await newCompany('pr-status');
    const ana = await createUser(co, { name: 'Ana' });
    const bruno = await createUser(co, { name: 'Bruno' });
    const other = await newCompany('pr-status-other');
    const adminWs = await realtimeClient(co.adminToken);
    const brunoWs = await realtimeClient(bruno.token);
    const otherWs = await realtimeClient(other.adminToken);
    const tabs: Client[] = [];
    try {
      expect((await presenceOf(co.adminToken)).get(ana.id)).toBe('offline');

      tabs.push(await realtimeClient(ana.token));
      await adminWs.waitFor(statusEvent(co.companyId, ana.id, 'online'));
      expect((await presenceOf(co.adminToken)).get(ana.id)).toBe('online');
      // a second tab: still online, no second event
      tabs.push(await realtimeClient(ana.token));

      // one idle tab is not enough: the other still has input
      await tabs[0]!.join('idle');
      expect((await presenceOf(co.adminToken)).get(ana.id)).toBe('online');
      await tabs[1]!.join('idle');
      await adminWs.waitFor(statusEvent(co.companyId, ana.id, 'away'));
      // Ana's own tabs learn it too (the top bar shows it)
      await tabs[0]!.waitFor(statusEvent(co.companyId, ana.id, 'away'));
      expect(await presenceOf(ana.token)).toEqual(new Map([[ana.id, 'away']]));

      await eventAfter(adminWs, statusEvent(co.companyId, ana.id, 'online'), () => tabs[1]!.join('active'));
      expect((await presenceOf(co.adminToken)).get(ana.id)).toBe('online');

      // the active tab closes: the one left is idle, so away; then the last one closes: offline
      await eventAfter(adminWs, statusEvent(co.companyId, ana.id, 'away'), async () => tabs[1]!.close());
      expect((await presenceOf(co.adminToken)).get(ana.id)).toBe('away');
      await eventAfter(adminWs, statusEvent(co.companyId, ana.id, 'offline'), async () => tabs[0]!.close());
      expect((await presenceOf(co.adminToken)).get(ana.id)).toBe('offline');

      const online = adminWs.events.filter(statusEvent(co.companyId, ana.id, 'online'));
      expect(online).toHaveLength(2);
      // an attendant hears no one else's status; another company hears nothing of this one
      expect(brunoWs.events.some((e) => named(co.companyId, 'presence')(e) && e.data.userId !== bruno.id)).toBe(false);
      expect(otherWs.events.some((e) => e.event.startsWith(`company-${co.companyId}-`))).toBe(false);
      expect(otherWs.events.some((e) => e.event.endsWith('-presence') && e.data.userId === ana.id)).toBe(false);
    } finally {
      for (const ws of [adminWs, brunoWs, otherWs, ...tabs]) ws.close();
    }
  });

  it('GET /presence: admins list every user of their company, an attendant only themselves', async () => {
    const co = await newCompany('pr-list');
    const ana = await createUser(co, { name: 'Ana' });
    const other = await newCompany('pr-list-other');
    const admin = await presenceOf(co.adminToken);
    expect([...admin.keys()].sort()).toEqual([co.admin.id, ana.id].sort());
    const own = await presenceOf(ana.token);
    expect([...own.keys()]).toEqual([ana.id]);
    // user ids count per company: the other company's list holds its owner alone
    const foreign = await api('GET', '/presence', { token: other.adminToken });
    expect(foreign.body.users.map((u: { name: string }) => u.name)).toEqual(['Owner']);
  });
});
