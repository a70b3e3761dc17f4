import { describe, it, expect } from 'vitest';
import { api, newCompany } from './helpers';
import { createContact, createTicket, createUser, createWhatsapp, createQueue } from './fixtures';

describe('tenant isolation and showAll over the attendance routes', () => {
  it('a user of company B gets 404 for every id of company A, on every tickets/messages/notes/contacts/tags route', async () => {
    const a = await newCompany('isoA');
    const b = await newCompany('isoB');
    const w = await createWhatsapp(a);
    const contact = await createContact(a.adminToken);
    const ticket = await createTicket(a.adminToken, { contactId: contact.id, whatsappId: w.id });
    const message = (await api('POST', `/messages/${ticket.id}`, { token: a.adminToken, body: { body: 'secret' } }))
      .body;
    const note = (
      await api('POST', '/ticket-notes', {
        token: a.adminToken,
        body: { note: 'secret note', ticketId: ticket.id, contactId: contact.id },
      })
    ).body;
    // ids are per company: give A's tag an id B does not have
    for (const name of ['First tag', 'Second tag']) await api('POST', '/tags', { token: a.adminToken, body: { name } });
    const tag = (await api('POST', '/tags', { token: a.adminToken, body: { name: 'Secret tag' } })).body;
    const bTag = (await api('POST', '/tags', { token: b.adminToken, body: { name: 'B tag' } })).body;

    const routes: [string, string, unknown?][] = [
      ['GET', `/tickets/${ticket.id}`],
      ['GET', `/tickets/u/${ticket.uuid}`],
      ['PUT', `/tickets/${ticket.id}`, { status: 'closed' }],
      ['DELETE', `/tickets/${ticket.id}`],
      ['DELETE', `/ticket-tags/${ticket.id}`],
      ['PUT', `/ticket-tags/${ticket.id}/${bTag.id}`],
      ['GET', `/messages/${ticket.id}`],
      ['POST', `/messages/${ticket.id}`, { body: 'hi' }],
      ['DELETE', `/messages/${message.id}`],
      ['POST', '/ticket-notes', { note: 'hello', ticketId: ticket.id, contactId: contact.id }],
      ['DELETE', `/ticket-notes/${note.id}`],
      ['GET', `/ticket-notes/list?ticketId=${ticket.id}&contactId=${contact.id}`],
      ['GET', `/contacts/${contact.id}`],
      ['PUT', `/contacts/${contact.id}`, { name: 'Taken over' }],
      ['DELETE', `/contacts/${contact.id}`],
      ['POST', '/tickets', { contactId: contact.id, whatsappId: w.id }],
      ['GET', `/tags/${tag.id}`],
      ['PUT', `/tags/${tag.id}`, { name: 'Taken over' }],
      ['DELETE', `/tags/${tag.id}`],
      ['POST', '/tags/sync', { ticketId: ticket.id, tags: [bTag.id] }],
    ];
    for (const [method, path, body] of routes) {
      const res = await api(method, path, { token: b.adminToken, body });
      expect(res.status, `${method} ${path} -> ${JSON.stringify(res.body)}`).toBe(404);
      expect(res.body.error, `${method} ${path}`).toMatch(
        /^ERR_(NO_TICKET_FOUND|NO_CONTACT_FOUND|NOT_FOUND|NO_WAPP_FOUND)$/,
      );
    }

    // B's lists never show A's data
    const lists = await Promise.all([
      api('GET', '/tickets?status=open&showAll=true', { token: b.adminToken }),
      api('GET', '/tickets?searchParam=contact', { token: b.adminToken }),
      api('GET', '/contacts', { token: b.adminToken }),
      api('GET', '/contacts/list', { token: b.adminToken }),
      api('GET', '/tags', { token: b.adminToken }),
      api('GET', '/tags/list', { token: b.adminToken }),
      api('GET', '/ticket/kanban', { token: b.adminToken }),
    ]);
    const text = JSON.stringify(lists.map((l) => l.body));
    expect(text).not.toContain(contact.name);
    expect(text).not.toContain('Secret tag');
    expect(text).not.toContain(ticket.uuid);
    expect((await api('GET', '/dashboard?days=1', { token: b.adminToken })).body.counters.newContacts).toBe(0);

    // and A's data is intact
    expect((await api('GET', `/tickets/${ticket.id}`, { token: a.adminToken })).body.status).toBe('open');
    expect((await api('GET', `/contacts/${contact.id}`, { token: a.adminToken })).body.name).toBe(contact.name);
  });

  it('showAll is honoured only for roles with tickets-manager:showall', async () => {
    const co = await newCompany('isoS');
    const w = await createWhatsapp(co);
    const queue = await createQueue(co.adminToken);
    const agent = await createUser(co, { queueIds: [queue.id] });
    const adminTicket = await createTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: w.id,
      queueId: queue.id,
    });
    const agentTicket = await createTicket(agent.token, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: w.id,
      queueId: queue.id,
    });
    const asAgent = await api('GET', '/tickets?status=open&showAll=true', { token: agent.token });
    expect(asAgent.body.tickets.map((t: any) => t.id)).toEqual([agentTicket.id]);
    const asAdmin = await api('GET', '/tickets?status=open&showAll=true', { token: co.adminToken });
    expect(asAdmin.body.tickets.map((t: any) => t.id).sort()).toEqual([adminTicket.id, agentTicket.id].sort());
    const adminOwn = await api('GET', '/tickets?status=open', { token: co.adminToken });
    expect(adminOwn.body.tickets.map((t: any) => t.id)).toEqual([adminTicket.id]);
  });

  it('pending tickets without a queue are listed to non-admins only with allTicket enabled; queued ones to their queue members', async () => {
    const co = await newCompany('isoP');
    const w = await createWhatsapp(co);
    const queue = await createQueue(co.adminToken);
    const strict = await createUser(co, { queueIds: [queue.id], allTicket: 'desabled' });
    const broad = await createUser(co, { queueIds: [queue.id], allTicket: 'enabled' });
    const outsider = await createUser(co, { queueIds: [], allTicket: 'desabled' });
    const noQueue = await createTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: w.id,
    });
    await api('PUT', `/tickets/${noQueue.id}`, { token: co.adminToken, body: { status: 'pending', userId: null } });
    const queued = await createTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: w.id,
      queueId: queue.id,
    });
    await api('PUT', `/tickets/${queued.id}`, {
      token: co.adminToken,
      body: { status: 'pending', userId: null, queueId: queue.id },
    });

    const ids = async (token: string) =>
      (await api('GET', '/tickets?status=pending', { token })).body.tickets.map((t: any) => t.id).sort();
    expect(await ids(strict.token)).toEqual([queued.id]);
    expect(await ids(broad.token)).toEqual([noQueue.id, queued.id].sort());
    expect(await ids(outsider.token)).toEqual([]);
    expect((await api('GET', `/tickets/${noQueue.id}`, { token: strict.token })).status).toBe(403);
    expect((await api('GET', `/tickets/${noQueue.id}`, { token: broad.token })).status).toBe(200);
  });
});
