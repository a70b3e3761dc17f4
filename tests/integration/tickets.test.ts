import { describe, it, expect } from 'vitest';
import { api, newCompany, realtimeClient, table, sleep } from './helpers';
import {
  attendanceCompany,
  createContact,
  createPendingTicket,
  createTicket,
  createUser,
  createWhatsapp,
} from './fixtures';

const pad = (n: number) => String(n).padStart(10, '0');

describe('tickets', () => {
  it('POST /tickets opens a ticket for the creator; a second one for the same contact and connection is ERR_OTHER_OPEN_TICKET with the holder', async () => {
    const co = await newCompany('tk1');
    const { whatsapp, queueA, agentA } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(agentA.token, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    expect(ticket).toMatchObject({
      status: 'open',
      userId: agentA.id,
      queueId: queueA.id,
      contactId: contact.id,
      whatsappId: whatsapp.id,
      unreadMessages: 0,
    });
    expect(ticket.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(ticket.contact).toMatchObject({ id: contact.id, name: contact.name, number: contact.number });

    const again = await api('POST', '/tickets', {
      token: co.adminToken,
      body: { contactId: contact.id, whatsappId: whatsapp.id, status: 'open' },
    });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('ERR_OTHER_OPEN_TICKET');
    expect(again.body.details.ticket).toEqual({
      id: ticket.id,
      uuid: ticket.uuid,
      user: { id: agentA.id, name: agentA.user.name },
      queue: { id: queueA.id, name: queueA.name },
    });

    // another connection is another conversation
    const other = await createWhatsapp(co);
    const second = await api('POST', '/tickets', {
      token: co.adminToken,
      body: { contactId: contact.id, whatsappId: other.id },
    });
    expect(second.status).toBe(201);
  });

  it('one open ticket per contact and connection holds under concurrent creation', async () => {
    const co = await newCompany('tk2');
    const whatsapp = await createWhatsapp(co);
    const contact = await createContact(co.adminToken);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        api('POST', '/tickets', { token: co.adminToken, body: { contactId: contact.id, whatsappId: whatsapp.id } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.error === 'ERR_OTHER_OPEN_TICKET')).toBe(true);
  });

  it("new ticket: the queue is required unless admin, and must be one of the user's queues", async () => {
    const co = await newCompany('tk3');
    const { whatsapp, queueB, agentA } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const noQueue = await api('POST', '/tickets', {
      token: agentA.token,
      body: { contactId: contact.id, whatsappId: whatsapp.id },
    });
    expect(noQueue.status).toBe(400);
    expect(noQueue.body).toMatchObject({ error: 'ERR_VALIDATION', details: [{ path: ['queueId'] }] });
    const foreignQueue = await api('POST', '/tickets', {
      token: agentA.token,
      body: { contactId: contact.id, whatsappId: whatsapp.id, queueId: queueB.id },
    });
    expect(foreignQueue.status).toBe(403);
    expect(foreignQueue.body.error).toBe('ERR_NO_PERMISSION');
    const missing = await api('POST', '/tickets', {
      token: co.adminToken,
      body: { contactId: 999999, whatsappId: whatsapp.id },
    });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('ERR_NO_CONTACT_FOUND');
  });

  it('status transitions of attendance.md 4.2: accept, return, resolve, reopen, transfer to queue, transfer to user', async () => {
    const co = await newCompany('tk4');
    const { whatsapp, queueA, queueB, agentA, agentB } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const pending = await createPendingTicket(co.adminToken, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    expect(pending).toMatchObject({ status: 'pending', userId: null, queueId: queueA.id });

    // pending -> accept -> open, userId of the actor, queue kept
    const accepted = await api('PUT', `/tickets/${pending.id}`, {
      token: agentA.token,
      body: { status: 'open', userId: agentA.id },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({
      status: 'open',
      userId: agentA.id,
      user: { id: agentA.id },
      queueId: queueA.id,
    });
    expect(accepted.body.startedAt).toBeTruthy();

    // open -> return -> pending, no user, queue kept
    const returned = await api('PUT', `/tickets/${pending.id}`, {
      token: agentA.token,
      body: { status: 'pending', userId: null, queueId: queueA.id },
    });
    expect(returned.body).toMatchObject({ status: 'pending', userId: null, user: null, queueId: queueA.id });

    // accept again, then resolve -> closed, user and queue kept, integration and prompt cleared
    await api('PUT', `/tickets/${pending.id}`, { token: agentA.token, body: { status: 'open', userId: agentA.id } });
    const closed = await api('PUT', `/tickets/${pending.id}`, {
      token: agentA.token,
      body: {
        status: 'closed',
        userId: agentA.id,
        queueId: queueA.id,
        useIntegration: false,
        promptId: null,
        integrationId: null,
      },
    });
    expect(closed.body).toMatchObject({
      status: 'closed',
      userId: agentA.id,
      queueId: queueA.id,
      useIntegration: false,
      promptId: null,
      integrationId: null,
    });
    expect(closed.body.finishedAt).toBeTruthy();

    // closed -> reopen -> open, assigns the current user, queue kept
    const reopened = await api('PUT', `/tickets/${pending.id}`, {
      token: co.adminToken,
      body: { status: 'open', userId: co.admin.id, queueId: queueA.id },
    });
    expect(reopened.body).toMatchObject({ status: 'open', userId: co.admin.id, queueId: queueA.id, finishedAt: null });

    // transfer to a queue without a user -> pending, userId null
    const toQueue = await api('PUT', `/tickets/${pending.id}`, {
      token: co.adminToken,
      body: { queueId: queueB.id, userId: null, status: 'pending' },
    });
    expect(toQueue.body).toMatchObject({
      status: 'pending',
      userId: null,
      queueId: queueB.id,
      queue: { id: queueB.id, name: queueB.name },
    });

    // transfer to a user -> open with that user
    const toUser = await api('PUT', `/tickets/${pending.id}`, {
      token: co.adminToken,
      body: { queueId: queueB.id, userId: agentB.id, status: 'open' },
    });
    expect(toUser.body).toMatchObject({ status: 'open', userId: agentB.id, queueId: queueB.id });
  });

  it('reopening a closed ticket while the contact has another open one is ERR_OTHER_OPEN_TICKET', async () => {
    const co = await newCompany('tk5');
    const whatsapp = await createWhatsapp(co);
    const contact = await createContact(co.adminToken);
    const first = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id });
    await api('PUT', `/tickets/${first.id}`, { token: co.adminToken, body: { status: 'closed' } });
    const second = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id });
    const reopen = await api('PUT', `/tickets/${first.id}`, {
      token: co.adminToken,
      body: { status: 'open', userId: co.admin.id },
    });
    expect(reopen.status).toBe(409);
    expect(reopen.body.error).toBe('ERR_OTHER_OPEN_TICKET');
    expect(reopen.body.details.ticket.id).toBe(second.id);
  });

  it('visibility: a non-admin cannot open or update a ticket outside their queues (ERR_NO_PERMISSION); admins can', async () => {
    const co = await newCompany('tk6');
    const { whatsapp, queueA, agentB } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createPendingTicket(co.adminToken, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const read = await api('GET', `/tickets/${ticket.id}`, { token: agentB.token });
    expect(read.status).toBe(403);
    expect(read.body.error).toBe('ERR_NO_PERMISSION');
    expect((await api('GET', `/tickets/u/${ticket.uuid}`, { token: agentB.token })).status).toBe(403);
    const accept = await api('PUT', `/tickets/${ticket.id}`, {
      token: agentB.token,
      body: { status: 'open', userId: agentB.id },
    });
    expect(accept.status).toBe(403);
    expect((await api('GET', `/messages/${ticket.id}`, { token: agentB.token })).status).toBe(403);
    const admin = await api('GET', `/tickets/u/${ticket.uuid}`, { token: co.adminToken });
    expect(admin.status).toBe(200);
    expect(admin.body.id).toBe(ticket.id);
  });

  it('ids of another company are ERR_NO_TICKET_FOUND (404)', async () => {
    const a = await newCompany('tk7a');
    const b = await newCompany('tk7b');
    const whatsapp = await createWhatsapp(a);
    const contact = await createContact(a.adminToken);
    const ticket = await createTicket(a.adminToken, { contactId: contact.id, whatsappId: whatsapp.id });
    for (const [method, path] of [
      ['GET', `/tickets/${ticket.id}`],
      ['GET', `/tickets/u/${ticket.uuid}`],
      ['PUT', `/tickets/${ticket.id}`],
      ['DELETE', `/tickets/${ticket.id}`],
      ['GET', `/messages/${ticket.id}`],
    ] as const) {
      const res = await api(method, path, {
        token: b.adminToken,
        body: method === 'PUT' ? { status: 'closed' } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error).toBe('ERR_NO_TICKET_FOUND');
    }
  });

  it('lists: "open" is the attendant\'s own tickets, "pending" only their queues, showAll only for admins; cursor paging', async () => {
    const co = await newCompany('tk8');
    const { whatsapp, queueA, queueB, agentA } = await attendanceCompany(co);
    const contacts = await Promise.all(Array.from({ length: 4 }, () => createContact(co.adminToken)));
    const pendA1 = await createPendingTicket(co.adminToken, {
      contactId: contacts[0].id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const pendA2 = await createPendingTicket(co.adminToken, {
      contactId: contacts[1].id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const pendB = await createPendingTicket(co.adminToken, {
      contactId: contacts[2].id,
      whatsappId: whatsapp.id,
      queueId: queueB.id,
    });
    const mine = await createTicket(agentA.token, {
      contactId: contacts[3].id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });

    const pending = await api('GET', '/tickets?status=pending&showAll=true', { token: agentA.token });
    expect(pending.status).toBe(200);
    expect(pending.body.tickets.map((t: any) => t.id).sort()).toEqual([pendA1.id, pendA2.id].sort());

    const open = await api('GET', '/tickets?status=open', { token: agentA.token });
    expect(open.body.tickets.map((t: any) => t.id)).toEqual([mine.id]);
    // count badges come from per-partition counters kept by the writes
    expect(pending.body.count).toBe(2);
    expect(open.body.count).toBe(1);

    const adminPending = await api('GET', '/tickets?status=pending&showAll=true', { token: co.adminToken });
    expect(adminPending.body.tickets.map((t: any) => t.id)).toEqual([pendB.id, pendA2.id, pendA1.id]);
    expect(adminPending.body.count).toBe(3);

    // queue filter for the admin
    const onlyB = await api('GET', `/tickets?status=pending&showAll=true&queueIds=${JSON.stringify([queueB.id])}`, {
      token: co.adminToken,
    });
    expect(onlyB.body.tickets.map((t: any) => t.id)).toEqual([pendB.id]);

    // paging: newest first, by cursor, no repeats
    const page1 = await api('GET', '/tickets?status=pending&showAll=true&limit=2', { token: co.adminToken });
    expect(page1.body.tickets.map((t: any) => t.id)).toEqual([pendB.id, pendA2.id]);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await api(
      'GET',
      `/tickets?status=pending&showAll=true&limit=2&cursor=${encodeURIComponent(page1.body.cursor)}`,
      { token: co.adminToken },
    );
    expect(page2.body.tickets.map((t: any) => t.id)).toEqual([pendA1.id]);
    expect(page2.body.hasMore).toBe(false);

    // non-admin with two queues: merged streams page correctly
    const both = await createUser(co, { queueIds: [queueA.id, queueB.id] });
    const p1 = await api('GET', '/tickets?status=pending&limit=2', { token: both.token });
    const p2 = await api('GET', `/tickets?status=pending&limit=2&cursor=${encodeURIComponent(p1.body.cursor)}`, {
      token: both.token,
    });
    expect([...p1.body.tickets, ...p2.body.tickets].map((t: any) => t.id)).toEqual([pendB.id, pendA2.id, pendA1.id]);
    expect(p2.body.hasMore).toBe(false);

    // accepting moves the ticket between badges
    await api('PUT', `/tickets/${pendA1.id}`, { token: agentA.token, body: { status: 'open', userId: agentA.id } });
    expect((await api('GET', '/tickets?status=pending', { token: agentA.token })).body.count).toBe(1);
    expect((await api('GET', '/tickets?status=open', { token: agentA.token })).body.count).toBe(2);

    // a cursor of another company is refused
    const other = await newCompany('tk8b');
    const foreign = await api('GET', `/tickets?status=pending&cursor=${encodeURIComponent(page1.body.cursor)}`, {
      token: other.adminToken,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toBe('ERR_INVALID_CURSOR');
  });

  it('search by contact name prefix ignores case and accents; digits search by number; filters by tag', async () => {
    const co = await newCompany('tk9');
    const whatsapp = await createWhatsapp(co);
    const maria = await createContact(co.adminToken, { name: 'María Souza' });
    const mariana = await createContact(co.adminToken, { name: 'Mariana Lima' });
    const joao = await createContact(co.adminToken, { name: 'João Maria', number: '5521987654321' });
    const t1 = await createTicket(co.adminToken, { contactId: maria.id, whatsappId: whatsapp.id });
    const t2 = await createTicket(co.adminToken, { contactId: mariana.id, whatsappId: whatsapp.id });
    const t3 = await createTicket(co.adminToken, { contactId: joao.id, whatsappId: whatsapp.id });

    const found = await api('GET', '/tickets?searchParam=maria&showAll=true', { token: co.adminToken });
    expect(found.status).toBe(200);
    expect(found.body.tickets.map((t: any) => t.id).sort()).toEqual([t1.id, t2.id].sort());
    const accented = await api('GET', `/tickets?searchParam=${encodeURIComponent('JOÃO')}`, { token: co.adminToken });
    expect(accented.body.tickets.map((t: any) => t.id)).toEqual([t3.id]);
    const byNumber = await api('GET', '/tickets?searchParam=552198765', { token: co.adminToken });
    expect(byNumber.body.tickets.map((t: any) => t.id)).toEqual([t3.id]);

    const tag = (await api('POST', '/tags', { token: co.adminToken, body: { name: 'VIP client', color: '#ff0000' } }))
      .body;
    await api('PUT', `/ticket-tags/${t2.id}/${tag.id}`, { token: co.adminToken });
    const tagged = await api('GET', `/tickets?searchParam=mari&tags=${JSON.stringify([tag.id])}`, {
      token: co.adminToken,
    });
    expect(tagged.body.tickets.map((t: any) => t.id)).toEqual([t2.id]);
    const taggedList = await api('GET', `/tickets?status=open&showAll=true&tags=${JSON.stringify([tag.id])}`, {
      token: co.adminToken,
    });
    expect(taggedList.body.tickets.map((t: any) => t.id)).toEqual([t2.id]);

    // renaming the contact moves its tickets in the search
    await api('PUT', `/contacts/${mariana.id}`, { token: co.adminToken, body: { name: 'Beatriz Lima' } });
    const after = await api('GET', '/tickets?searchParam=maria', { token: co.adminToken });
    expect(after.body.tickets.map((t: any) => t.id)).toEqual([t1.id]);
    const renamed = await api('GET', '/tickets?searchParam=beatriz', { token: co.adminToken });
    expect(renamed.body.tickets[0]).toMatchObject({ id: t2.id, contact: { name: 'Beatriz Lima' } });
  });

  it('DELETE /tickets/{id} needs ticket-options:deleteTicket', async () => {
    const co = await newCompany('tk10');
    const { whatsapp, queueA, agentA } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(agentA.token, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const refused = await api('DELETE', `/tickets/${ticket.id}`, { token: agentA.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_NO_PERMISSION');
    expect((await api('DELETE', `/tickets/${ticket.id}`, { token: co.adminToken })).status).toBe(200);
    expect((await api('GET', `/tickets/${ticket.id}`, { token: co.adminToken })).status).toBe(404);
    // the contact may have a new open ticket again
    expect(
      (
        await api('POST', '/tickets', {
          token: co.adminToken,
          body: { contactId: contact.id, whatsappId: whatsapp.id },
        })
      ).status,
    ).toBe(201);
  });

  it('greeting on accept when sendGreetingAccepted is enabled: an automatic message naming the attendant; none for groups', async () => {
    const co = await newCompany('tk11');
    const { whatsapp, queueA, agentA } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken, { name: 'Greeted Person' });
    const group = await createContact(co.adminToken, { name: 'Some Group' });
    // disabled (the default): no greeting
    const quiet = await createPendingTicket(co.adminToken, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    await api('PUT', `/tickets/${quiet.id}`, { token: agentA.token, body: { status: 'open', userId: agentA.id } });
    expect((await api('GET', `/messages/${quiet.id}`, { token: agentA.token })).body.messages).toHaveLength(0);
    await api('PUT', `/tickets/${quiet.id}`, { token: agentA.token, body: { status: 'pending', userId: null } });

    expect(
      (await api('PUT', '/settings/sendGreetingAccepted', { token: co.adminToken, body: { value: 'enabled' } })).status,
    ).toBe(200);
    await api('PUT', `/tickets/${quiet.id}`, { token: agentA.token, body: { status: 'open', userId: agentA.id } });
    const messages = (await api('GET', `/messages/${quiet.id}`, { token: agentA.token })).body.messages;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ fromMe: true, automatic: true, ack: expect.any(Number) });
    expect(messages[0].body).toContain(agentA.user.name);
    expect(messages[0].body).toContain('Greeted Person');

    const groupTicket = await createPendingTicket(co.adminToken, {
      contactId: group.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    await table().set(`C#${co.companyId}`, `TICKET#${pad(groupTicket.id)}`, { isGroup: true });
    await api('PUT', `/tickets/${groupTicket.id}`, {
      token: agentA.token,
      body: { status: 'open', userId: agentA.id },
    });
    expect((await api('GET', `/messages/${groupTicket.id}`, { token: agentA.token })).body.messages).toHaveLength(0);
  });

  it('transfer message when sendMsgTransfTicket is enabled', async () => {
    const co = await newCompany('tk12');
    const { whatsapp, queueA, queueB, agentA } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(agentA.token, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    await api('PUT', `/tickets/${ticket.id}`, {
      token: co.adminToken,
      body: { queueId: queueB.id, userId: null, status: 'pending' },
    });
    expect((await api('GET', `/messages/${ticket.id}`, { token: co.adminToken })).body.messages).toHaveLength(0);

    await api('PUT', '/settings/sendMsgTransfTicket', { token: co.adminToken, body: { value: 'enabled' } });
    await api('PUT', `/tickets/${ticket.id}`, {
      token: co.adminToken,
      body: { queueId: queueA.id, userId: null, status: 'pending' },
    });
    const messages = (await api('GET', `/messages/${ticket.id}`, { token: co.adminToken })).body.messages;
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ fromMe: true, automatic: true });
    expect(messages[0].body).toContain(queueA.name);
  });

  it('ticket events reach only the connections that may see the ticket (queue members, admins), never another company', async () => {
    const co = await newCompany('tk13');
    const other = await newCompany('tk13b');
    const { whatsapp, queueA, agentA, agentB } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const wsA = await realtimeClient(agentA.token);
    const wsB = await realtimeClient(agentB.token);
    const wsAdmin = await realtimeClient(co.adminToken);
    const wsOther = await realtimeClient(other.adminToken);
    try {
      const ticket = await createPendingTicket(co.adminToken, {
        contactId: contact.id,
        whatsappId: whatsapp.id,
        queueId: queueA.id,
      });
      await api('PUT', `/tickets/${ticket.id}`, { token: agentA.token, body: { status: 'open', userId: agentA.id } });
      const isUpdate = (e: any) =>
        e.event === `company-${co.companyId}-ticket` &&
        e.data.action === 'update' &&
        e.data.ticket?.id === ticket.id &&
        e.data.ticket.status === 'open';
      await wsA.waitFor(isUpdate);
      await wsAdmin.waitFor(isUpdate);
      await sleep(300);
      expect(wsB.events.filter((e) => e.event.endsWith('-ticket'))).toHaveLength(0);
      expect(wsOther.events.filter((e) => e.event.includes('ticket'))).toHaveLength(0);

      // a transfer out of queue A removes it from agent A's lists
      const { queueB } = {
        queueB: (await api('GET', '/queue', { token: co.adminToken })).body.find((q: any) => q.id !== queueA.id),
      };
      await api('PUT', `/tickets/${ticket.id}`, {
        token: co.adminToken,
        body: { queueId: queueB.id, userId: null, status: 'pending' },
      });
      await wsA.waitFor(
        (e) =>
          e.event === `company-${co.companyId}-ticket` && e.data.action === 'delete' && e.data.ticketId === ticket.id,
      );
      await wsB.waitFor(
        (e) =>
          e.event === `company-${co.companyId}-ticket` &&
          e.data.action === 'update' &&
          e.data.ticket?.queueId === queueB.id,
      );
    } finally {
      for (const ws of [wsA, wsB, wsAdmin, wsOther]) ws.close();
    }
  });

  it("an attendant's ticket list follows a change of their queues at once (the list is planned on a kept copy of the user, read again beside it)", async () => {
    const co = await newCompany('tk-kept');
    const { whatsapp, queueA, queueB, agentA } = await attendanceCompany(co);
    const inA = await createPendingTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const inB = await createPendingTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: whatsapp.id,
      queueId: queueB.id,
    });
    const pendingIds = async () =>
      (await api('GET', '/tickets?status=pending', { token: agentA.token })).body.tickets.map((t: any) => t.id);
    expect(await pendingIds()).toEqual([inA.id]);
    expect(await pendingIds()).toEqual([inA.id]);
    const moved = await api('PUT', `/users/${agentA.id}`, { token: co.adminToken, body: { queueIds: [queueB.id] } });
    expect(moved.status).toBe(200);
    expect(await pendingIds()).toEqual([inB.id]);
  });

  it('GET /ticket/kanban needs the plan feature useKanban', async () => {
    const co = await newCompany('tk14');
    const whatsapp = await createWhatsapp(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id });
    const board = await api('GET', '/ticket/kanban', { token: co.adminToken });
    expect(board.status).toBe(200);
    expect(board.body.tickets.map((t: any) => t.id)).toContain(ticket.id);
    // move the company to a plan of its own without kanban (plans are shared by the other tests)
    const company = await table().get(`C#${co.companyId}`, 'COMPANY');
    const plan = await table().get('PLAN', `PLAN#${pad(company!.planId)}`);
    const planId = 900000 + Math.floor(Math.random() * 90000);
    const { pk: _pk, sk: _sk, ...fields } = plan!;
    await table().set('PLAN', `PLAN#${pad(planId)}`, {
      ...fields,
      id: planId,
      name: `No kanban ${planId}`,
      useKanban: false,
    });
    await table().set(`C#${co.companyId}`, 'COMPANY', { planId });
    const refused = await api('GET', '/ticket/kanban', { token: co.adminToken });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
    expect((await api('GET', '/tags/kanban', { token: co.adminToken })).status).toBe(403);
  });
});
