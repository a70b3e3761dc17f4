import { describe, it, expect } from 'vitest';
import { api, newCompany } from './helpers';
import { attendanceCompany, createContact, createTicket, createUser } from './fixtures';

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

/** Intra-tenant privilege edges (security review L4): what a plain user may change of others' work. */
describe('privileges inside a company', () => {
  it("a plain user edits and deletes only the tags they created; an admin changes anyone's", async () => {
    const co = await newCompany('pv-tag');
    const agent = await createUser(co);
    const other = await createUser(co);
    const adminTag = (await api('POST', '/tags', { token: co.adminToken, body: { name: 'Admin tag' } })).body;
    const agentTag = (await api('POST', '/tags', { token: agent.token, body: { name: 'Agent tag' } })).body;

    for (const [method, body] of [
      ['PUT', { name: 'Hijacked' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await api(method, `/tags/${adminTag.id}`, { token: agent.token, body });
      expect(res.status, method).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await api('PUT', `/tags/${agentTag.id}`, { token: other.token, body: { name: 'Mine' } })).status).toBe(403);
    // a user cannot hand their tag to someone else either
    expect((await api('PUT', `/tags/${agentTag.id}`, { token: agent.token, body: { userId: other.id } })).status).toBe(
      403,
    );
    expect((await api('GET', `/tags/${adminTag.id}`, { token: co.adminToken })).body).toMatchObject({
      name: 'Admin tag',
    });

    expect(
      (await api('PUT', `/tags/${agentTag.id}`, { token: agent.token, body: { name: 'Agent tag 2' } })).status,
    ).toBe(200);
    expect(
      (await api('PUT', `/tags/${agentTag.id}`, { token: co.adminToken, body: { name: 'By admin' } })).status,
    ).toBe(200);
    expect((await api('DELETE', `/tags/${agentTag.id}`, { token: agent.token })).status).toBe(200);
    expect((await api('DELETE', `/tags/${adminTag.id}`, { token: co.adminToken })).status).toBe(200);
  });

  it("a plain user edits and deletes only their own schedules; an admin changes anyone's", async () => {
    const co = await newCompany('pv-sched');
    const agent = await createUser(co);
    const contact = await createContact(co.adminToken);
    const create = async (token: string) =>
      (
        await api('POST', '/schedules', {
          token,
          body: { body: 'Hello there, see you soon', contactId: contact.id, sendAt: inAnHour() },
        })
      ).body;
    const adminSchedule = await create(co.adminToken);
    const agentSchedule = await create(agent.token);

    const edit = await api('PUT', `/schedules/${adminSchedule.id}`, {
      token: agent.token,
      body: { body: 'Changed by someone else' },
    });
    expect(edit.status).toBe(403);
    expect(edit.body.error).toBe('ERR_NO_PERMISSION');
    const del = await api('DELETE', `/schedules/${adminSchedule.id}`, { token: agent.token });
    expect(del.status).toBe(403);
    expect(del.body.error).toBe('ERR_NO_PERMISSION');
    expect((await api('DELETE', `/schedules/${adminSchedule.id}/media-upload`, { token: agent.token })).status).toBe(
      403,
    );
    expect((await api('GET', `/schedules/${adminSchedule.id}`, { token: co.adminToken })).body).toMatchObject({
      body: 'Hello there, see you soon',
    });

    const own = await api('PUT', `/schedules/${agentSchedule.id}`, {
      token: agent.token,
      body: { body: 'My own schedule, edited' },
    });
    expect(own.status).toBe(200);
    expect(
      (await api('PUT', `/schedules/${agentSchedule.id}`, { token: co.adminToken, body: { body: 'Edited by admin' } }))
        .status,
    ).toBe(200);
    expect((await api('DELETE', `/schedules/${agentSchedule.id}`, { token: agent.token })).status).toBe(200);
  });

  it('quoting a message of a conversation the user cannot see neither returns nor copies its body', async () => {
    const co = await newCompany('pv-quote');
    const { whatsapp, queueA, queueB, agentA } = await attendanceCompany(co);
    const secretContact = await createContact(co.adminToken);
    const secretTicket = await createTicket(co.adminToken, {
      contactId: secretContact.id,
      whatsappId: whatsapp.id,
      queueId: queueB.id,
    });
    const secret = await api('POST', `/messages/${secretTicket.id}`, {
      token: co.adminToken,
      body: { body: 'private admin conversation' },
    });
    expect(secret.status).toBe(201);
    // the agent of queue A cannot read the queue B ticket ...
    expect((await api('GET', `/messages/${secretTicket.id}`, { token: agentA.token })).status).toBe(403);

    const mineContact = await createContact(co.adminToken);
    const mine = await createTicket(agentA.token, {
      contactId: mineContact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    // ... nor read its message by quoting it in a ticket of their own
    const quoting = await api('POST', `/messages/${mine.id}`, {
      token: agentA.token,
      body: { body: 'see above', quotedMsg: { id: secret.body.id } },
    });
    expect(quoting.status).toBe(201);
    expect(quoting.body.quotedMsg).toBeNull();
    expect(JSON.stringify(quoting.body)).not.toContain('private admin conversation');
    const listed = await api('GET', `/messages/${mine.id}`, { token: agentA.token });
    expect(JSON.stringify(listed.body)).not.toContain('private admin conversation');

    // positive control: a quote inside the same conversation still carries the quoted text
    const first = await api('POST', `/messages/${mine.id}`, { token: agentA.token, body: { body: 'first words' } });
    const reply = await api('POST', `/messages/${mine.id}`, {
      token: agentA.token,
      body: { body: 'as I said', quotedMsg: { id: first.body.id } },
    });
    expect(reply.body.quotedMsg).toMatchObject({ id: first.body.id, body: 'first words' });
  });

  it('a non-admin cannot open a ticket in the name of another user; an admin can', async () => {
    const co = await newCompany('pv-ticket');
    const { whatsapp, queueA, agentA, agentB } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const res = await api('POST', '/tickets', {
      token: agentA.token,
      body: { status: 'open', contactId: contact.id, whatsappId: whatsapp.id, queueId: queueA.id, userId: agentB.id },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('ERR_NO_PERMISSION');
    const list = await api('GET', '/tickets?status=open&showAll=true', { token: co.adminToken });
    expect(list.body.tickets.filter((t: any) => t.contactId === contact.id)).toEqual([]);

    const own = await createTicket(agentA.token, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
      userId: agentA.id,
    });
    expect(own.userId).toBe(agentA.id);
    const other = await createContact(co.adminToken);
    const byAdmin = await createTicket(co.adminToken, {
      contactId: other.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
      userId: agentB.id,
    });
    expect(byAdmin.userId).toBe(agentB.id);
  });
});
