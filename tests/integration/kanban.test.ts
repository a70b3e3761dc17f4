import { describe, it, expect } from 'vitest';
import { api, newCompany, realtimeClient } from './helpers';
import { attendanceCompany, createContact, createTicket } from './fixtures';
import { laneOf, movedTags } from '../../web/src/kanban/board';

const newTag = async (token: string, body: Record<string, unknown>) =>
  (await api('POST', '/tags', { token, body })).body;

describe('kanban board', () => {
  it('a card move removes the ticket’s kanban tag then adds the target lane’s tag; other tags and counts follow', async () => {
    const co = await newCompany('kb1');
    const { whatsapp } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id });
    const todo = await newTag(co.adminToken, { name: 'To do', color: '#111111', kanban: 1 });
    const done = await newTag(co.adminToken, { name: 'Done', color: '#222222', kanban: 1 });
    const plain = await newTag(co.adminToken, { name: 'Customer', color: '#333333' });
    await api('POST', '/tags/sync', { token: co.adminToken, body: { ticketId: ticket.id, tags: [plain.id, todo.id] } });

    const lanes = (await api('GET', '/tags/kanban', { token: co.adminToken })).body.lista;
    const laneIds = lanes.map((t: any) => t.id);
    expect(laneIds.sort()).toEqual([todo.id, done.id].sort());
    const before = (await api('GET', '/ticket/kanban', { token: co.adminToken })).body.tickets.find(
      (t: any) => t.id === ticket.id,
    );
    expect(laneOf(before, laneIds)).toBe(`tag-${todo.id}`);

    // the board's move: one sync with the current lane tag removed and the target added
    const moved = await api('POST', '/tags/sync', {
      token: co.adminToken,
      body: { ticketId: ticket.id, tags: movedTags(before, laneIds, done).map((t) => t.id) },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.ticket.tags.map((t: any) => t.id).sort()).toEqual([plain.id, done.id].sort());
    const after = (await api('GET', '/ticket/kanban', { token: co.adminToken })).body.tickets.find(
      (t: any) => t.id === ticket.id,
    );
    expect(laneOf(after, laneIds)).toBe(`tag-${done.id}`);
    expect((await api('GET', `/tags/${todo.id}`, { token: co.adminToken })).body.ticketsCount).toBe(0);
    expect((await api('GET', `/tags/${done.id}`, { token: co.adminToken })).body.ticketsCount).toBe(1);
    expect((await api('GET', `/tags/${plain.id}`, { token: co.adminToken })).body.ticketsCount).toBe(1);

    // back to the untagged lane: only the lane tag goes
    const untagged = await api('POST', '/tags/sync', {
      token: co.adminToken,
      body: { ticketId: ticket.id, tags: movedTags(after, laneIds, null).map((t) => t.id) },
    });
    expect(untagged.body.ticket.tags.map((t: any) => t.id)).toEqual([plain.id]);
    expect(laneOf(untagged.body.ticket, laneIds)).toBe('untagged');
  });

  it('admins see every ticket on the board, attendants the tickets of their queues; a move outside them is refused', async () => {
    const co = await newCompany('kb2');
    const { whatsapp, queueA, queueB, agentA } = await attendanceCompany(co);
    const lane = await newTag(co.adminToken, { name: 'Lane', kanban: 1 });
    const inA = await createTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const inB = await createTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: whatsapp.id,
      queueId: queueB.id,
    });
    const adminBoard = await api('GET', '/ticket/kanban?showAll=true', { token: co.adminToken });
    expect(adminBoard.body.tickets.map((t: any) => t.id)).toEqual(expect.arrayContaining([inA.id, inB.id]));
    const agentBoard = await api('GET', `/ticket/kanban?queueIds=${JSON.stringify([queueA.id])}`, {
      token: agentA.token,
    });
    const seen = agentBoard.body.tickets.map((t: any) => t.id);
    expect(seen).toContain(inA.id);
    expect(seen).not.toContain(inB.id);
    const refused = await api('POST', '/tags/sync', {
      token: agentA.token,
      body: { ticketId: inB.id, tags: [lane.id] },
    });
    expect(refused.status).toBe(403);
    expect((await api('GET', `/tickets/${inB.id}`, { token: co.adminToken })).body.tags).toEqual([]);
  });

  it('a move is live: the ticket and tag events reach the company, never another one', async () => {
    const co = await newCompany('kb3');
    const other = await newCompany('kb3b');
    const { whatsapp } = await attendanceCompany(co);
    const lane = await newTag(co.adminToken, { name: 'Live lane', kanban: 1 });
    const ticket = await createTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: whatsapp.id,
    });
    const ws = await realtimeClient(co.adminToken);
    const wsOther = await realtimeClient(other.adminToken);
    try {
      await api('POST', '/tags/sync', { token: co.adminToken, body: { ticketId: ticket.id, tags: [lane.id] } });
      const update = await ws.waitFor(
        (e) => e.event === `company-${co.companyId}-ticket` && e.data.ticket?.id === ticket.id,
      );
      expect(update.data.ticket.tags.map((t: any) => t.id)).toEqual([lane.id]);
      expect(wsOther.events.filter((e) => e.event.includes(`-${co.companyId}-`))).toEqual([]);
      expect(wsOther.events.filter((e) => e.event.endsWith('-ticket'))).toEqual([]);
    } finally {
      ws.close();
      wsOther.close();
    }
  });
});
