import { describe, expect, it } from 'vitest';
import { api, newCompany, queuesIdle, realtimeClient } from './helpers';
import { createContact, createPendingTicket, createQueue, createTicket, createUser, createWhatsapp } from './fixtures';

/**
 * The soft lock (issue 24): only the assignee of an open ticket sends in it; an admin (or anyone, with
 * takeoverByAnyUser) takes it over with POST /tickets/{id}/takeover.
 */

async function team(label: string) {
  const co = await newCompany(label);
  const whatsapp = await createWhatsapp(co);
  const queue = await createQueue(co.adminToken);
  // both in the queue: each can see the other's tickets, so the lock (not visibility) is what refuses
  const ana = await createUser(co, { name: 'Ana', queueIds: [queue.id] });
  const bruno = await createUser(co, { name: 'Bruno', queueIds: [queue.id] });
  const contact = await createContact(co.adminToken);
  const ticket = await createTicket(ana.token, { contactId: contact.id, whatsappId: whatsapp.id, queueId: queue.id });
  return { co, whatsapp, queue, ana, bruno, contact, ticket };
}

const bodiesOf = async (token: string, ticketId: number) =>
  ((await api('GET', `/messages/${ticketId}`, { token })).body.messages as { body: string }[]).map((m) => m.body);

const notesOf = async (token: string, contactId: number, ticketId: number) =>
  (await api('GET', `/ticket-notes/list?contactId=${contactId}&ticketId=${ticketId}`, { token })).body as {
    note: string;
  }[];

describe('soft lock: only the assignee sends', () => {
  it('a colleague and an admin are refused every kind of send into a ticket another attendant handles, and nothing is stored', async () => {
    const { co, ana, bruno, ticket } = await team('lock-send');
    const quick = await api('POST', '/quick-messages', {
      token: co.adminToken,
      body: { shortcode: 'hi', message: 'Hello from the shortcut', geral: true },
    });
    expect(quick.status).toBe(201);

    for (const token of [bruno.token, co.adminToken]) {
      const text = await api('POST', `/messages/${ticket.id}`, { token, body: { body: 'not mine to send' } });
      expect(text.status).toBe(403);
      expect(text.body.error).toBe('ERR_TICKET_LOCKED');

      const form = new FormData();
      form.append('medias', new Blob([Buffer.from('%PDF-1.4 small')], { type: 'application/pdf' }), 'locked.pdf');
      const media = await api('POST', `/messages/${ticket.id}`, { token, body: form });
      expect(media.status).toBe(403);
      expect(media.body.error).toBe('ERR_TICKET_LOCKED');

      const shortcut = await api('POST', `/messages/${ticket.id}`, {
        token,
        body: { body: 'Hello from the shortcut', quickMessageId: quick.body.id },
      });
      expect(shortcut.status).toBe(403);
      expect(shortcut.body.error).toBe('ERR_TICKET_LOCKED');
    }
    expect(await bodiesOf(co.adminToken, ticket.id)).toEqual([]);

    // the assignee sends; a colleague may not resend the assignee's message either
    const own = await api('POST', `/messages/${ticket.id}`, { token: ana.token, body: { body: 'mine' } });
    expect(own.status).toBe(201);
    await queuesIdle();
    const resend = await api('POST', `/messages/${own.body.id}/resend`, { token: bruno.token });
    expect(resend.status).toBe(403);
    expect(resend.body.error).toBe('ERR_TICKET_LOCKED');
    expect(await bodiesOf(co.adminToken, ticket.id)).toEqual(['mine']);
  });

  it('a pending ticket (nobody handles it) locks nobody out, as before', async () => {
    const { co, whatsapp, queue, bruno } = await team('lock-pending');
    const contact = await createContact(co.adminToken);
    const pending = await createPendingTicket(co.adminToken, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queue.id,
    });
    expect(pending.status).toBe('pending');
    const sent = await api('POST', `/messages/${pending.id}`, { token: bruno.token, body: { body: 'anyone may' } });
    expect(sent.status).toBe(201);
  });
});

