import { describe, expect, it } from 'vitest';
import { api, newCompany, realtimeClient, table, type TestCompany } from './helpers';
import { createContact, createPendingTicket, createQueue, createTicket, createUser, createWhatsapp } from './fixtures';
import { eventually, phone } from './whatsapp-sim';

/**
 * Automatic assignment (issue 24): a queue in `roundRobin` hands each waiting ticket to its online
 * attendants in turn, below their maxOpenTickets; a ticket nobody can take waits until a slot frees
 * up or someone comes online. Tickets enter the queue through the API (the admin, who is in no queue
 * and has no socket, opens a ticket and returns it to the queue) or through an inbound message.
 */

type Agent = Awaited<ReturnType<typeof createUser>>;

async function automaticQueue(co: TestCompany, assignment = 'roundRobin') {
  const whatsapp = await createWhatsapp(co);
  const queue = await createQueue(co.adminToken, { assignment });
  return { whatsapp, queue };
}

/** A ticket that starts waiting in the queue: the admin opens it and returns it to the queue. */
async function arrive(co: TestCompany, whatsappId: number, queueId: number) {
  const contact = await createContact(co.adminToken);
  const ticket = await createPendingTicket(co.adminToken, { contactId: contact.id, whatsappId, queueId });
  return ticket.id as number;
}

async function ticketOf(co: TestCompany, id: number) {
  const res = await api('GET', `/tickets/${id}`, { token: co.adminToken });
  expect(res.status).toBe(200);
  return res.body as { id: number; status: string; userId: number | null; queueId: number | null };
}

/** The attendant's open-ticket counter as stored (tickets/counts.ts). */
async function openCount(co: TestCompany, userId: number) {
  const item = await table().get(`C#${co.companyId}#TCOUNT`, 'LISTS');
  return Number(item?.[`TU#${userId}#open`] ?? 0);
}

/** The attendant's open tickets as the API lists them. */
async function openTicketsOf(agent: Agent) {
  const res = await api('GET', '/tickets?status=open', { token: agent.token });
  expect(res.status).toBe(200);
  return (res.body.tickets as { id: number; userId: number }[]).filter((t) => t.userId === agent.id);
}

