import { describe, it, expect } from 'vitest';
import { MAX_NOTES_PER_TICKET } from '#shared/constants';
import { api, newCompany, realtimeClient, sleep, table } from './helpers';
import { attendanceCompany, createContact, createTicket } from './fixtures';

describe('ticket notes', () => {
  it('a note needs at least 2 characters; notes list by ticket and contact, newest first; author or admin deletes', async () => {
    const co = await newCompany('nt1');
    const { whatsapp, queueA, agentA } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(agentA.token, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const short = await api('POST', '/ticket-notes', {
      token: agentA.token,
      body: { note: 'x', ticketId: ticket.id, contactId: contact.id },
    });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ error: 'ERR_VALIDATION', details: [{ path: ['note'], message: 'short' }] });

    const first = await api('POST', '/ticket-notes', {
      token: agentA.token,
      body: { note: 'called the customer', ticketId: ticket.id, contactId: contact.id },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      note: 'called the customer',
      ticketId: ticket.id,
      contactId: contact.id,
      user: { id: agentA.id, name: agentA.user.name },
    });
    const second = (
      await api('POST', '/ticket-notes', {
        token: co.adminToken,
        body: { note: 'sent the invoice', ticketId: ticket.id, contactId: contact.id },
      })
    ).body;

    const list = await api('GET', `/ticket-notes/list?ticketId=${ticket.id}&contactId=${contact.id}`, {
      token: agentA.token,
    });
    expect(list.status).toBe(200);
    expect(list.body.map((n: any) => n.id)).toEqual([second.id, first.body.id]);

    expect((await api('DELETE', `/ticket-notes/${second.id}`, { token: agentA.token })).status).toBe(403);
    expect((await api('DELETE', `/ticket-notes/${first.body.id}`, { token: agentA.token })).status).toBe(200);
    expect((await api('DELETE', `/ticket-notes/${second.id}`, { token: co.adminToken })).status).toBe(200);
    expect(
      (await api('GET', `/ticket-notes/list?ticketId=${ticket.id}&contactId=${contact.id}`, { token: co.adminToken }))
        .body,
    ).toEqual([]);
  });

  it("notes of a ticket outside the user's queues are refused; another company gets 404; ticketNote events go to the ticket's viewers", async () => {
    const co = await newCompany('nt2');
    const other = await newCompany('nt2b');
    const { whatsapp, queueA, agentA, agentB } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(agentA.token, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const wsA = await realtimeClient(agentA.token);
    const wsB = await realtimeClient(agentB.token);
    try {
      const body = { note: 'internal remark', ticketId: ticket.id, contactId: contact.id };
      expect((await api('POST', '/ticket-notes', { token: agentB.token, body })).status).toBe(403);
      expect(
        (await api('GET', `/ticket-notes/list?ticketId=${ticket.id}&contactId=${contact.id}`, { token: agentB.token }))
          .status,
      ).toBe(403);
      const foreign = await api('POST', '/ticket-notes', { token: other.adminToken, body });
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toBe('ERR_NO_TICKET_FOUND');
      const note = (await api('POST', '/ticket-notes', { token: agentA.token, body })).body;
      await wsA.waitFor(
        (e) =>
          e.event === `company-${co.companyId}-ticketNote` && e.data.action === 'create' && e.data.note.id === note.id,
      );
      expect((await api('DELETE', `/ticket-notes/${note.id}`, { token: other.adminToken })).status).toBe(404);
      await sleep(200);
      expect(wsB.events.filter((e) => e.event.endsWith('-ticketNote'))).toHaveLength(0);
    } finally {
      wsA.close();
      wsB.close();
    }
  });
  it('a ticket holds at most MAX_NOTES_PER_TICKET notes by people (ERR_LIST_LIMIT_REACHED); deleting one frees a place; the system still writes its own', async () => {
    const co = await newCompany('nt-cap');
    const { whatsapp, queueA, agentA } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(agentA.token, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const note = (token: string, text: string) =>
      api('POST', '/ticket-notes', { token, body: { note: text, ticketId: ticket.id, contactId: contact.id } });
    const first = await note(agentA.token, 'the first note');
    expect(first.status).toBe(201);
    // the notes written before the last two places (creating 298 more through the API proves nothing new)
    const counter = `COUNTER#ticketNotes#${String(ticket.id).padStart(10, '0')}`;
    expect((await table().get(`C#${co.companyId}`, counter))?.value).toBe(1);
    await table().set(`C#${co.companyId}`, counter, { value: MAX_NOTES_PER_TICKET - 1 });
    expect((await note(agentA.token, 'the last place')).status).toBe(201);
    const over = await note(co.adminToken, 'one too many');
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({
      error: 'ERR_LIST_LIMIT_REACHED',
      details: { limit: 'notesPerTicket', max: MAX_NOTES_PER_TICKET },
    });
    const listed = async () =>
      (await api('GET', `/ticket-notes/list?ticketId=${ticket.id}&contactId=${contact.id}`, { token: co.adminToken }))
        .body as { id: number; note: string; user: { id: number } }[];
    expect((await listed()).map((n) => n.note)).toEqual(['the last place', 'the first note']);
    // a takeover's system note is written whatever the count
    expect((await api('POST', `/tickets/${ticket.id}/takeover`, { token: co.adminToken })).status).toBe(200);
    const system = (await listed()).filter((n) => n.user.id === 0);
    expect(system).toHaveLength(1);
    // deleting a person's note frees a place; deleting the system's note frees none
    expect((await api('DELETE', `/ticket-notes/${first.body.id}`, { token: co.adminToken })).status).toBe(200);
    expect((await api('DELETE', `/ticket-notes/${system[0]!.id}`, { token: co.adminToken })).status).toBe(200);
    expect((await note(co.adminToken, 'a freed place')).status).toBe(201);
    expect((await note(co.adminToken, 'over again')).body.error).toBe('ERR_LIST_LIMIT_REACHED');
  });
});