describe('takeover', () => {
  it('an admin takes over in one call: the assignment moves, a note is left, the ticket event goes out, the takeover is audited, and the former assignee is locked out', async () => {
    const { co, ana, contact, ticket } = await team('lock-takeover');
    const anaWs = await realtimeClient(ana.token);
    const adminWs = await realtimeClient(co.adminToken);
    try {
      await adminWs.join('joinChatBox', ticket.id);
      const res = await api('POST', `/tickets/${ticket.id}/takeover`, { token: co.adminToken });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: ticket.id, status: 'open', userId: co.admin.id, user: { name: 'Owner' } });

      const stored = await api('GET', `/tickets/${ticket.id}`, { token: co.adminToken });
      expect(stored.body).toMatchObject({ status: 'open', userId: co.admin.id });
      const event = await adminWs.waitFor(
        (e) => e.event === `company-${co.companyId}-ticket` && e.data.ticket?.id === ticket.id,
      );
      expect(event.data.ticket.userId).toBe(co.admin.id);
      // Ana, in the ticket's queue, hears the change too
      await anaWs.waitFor((e) => e.event === `company-${co.companyId}-ticket` && e.data.ticketId === ticket.id);
      await adminWs.waitFor((e) => e.event === `company-${co.companyId}-ticketNote`);

      const notes = await notesOf(co.adminToken, contact.id, ticket.id);
      expect(notes.map((n) => n.note)).toEqual(['Atendimento assumido por Owner (estava com Ana).']);

      const audit = await api('GET', '/audit?action=ticket.taken_over', { token: co.adminToken });
      expect(audit.status).toBe(200);
      expect(audit.body.entries).toHaveLength(1);
      expect(audit.body.entries[0]).toMatchObject({
        actorId: co.admin.id,
        target: { type: 'ticket', id: ticket.id },
        changes: { userId: { from: ana.id, to: co.admin.id } },
      });

      const locked = await api('POST', `/messages/${ticket.id}`, { token: ana.token, body: { body: 'still mine?' } });
      expect(locked.status).toBe(403);
      expect(locked.body.error).toBe('ERR_TICKET_LOCKED');
      const sent = await api('POST', `/messages/${ticket.id}`, { token: co.adminToken, body: { body: 'taken' } });
      expect(sent.status).toBe(201);

      // taking over one's own ticket again changes nothing
      const again = await api('POST', `/tickets/${ticket.id}/takeover`, { token: co.adminToken });
      expect(again.status).toBe(200);
      expect(await notesOf(co.adminToken, contact.id, ticket.id)).toHaveLength(1);
    } finally {
      anaWs.close();
      adminWs.close();
    }
  });

  it('an attendant may take over only when the company allows it (takeoverByAnyUser, off by default)', async () => {
    const { co, ana, bruno, ticket } = await team('lock-any');
    const refused = await api('POST', `/tickets/${ticket.id}/takeover`, { token: bruno.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_NO_PERMISSION');
    expect((await api('GET', `/tickets/${ticket.id}`, { token: co.adminToken })).body.userId).toBe(ana.id);

    // an attendant cannot turn it on
    const selfServe = await api('PUT', '/settings/takeoverByAnyUser', {
      token: bruno.token,
      body: { value: 'enabled' },
    });
    expect(selfServe.status).toBe(403);
    const enabled = await api('PUT', '/settings/takeoverByAnyUser', {
      token: co.adminToken,
      body: { value: 'enabled' },
    });
    expect(enabled.status).toBe(200);

    const taken = await api('POST', `/tickets/${ticket.id}/takeover`, { token: bruno.token });
    expect(taken.status).toBe(200);
    expect(taken.body.userId).toBe(bruno.id);
  });

  it('nothing to take over: a pending ticket is ERR_TICKET_NOT_LOCKED; another company’s ticket is not found', async () => {
    const { co, whatsapp, queue, ticket } = await team('lock-edges');
    const contact = await createContact(co.adminToken);
    const pending = await createPendingTicket(co.adminToken, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queue.id,
    });
    const res = await api('POST', `/tickets/${pending.id}/takeover`, { token: co.adminToken });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('ERR_TICKET_NOT_LOCKED');

    const other = await newCompany('lock-edges-other');
    const foreign = await api('POST', `/tickets/${ticket.id}/takeover`, { token: other.adminToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_TICKET_FOUND');
    const foreignSend = await api('POST', `/messages/${ticket.id}`, { token: other.adminToken, body: { body: 'x' } });
    expect(foreignSend.status).toBe(404);
    expect((await api('GET', `/tickets/${ticket.id}`, { token: co.adminToken })).body.userId).not.toBe(other.admin.id);
  });
});
