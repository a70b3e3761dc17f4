import { describe, it, expect } from 'vitest';
import { api, newCompany, realtimeClient, sleep } from './helpers';
import { MAX_TAGS_PER_COMPANY } from '#shared/constants';
import { attendanceCompany, createContact, createTicket, createUser, createWhatsapp } from './fixtures';

const newTag = async (token: string, body: Record<string, unknown>) => api('POST', '/tags', { token, body });

describe('tags and kanban', () => {
  it('a tag needs a name of at least 3 characters; the kanban flag is set only by admins and supervisors (tags:kanban)', async () => {
    const co = await newCompany('tg1');
    const short = await newTag(co.adminToken, { name: 'ab' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ error: 'ERR_VALIDATION', details: [{ path: ['name'], message: 'short' }] });

    const agent = await createUser(co);
    const plain = await newTag(agent.token, { name: 'Follow up', color: '#00ff00' });
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ name: 'Follow up', color: '#00ff00', kanban: 0, ticketsCount: 0 });
    const refused = await newTag(agent.token, { name: 'Lane by agent', kanban: 1 });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_NO_PERMISSION');
    expect((await api('PUT', `/tags/${plain.body.id}`, { token: agent.token, body: { kanban: 1 } })).status).toBe(403);

    const supervisor = await createUser(co, { profile: 'supervisor' });
    const bySupervisor = await api('PUT', `/tags/${plain.body.id}`, { token: supervisor.token, body: { kanban: 1 } });
    expect(bySupervisor.status).toBe(200);
    expect(bySupervisor.body.kanban).toBe(1);
    const byAdmin = await newTag(co.adminToken, { name: 'Admin lane', kanban: true });
    expect(byAdmin.body.kanban).toBe(1);

    const lanes = await api('GET', '/tags/kanban', { token: co.adminToken });
    expect(lanes.body.lista.map((t: any) => t.name).sort()).toEqual(['Admin lane', 'Follow up']);
  });

  it('a company has at most MAX_TAGS_PER_COMPANY tags (ERR_LIST_LIMIT_REACHED); deleting one frees a slot', async () => {
    const co = await newCompany('tg-cap');
    const agent = await createUser(co);
    for (let start = 0; start < MAX_TAGS_PER_COMPANY; start += 20) {
      const batch = Array.from({ length: Math.min(20, MAX_TAGS_PER_COMPANY - start) }, (_, i) =>
        newTag(start % 40 ? agent.token : co.adminToken, { name: `Tag ${start + i}` }),
      );
      for (const res of await Promise.all(batch)) expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const over = await newTag(agent.token, { name: 'One too many' });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({
      error: 'ERR_LIST_LIMIT_REACHED',
      details: { limit: 'tagsPerCompany', max: MAX_TAGS_PER_COMPANY },
    });
    expect((await newTag(co.adminToken, { name: 'Admin too many' })).body.error).toBe('ERR_LIST_LIMIT_REACHED');
    const all = (await api('GET', '/tags/list', { token: co.adminToken })).body as { id: number; name: string }[];
    expect(all).toHaveLength(MAX_TAGS_PER_COMPANY);
    expect(all.map((t) => t.name)).not.toContain('One too many');

    expect((await api('DELETE', `/tags/${all[0]!.id}`, { token: co.adminToken })).status).toBe(200);
    expect((await api('DELETE', `/tags/${all[0]!.id}`, { token: co.adminToken })).status).toBe(404);
    expect((await newTag(agent.token, { name: 'After delete' })).status).toBe(201);
    expect((await newTag(agent.token, { name: 'Over again' })).body.error).toBe('ERR_LIST_LIMIT_REACHED');
  });

  it('sync, kanban move (remove then add), ticketsCount, rename and delete keep the ticket chips right', async () => {
    const co = await newCompany('tg2');
    const whatsapp = await createWhatsapp(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id });
    const vip = (await newTag(co.adminToken, { name: 'VIP', color: '#111111', kanban: 1 })).body;
    const late = (await newTag(co.adminToken, { name: 'Late payer', color: '#222222', kanban: 1 })).body;

    const synced = await api('POST', '/tags/sync', {
      token: co.adminToken,
      body: { ticketId: ticket.id, tags: [{ id: vip.id, name: 'VIP' }, { id: late.id }] },
    });
    expect(synced.status).toBe(200);
    expect(synced.body.tags.map((t: any) => t.id).sort()).toEqual([vip.id, late.id].sort());
    const list = await api('GET', '/tags?searchParam=vi', { token: co.adminToken });
    expect(list.body.tags).toEqual([expect.objectContaining({ id: vip.id, ticketsCount: 1 })]);

    // kanban move: remove the ticket's tags, then add the target lane's tag
    expect((await api('DELETE', `/ticket-tags/${ticket.id}`, { token: co.adminToken })).body.tags).toEqual([]);
    const moved = await api('PUT', `/ticket-tags/${ticket.id}/${late.id}`, { token: co.adminToken });
    expect(moved.body.tags).toEqual([{ id: late.id, name: 'Late payer', color: '#222222' }]);
    expect((await api('GET', `/tags/${vip.id}`, { token: co.adminToken })).body.ticketsCount).toBe(0);
    expect((await api('GET', `/tags/${late.id}`, { token: co.adminToken })).body.ticketsCount).toBe(1);

    const board = await api('GET', '/ticket/kanban', { token: co.adminToken });
    expect(board.body.tickets.find((t: any) => t.id === ticket.id).tags).toEqual([
      { id: late.id, name: 'Late payer', color: '#222222' },
    ]);

    await api('PUT', `/tags/${late.id}`, { token: co.adminToken, body: { name: 'Late again', color: '#333333' } });
    expect((await api('GET', `/tickets/${ticket.id}`, { token: co.adminToken })).body.tags).toEqual([
      { id: late.id, name: 'Late again', color: '#333333' },
    ]);
    expect((await api('DELETE', `/tags/${late.id}`, { token: co.adminToken })).status).toBe(200);
    expect((await api('GET', `/tickets/${ticket.id}`, { token: co.adminToken })).body.tags).toEqual([]);
    expect((await api('GET', `/tags/${late.id}`, { token: co.adminToken })).status).toBe(404);
  });

  it('tags of another company are unreachable (404) and cannot be put on a ticket; a non-admin cannot tag a ticket outside their queues', async () => {
    const co = await newCompany('tg3');
    const other = await newCompany('tg3b');
    const { whatsapp, queueA, agentB } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(co.adminToken, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const foreign = (await newTag(other.adminToken, { name: 'Foreign tag' })).body;
    for (const [method, path] of [
      ['GET', `/tags/${foreign.id}`],
      ['PUT', `/tags/${foreign.id}`],
      ['DELETE', `/tags/${foreign.id}`],
    ] as const) {
      expect(
        (await api(method, path, { token: co.adminToken, body: method === 'PUT' ? { name: 'Mine now' } : undefined }))
          .status,
        `${method} ${path}`,
      ).toBe(404);
    }
    expect((await api('PUT', `/ticket-tags/${ticket.id}/${foreign.id}`, { token: co.adminToken })).status).toBe(404);
    expect(
      (await api('POST', '/tags/sync', { token: other.adminToken, body: { ticketId: ticket.id, tags: [foreign.id] } }))
        .status,
    ).toBe(404);
    const mine = (await newTag(co.adminToken, { name: 'Own tag' })).body;
    const outside = await api('PUT', `/ticket-tags/${ticket.id}/${mine.id}`, { token: agentB.token });
    expect(outside.status).toBe(403);
  });

  it('tag events reach the company only; /tags/list lists every tag by name', async () => {
    const co = await newCompany('tg4');
    const other = await newCompany('tg4b');
    const ws = await realtimeClient(co.adminToken);
    const wsOther = await realtimeClient(other.adminToken);
    try {
      const tag = (await newTag(co.adminToken, { name: 'Zebra' })).body;
      await newTag(co.adminToken, { name: 'Alpha' });
      await ws.waitFor(
        (e) => e.event === `company-${co.companyId}-tag` && e.data.action === 'create' && e.data.tag.id === tag.id,
      );
      await api('DELETE', `/tags/${tag.id}`, { token: co.adminToken });
      await ws.waitFor(
        (e) => e.event === `company-${co.companyId}-tag` && e.data.action === 'delete' && e.data.tagId === tag.id,
      );
      await sleep(200);
      expect(wsOther.events.filter((e) => e.event.endsWith('-tag'))).toHaveLength(0);
      expect((await api('GET', '/tags/list', { token: co.adminToken })).body.map((t: any) => t.name)).toEqual([
        'Alpha',
      ]);
    } finally {
      ws.close();
      wsOther.close();
    }
  });
});
