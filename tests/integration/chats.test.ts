import { describe, it, expect } from 'vitest';
import { api, newCompany, realtimeClient, sleep, table } from './helpers';
import { createUser } from './fixtures';

const newChat = (token: string, body: Record<string, unknown>) => api('POST', '/chats', { token, body });
const chatEvents = (events: { event: string; data: any }[], companyId: number) =>
  events.filter((e) => e.event === `company-${companyId}-chat`);

describe('internal chat', () => {
  it('a chat needs a title and at least one user; members must be users of the company; the owner is always a member', async () => {
    const co = await newCompany('ch1');
    const other = await newCompany('ch1b');
    const ana = await createUser(co, { name: 'Ana' });

    const noTitle = await newChat(co.adminToken, { title: '  ', users: [ana.id] });
    expect(noTitle.status).toBe(400);
    expect(noTitle.body).toMatchObject({ error: 'ERR_VALIDATION', details: [{ path: ['title'] }] });
    const noUsers = await newChat(co.adminToken, { title: 'Team', users: [] });
    expect(noUsers.status).toBe(400);
    expect(noUsers.body.details[0].path).toEqual(['users']);

    // user ids count per company: the stranger's id is read in this company, where no such user exists
    for (let i = 0; i < 3; i++) await createUser(other);
    const stranger = await createUser(other);
    const foreign = await newChat(co.adminToken, { title: 'Team', users: [stranger.id] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_USER_FOUND');

    const created = await newChat(ana.token, { title: 'Lunch', users: [{ id: co.admin.id }] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: 'Lunch', ownerId: ana.id, lastMessage: '' });
    expect(created.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.body.users.map((u: any) => u.userId).sort()).toEqual([ana.id, co.admin.id].sort());
    expect(created.body.users.find((u: any) => u.userId === ana.id)).toEqual({
      userId: ana.id,
      unreads: 0,
      user: { id: ana.id, name: 'Ana' },
    });
  });

  it('only members see a chat and its messages; only the owner edits or deletes it', async () => {
    const co = await newCompany('ch2');
    const owner = await createUser(co, { name: 'Owner' });
    const member = await createUser(co, { name: 'Member' });
    const outsider = await createUser(co, { name: 'Outsider' });
    const chat = (await newChat(owner.token, { title: 'Project', users: [member.id] })).body;
    await api('POST', `/chats/${chat.id}/messages`, { token: owner.token, body: { message: 'secret plan' } });

    expect((await api('GET', '/chats', { token: member.token })).body.records.map((c: any) => c.id)).toEqual([chat.id]);
    expect((await api('GET', '/chats', { token: outsider.token })).body.records).toEqual([]);
    // not even the company's admin reads a chat they are not in
    expect((await api('GET', '/chats', { token: co.adminToken })).body.records).toEqual([]);
    for (const token of [outsider.token, co.adminToken]) {
      const read = await api('GET', `/chats/${chat.id}/messages`, { token });
      expect(read.status).toBe(404);
      expect(JSON.stringify(read.body)).not.toContain('secret plan');
      expect((await api('POST', `/chats/${chat.id}/messages`, { token, body: { message: 'hi' } })).status).toBe(404);
      expect((await api('POST', `/chats/${chat.id}/read`, { token })).status).toBe(404);
    }

    const byMember = await api('PUT', `/chats/${chat.id}`, { token: member.token, body: { title: 'Mine now' } });
    expect(byMember.status).toBe(403);
    expect(byMember.body.error).toBe('ERR_NO_PERMISSION');
    expect((await api('DELETE', `/chats/${chat.id}`, { token: member.token })).status).toBe(403);

    // the owner swaps the member for the outsider; the owner stays in even when left out of the list
    const edited = await api('PUT', `/chats/${chat.id}`, {
      token: owner.token,
      body: { title: 'Project B', users: [outsider.id] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.title).toBe('Project B');
    expect(edited.body.users.map((u: any) => u.userId).sort()).toEqual([owner.id, outsider.id].sort());
    expect((await api('GET', '/chats', { token: member.token })).body.records).toEqual([]);
    expect((await api('GET', `/chats/${chat.id}/messages`, { token: member.token })).status).toBe(404);
    const history = await api('GET', `/chats/${chat.id}/messages`, { token: outsider.token });
    expect(history.body.records.map((m: any) => m.message)).toEqual(['secret plan']);

    expect((await api('DELETE', `/chats/${chat.id}`, { token: owner.token })).status).toBe(200);
    expect((await api('GET', '/chats', { token: owner.token })).body.records).toEqual([]);
    expect((await api('GET', `/chats/${chat.id}/messages`, { token: owner.token })).status).toBe(404);
  });

  it("another company's chats are unreachable, and the plan flag useInternalChat gates the routes", async () => {
    const co = await newCompany('ch3');
    const other = await newCompany('ch3b');
    const mate = await createUser(co);
    const chat = (await newChat(co.adminToken, { title: 'Private', users: [mate.id] })).body;
    for (const [method, path, body] of [
      ['GET', `/chats/${chat.id}/messages`, undefined],
      ['POST', `/chats/${chat.id}/messages`, { message: 'intrusion' }],
      ['POST', `/chats/${chat.id}/read`, undefined],
      ['PUT', `/chats/${chat.id}`, { title: 'Taken' }],
      ['DELETE', `/chats/${chat.id}`, undefined],
    ] as const) {
      expect((await api(method, path, { token: other.adminToken, body })).status, `${method} ${path}`).toBe(404);
    }
    expect((await api('GET', '/chats', { token: other.adminToken })).body.records).toEqual([]);

    // a plan without internal chat
    await table().set('PLAN', 'PLAN#0000000778', {
      id: 778,
      name: 'No internal chat',
      users: 5,
      connections: 5,
      queues: 5,
      value: 10,
      useCampaigns: true,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
      useSchedules: true,
      useInternalChat: false,
      useExternalApi: true,
    });
    await table().set(`C#${other.companyId}`, 'COMPANY', { planId: 778 });
    const refused = await api('GET', '/chats', { token: other.adminToken });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_PLAN_FEATURE_DISABLED');
  });

  it('messages page newest first by cursor and come oldest first within a page; blank text is refused', async () => {
    const co = await newCompany('ch4');
    const mate = await createUser(co);
    const chat = (await newChat(co.adminToken, { title: 'Paging', users: [mate.id] })).body;
    const blank = await api('POST', `/chats/${chat.id}/messages`, { token: co.adminToken, body: { message: '   ' } });
    expect(blank.status).toBe(400);
    expect(blank.body.error).toBe('ERR_VALIDATION');
    for (let i = 1; i <= 25; i++) {
      const sent = await api('POST', `/chats/${chat.id}/messages`, {
        token: i % 2 ? co.adminToken : mate.token,
        body: { message: `m${i}` },
      });
      expect(sent.status).toBe(201);
    }
    const first = await api('GET', `/chats/${chat.id}/messages`, { token: mate.token });
    expect(first.body.hasMore).toBe(true);
    expect(first.body.records.map((m: any) => m.message)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 6}`));
    expect(first.body.records[0]).toMatchObject({ chatId: chat.id, senderId: mate.id, sender: { id: mate.id } });
    const older = await api('GET', `/chats/${chat.id}/messages?cursor=${encodeURIComponent(first.body.cursor)}`, {
      token: mate.token,
    });
    expect(older.body.records.map((m: any) => m.message)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    expect(older.body.hasMore).toBe(false);
    // a cursor of this chat does not open another one
    const other = (await newChat(co.adminToken, { title: 'Other', users: [mate.id] })).body;
    const crossed = await api('GET', `/chats/${other.id}/messages?cursor=${encodeURIComponent(first.body.cursor)}`, {
      token: mate.token,
    });
    expect(crossed.status).toBe(400);
    expect(crossed.body.error).toBe('ERR_INVALID_CURSOR');
  });

  it('unread counts per member: a message counts for every other member, a read mark clears only the reader', async () => {
    const co = await newCompany('ch5');
    const bia = await createUser(co, { name: 'Bia' });
    const caio = await createUser(co, { name: 'Caio' });
    const chat = (await newChat(co.adminToken, { title: 'Counts', users: [bia.id, caio.id] })).body;
    const unreadsOf = async (token: string) => {
      const list = (await api('GET', '/chats', { token })).body.records;
      const found = list.find((c: any) => c.id === chat.id);
      return Object.fromEntries(found.users.map((u: any) => [u.userId, u.unreads]));
    };
    await api('POST', `/chats/${chat.id}/messages`, { token: co.adminToken, body: { message: 'one' } });
    await api('POST', `/chats/${chat.id}/messages`, { token: co.adminToken, body: { message: 'two' } });
    await api('POST', `/chats/${chat.id}/messages`, { token: bia.token, body: { message: 'three' } });
    expect(await unreadsOf(caio.token)).toEqual({ [co.admin.id]: 1, [bia.id]: 2, [caio.id]: 3 });

    const read = await api('POST', `/chats/${chat.id}/read`, { token: bia.token, body: { userId: caio.id } });
    expect(read.status).toBe(200);
    // the body's userId is ignored: the reader is the caller
    expect(await unreadsOf(caio.token)).toEqual({ [co.admin.id]: 1, [bia.id]: 0, [caio.id]: 3 });
    const list = (await api('GET', '/chats', { token: caio.token })).body.records;
    expect(list[0]).toMatchObject({ id: chat.id, lastMessage: 'three' });

    // the most recently active chat comes first
    const later = (await newChat(caio.token, { title: 'Later', users: [bia.id] })).body;
    expect((await api('GET', '/chats', { token: bia.token })).body.records.map((c: any) => c.id)).toEqual([
      later.id,
      chat.id,
    ]);
    await api('POST', `/chats/${chat.id}/messages`, { token: caio.token, body: { message: 'bump' } });
    expect((await api('GET', '/chats', { token: bia.token })).body.records.map((c: any) => c.id)).toEqual([
      chat.id,
      later.id,
    ]);
    expect(
      (await api('GET', '/chats?searchParam=LAT', { token: bia.token })).body.records.map((c: any) => c.id),
    ).toEqual([later.id]);
  });

  it('chat events reach the members only: never other users of the company, nor other companies', async () => {
    const co = await newCompany('ch6');
    const other = await newCompany('ch6b');
    const member = await createUser(co);
    const outsider = await createUser(co);
    const wsMember = await realtimeClient(member.token);
    const wsOutsider = await realtimeClient(outsider.token);
    const wsAdmin = await realtimeClient(co.adminToken);
    const wsOther = await realtimeClient(other.adminToken);
    try {
      const chat = (await newChat(member.token, { title: 'Quiet room', users: [co.admin.id] })).body;
      await wsAdmin.waitFor((e) => e.event === `company-${co.companyId}-chat` && e.data.action === 'create');
      await api('POST', `/chats/${chat.id}/messages`, { token: co.adminToken, body: { message: 'psst' } });
      const got = await wsMember.waitFor(
        (e) => e.event === `company-${co.companyId}-chat` && e.data.action === 'new-message',
      );
      expect(got.data.newMessage).toMatchObject({ chatId: chat.id, message: 'psst', senderId: co.admin.id });
      expect(got.data.record.users.find((u: any) => u.userId === member.id).unreads).toBe(1);
      await api('POST', `/chats/${chat.id}/read`, { token: member.token });
      await wsMember.waitFor((e) => e.event === `company-${co.companyId}-chat` && e.data.action === 'update');
      await api('DELETE', `/chats/${chat.id}`, { token: member.token });
      await wsAdmin.waitFor((e) => e.event === `company-${co.companyId}-chat` && e.data.action === 'delete');
      await sleep(300);
      expect(chatEvents(wsOutsider.events, co.companyId)).toEqual([]);
      expect(wsOther.events.filter((e) => e.event.endsWith('-chat'))).toEqual([]);
    } finally {
      for (const ws of [wsMember, wsOutsider, wsAdmin, wsOther]) ws.close();
    }
  });
});