describe('automatic assignment (round robin)', () => {
  it('hands waiting tickets in turn to the online attendants of the queue, skipping an offline one, with the events of an accept', async () => {
    const co = await newCompany('rr-turn');
    const { whatsapp, queue } = await automaticQueue(co);
    const [a, b, c] = [
      await createUser(co, { queueIds: [queue.id] }),
      await createUser(co, { queueIds: [queue.id] }),
      await createUser(co, { queueIds: [queue.id] }),
    ];
    const socketA = await realtimeClient(a.token);
    const socketB = await realtimeClient(b.token);
    // c has no socket: offline
    try {
      const ids: number[] = [];
      for (let i = 0; i < 4; i++) ids.push(await arrive(co, whatsapp.id, queue.id));
      const owners = [];
      for (const id of ids) {
        const t = await ticketOf(co, id);
        expect(t.status).toBe('open');
        owners.push(t.userId);
      }
      expect(owners).toEqual([a.id, b.id, a.id, b.id]);
      // the assignee's list updates live, as on a manual accept
      const event = await socketA.waitFor(
        (e) =>
          e.event === `company-${co.companyId}-ticket` &&
          e.data.action === 'update' &&
          e.data.ticket?.id === ids[0] &&
          e.data.ticket.userId === a.id &&
          e.data.ticket.status === 'open',
      );
      expect(event.data.ticket.user).toEqual({ id: a.id, name: a.user.name });
      expect((await openTicketsOf(a)).map((t) => t.id).sort()).toEqual([ids[0], ids[2]].sort());
      expect(await openTicketsOf(c)).toEqual([]);
      expect([await openCount(co, a.id), await openCount(co, b.id), await openCount(co, c.id)]).toEqual([2, 2, 0]);
    } finally {
      socketA.close();
      socketB.close();
    }
  });

  it('skips an attendant at their capacity; a ticket nobody can take waits and goes out when a ticket is closed', async () => {
    const co = await newCompany('rr-cap');
    const { whatsapp, queue } = await automaticQueue(co);
    const a = await createUser(co, { queueIds: [queue.id], maxOpenTickets: 1 });
    const b = await createUser(co, { queueIds: [queue.id], maxOpenTickets: 2 });
    expect(a.user.maxOpenTickets).toBe(1);
    const sockets = [await realtimeClient(a.token), await realtimeClient(b.token)];
    try {
      const first = await arrive(co, whatsapp.id, queue.id);
      const second = await arrive(co, whatsapp.id, queue.id);
      const third = await arrive(co, whatsapp.id, queue.id);
      expect((await ticketOf(co, first)).userId).toBe(a.id);
      expect((await ticketOf(co, second)).userId).toBe(b.id);
      // a is at 1 of 1: b again
      expect((await ticketOf(co, third)).userId).toBe(b.id);
      // everyone full: the fourth waits
      const fourth = await arrive(co, whatsapp.id, queue.id);
      expect(await ticketOf(co, fourth)).toMatchObject({ status: 'pending', userId: null, queueId: queue.id });

      // a closes their ticket: the waiting one goes to a
      const closed = await api('PUT', `/tickets/${first}`, { token: a.token, body: { status: 'closed' } });
      expect(closed.status).toBe(200);
      expect(await ticketOf(co, fourth)).toMatchObject({ status: 'open', userId: a.id });
      expect([await openCount(co, a.id), await openCount(co, b.id)]).toEqual([1, 2]);
    } finally {
      for (const s of sockets) s.close();
    }
  });

  it('a ticket waiting with nobody online goes to the first attendant who connects; raising a capacity hands out more', async () => {
    const co = await newCompany('rr-online');
    const { whatsapp, queue } = await automaticQueue(co);
    const a = await createUser(co, { queueIds: [queue.id], maxOpenTickets: 1 });
    const waiting = [await arrive(co, whatsapp.id, queue.id), await arrive(co, whatsapp.id, queue.id)];
    for (const id of waiting) expect(await ticketOf(co, id)).toMatchObject({ status: 'pending', userId: null });

    const socket = await realtimeClient(a.token);
    try {
      // the oldest waiting ticket first, and only one: a has room for one
      expect(await ticketOf(co, waiting[0]!)).toMatchObject({ status: 'open', userId: a.id });
      expect(await ticketOf(co, waiting[1]!)).toMatchObject({ status: 'pending', userId: null });

      const raised = await api('PUT', `/users/${a.id}`, { token: co.adminToken, body: { maxOpenTickets: 2 } });
      expect(raised.status).toBe(200);
      expect(raised.body.maxOpenTickets).toBe(2);
      expect(await ticketOf(co, waiting[1]!)).toMatchObject({ status: 'open', userId: a.id });
      expect(await openCount(co, a.id)).toBe(2);
    } finally {
      socket.close();
    }
  });

  it('skips an away attendant (every tab idle); the waiting ticket goes to them when they are active again', async () => {
    const co = await newCompany('rr-away');
    const { whatsapp, queue } = await automaticQueue(co);
    const a = await createUser(co, { queueIds: [queue.id] });
    const socket = await realtimeClient(a.token);
    try {
      await socket.join('idle');
      await eventually(async () => {
        const res = await api('GET', '/presence', { token: a.token });
        return (res.body.users as { userId: number; status: string }[]).some(
          (u) => u.userId === a.id && u.status === 'away',
        );
      });
      const waiting = await arrive(co, whatsapp.id, queue.id);
      expect(await ticketOf(co, waiting)).toMatchObject({ status: 'pending', userId: null });

      await socket.join('active');
      await eventually(async () => (await ticketOf(co, waiting)).userId === a.id);
      expect(await ticketOf(co, waiting)).toMatchObject({ status: 'open', userId: a.id });
    } finally {
      socket.close();
    }
  });

  it('tickets arriving at once in two queues never put anyone past their capacity, also someone in both', async () => {
    const co = await newCompany('rr-race');
    const whatsapp = await createWhatsapp(co);
    const q1 = await createQueue(co.adminToken, { assignment: 'roundRobin' });
    const q2 = await createQueue(co.adminToken, { assignment: 'roundRobin' });
    // a is in both queues: only the condition on a's counter stops the two queues filling a twice
    const a = await createUser(co, { queueIds: [q1.id, q2.id], maxOpenTickets: 2 });
    const b = await createUser(co, { queueIds: [q1.id], maxOpenTickets: 3 });
    const c = await createUser(co, { queueIds: [q2.id], maxOpenTickets: 1 });
    const sockets = [await realtimeClient(a.token), await realtimeClient(b.token), await realtimeClient(c.token)];
    try {
      const queueOf = (i: number) => (i % 2 ? q1.id : q2.id);
      const contacts = await Promise.all(Array.from({ length: 12 }, () => createContact(co.adminToken)));
      const opened = await Promise.all(
        contacts.map((contact, i) =>
          createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id, queueId: queueOf(i) }),
        ),
      );
      // all twelve return to their queues at the same moment
      const returned = await Promise.all(
        opened.map((t, i) =>
          api('PUT', `/tickets/${t.id}`, {
            token: co.adminToken,
            body: { status: 'pending', userId: null, queueId: queueOf(i) },
          }),
        ),
      );
      expect(returned.map((r) => r.status)).toEqual(Array(12).fill(200));
      const all = await Promise.all(opened.map((t) => ticketOf(co, t.id)));
      const countOf = (userId: number) => all.filter((t) => t.status === 'open' && t.userId === userId).length;
      expect([countOf(a.id), countOf(b.id), countOf(c.id)]).toEqual([2, 3, 1]);
      expect(all.filter((t) => t.status === 'pending' && t.userId === null)).toHaveLength(6);
      expect([
        (await openTicketsOf(a)).length,
        (await openTicketsOf(b)).length,
        (await openTicketsOf(c)).length,
      ]).toEqual([2, 3, 1]);
      expect([await openCount(co, a.id), await openCount(co, b.id), await openCount(co, c.id)]).toEqual([2, 3, 1]);
    } finally {
      for (const s of sockets) s.close();
    }
  });

  it('a manual queue keeps its tickets pending for attendants to accept', async () => {
    const co = await newCompany('rr-manual');
    const { whatsapp, queue } = await automaticQueue(co, 'manual');
    expect(queue.assignment).toBe('manual');
    const a = await createUser(co, { queueIds: [queue.id] });
    const socket = await realtimeClient(a.token);
    try {
      const id = await arrive(co, whatsapp.id, queue.id);
      expect(await ticketOf(co, id)).toMatchObject({ status: 'pending', userId: null });
      const accepted = await api('PUT', `/tickets/${id}`, { token: a.token, body: { status: 'open', userId: a.id } });
      expect(accepted.body).toMatchObject({ status: 'open', userId: a.id });
      expect(await openCount(co, a.id)).toBe(1);
      // a queue made without the field is manual too
      const plain = await api('POST', '/queue', {
        token: co.adminToken,
        body: { name: 'Plain queue', color: '#123456' },
      });
      expect(plain.body.assignment).toBe('manual');
    } finally {
      socket.close();
    }
  });

  it('keeps the open-ticket counts right through transfer, close, reopen and delete', async () => {
    const co = await newCompany('rr-counts');
    const { whatsapp, queue } = await automaticQueue(co);
    const a = await createUser(co, { queueIds: [queue.id], maxOpenTickets: 1 });
    const b = await createUser(co, { queueIds: [queue.id] });
    const counts = async () => [await openCount(co, a.id), await openCount(co, b.id)];
    const socketA = await realtimeClient(a.token);
    try {
      const id = await arrive(co, whatsapp.id, queue.id);
      expect(await ticketOf(co, id)).toMatchObject({ status: 'open', userId: a.id });
      expect(await counts()).toEqual([1, 0]);
      // transfer to b (b is offline: a manual transfer is not automatic assignment)
      await api('PUT', `/tickets/${id}`, { token: co.adminToken, body: { userId: b.id } });
      expect(await ticketOf(co, id)).toMatchObject({ status: 'open', userId: b.id });
      expect(await counts()).toEqual([0, 1]);
      await api('PUT', `/tickets/${id}`, { token: b.token, body: { status: 'closed' } });
      expect(await counts()).toEqual([0, 0]);
      // reopened by a
      const reopened = await api('PUT', `/tickets/${id}`, { token: a.token, body: { status: 'open' } });
      expect(reopened.body).toMatchObject({ status: 'open', userId: a.id });
      expect(await counts()).toEqual([1, 0]);
      // a at capacity: the next waits; deleting a's ticket frees the slot and the waiting one goes to a
      const next = await arrive(co, whatsapp.id, queue.id);
      expect(await ticketOf(co, next)).toMatchObject({ status: 'pending' });
      const deleted = await api('DELETE', `/tickets/${id}`, { token: co.adminToken });
      expect(deleted.status).toBe(200);
      expect(await ticketOf(co, next)).toMatchObject({ status: 'open', userId: a.id });
      expect(await counts()).toEqual([1, 0]);
      // a returns it to the queue: it is waiting again, and a (the only one online) has room: back to a
      await api('PUT', `/tickets/${next}`, { token: a.token, body: { status: 'pending', userId: null } });
      expect(await ticketOf(co, next)).toMatchObject({ status: 'open', userId: a.id });
      expect(await counts()).toEqual([1, 0]);
    } finally {
      socketA.close();
    }
  });

  it('never assigns a user of another company, however available', async () => {
    const co = await newCompany('rr-iso-a');
    const other = await newCompany('rr-iso-b');
    const { whatsapp, queue } = await automaticQueue(co);
    await createUser(co, { queueIds: [queue.id] }); // offline
    const otherQueue = await createQueue(other.adminToken, { assignment: 'roundRobin' });
    const stranger = await createUser(other, { queueIds: [otherQueue.id] });
    const socket = await realtimeClient(stranger.token);
    try {
      // ids are numbered per company: the stranger is online in "queue <same number>" of their company
      expect(otherQueue.id).toBe(queue.id);
      const id = await arrive(co, whatsapp.id, queue.id);
      expect(await ticketOf(co, id)).toMatchObject({ status: 'pending', userId: null });
    } finally {
      socket.close();
    }
  });

  it('an inbound message routed by the connection to an automatic queue is assigned', async () => {
    const co = await newCompany('rr-inbound');
    const queue = await createQueue(co.adminToken, { assignment: 'roundRobin', greetingMessage: '' });
    const whatsapp = await createWhatsapp(co, { queueIds: [queue.id] });
    const a = await createUser(co, { queueIds: [queue.id] });
    const socket = await realtimeClient(a.token);
    try {
      await phone(co.companyId, whatsapp.id).send({ from: '5511955550101', pushName: 'Cliente Auto', body: 'oi' });
      const ticket = await eventually(async () => {
        const list = (await api('GET', '/tickets?status=open', { token: a.token })).body.tickets;
        return list?.find((t: { userId: number }) => t.userId === a.id) as { queueId: number } | undefined;
      });
      expect(ticket.queueId).toBe(queue.id);
    } finally {
      socket.close();
    }
  });

  it('refuses an unknown assignment mode and an invalid capacity with ERR_VALIDATION; only admins change a capacity', async () => {
    const co = await newCompany('rr-invalid');
    const bad = await api('POST', '/queue', {
      token: co.adminToken,
      body: { name: 'Bad mode', color: '#abcdef', assignment: 'random' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    const queue = await createQueue(co.adminToken);
    const update = await api('PUT', `/queue/${queue.id}`, { token: co.adminToken, body: { assignment: 42 } });
    expect(update).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });

    const agent = await createUser(co, { queueIds: [queue.id] });
    for (const maxOpenTickets of [0, -1, 2.5, 'abc', 1001, true]) {
      const res = await api('PUT', `/users/${agent.id}`, { token: co.adminToken, body: { maxOpenTickets } });
      expect(res.status, String(maxOpenTickets)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
    }
    const created = await api('POST', '/users', {
      token: co.adminToken,
      body: { name: 'Bad Cap', email: `bad-cap-${co.companyId}@test.dev`, password: 'secret123', maxOpenTickets: -3 },
    });
    expect(created).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
    // an attendant may not raise their own capacity
    const own = await api('PUT', `/users/${agent.id}`, { token: agent.token, body: { maxOpenTickets: 50 } });
    expect(own).toMatchObject({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    // a form's empty field is no limit
    const cleared = await api('PUT', `/users/${agent.id}`, { token: co.adminToken, body: { maxOpenTickets: '' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.maxOpenTickets).toBeNull();
    const set = await api('PUT', `/users/${agent.id}`, { token: co.adminToken, body: { maxOpenTickets: '4' } });
    expect(set.body.maxOpenTickets).toBe(4);
    expect((await api('GET', `/users/${agent.id}`, { token: co.adminToken })).body.maxOpenTickets).toBe(4);
    const q = await api('PUT', `/queue/${queue.id}`, { token: co.adminToken, body: { assignment: 'roundRobin' } });
    expect(q.body.assignment).toBe('roundRobin');
    expect((await api('GET', `/queue/${queue.id}`, { token: co.adminToken })).body.assignment).toBe('roundRobin');
  });
});
