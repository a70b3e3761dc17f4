import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createContact, createPendingTicket, createUser, createWhatsapp, createQueue } from './fixtures';
import { ADMIN, api, baseUrl, login, newCompany, realtimeClient, runTimer, table, usesTimers } from './helpers';
import { rawTable } from './whatsapp-sim';

usesTimers('invoices');

/**
 * Ending a session ends its sockets (functions/lib/accounts/sessions.ts, functions/lib/realtime.ts):
 * logout, new credentials, deletion and company expiry close them before the call answers; demotion
 * and leaving a queue re-scope them. After each, a later event of the company must not reach them.
 */

const DAY = 24 * 3600 * 1000;

type Client = Awaited<ReturnType<typeof realtimeClient>>;

/** A realtime client whose close is recorded from the start, so a close at any moment is seen. */
async function socket(token: string) {
  const client = await realtimeClient(token);
  let code: number | undefined;
  const closed = new Promise<number>((done) =>
    client.ws.once('close', (c) => {
      code = c;
      done(c);
    }),
  );
  return {
    ...client,
    /** the close code, or 'open' when the socket is still open after `ms` */
    closedWithin: (ms = 3000) =>
      Promise.race([closed, new Promise<'open'>((done) => setTimeout(() => done('open'), ms))]),
    isOpen: () => code === undefined && client.ws.readyState === WebSocket.OPEN,
  };
}

/** The connection records of a company (`C#<id>#WS`), with the user and session each names. */
async function records(companyId: number) {
  return (await rawTable().query(`C#${companyId}#WS`)) as {
    connectionId: string;
    userId: number;
    sessionId: string;
    profile: string;
  }[];
}

/** Creates a tag (a company-wide event) and waits until `witness` has it; answers its name. */
async function companyEvent(co: { companyId: number; adminToken: string }, witness: Client) {
  const name = `Tag ${randomUUID().slice(0, 8)}`;
  const res = await api('POST', '/tags', { token: co.adminToken, body: { name } });
  expect(res.status).toBe(201);
  await witness.waitFor((e) => e.event === `company-${co.companyId}-tag` && e.data.tag?.name === name);
  return name;
}

const gotTag = (client: Client, companyId: number, name: string) =>
  client.events.some((e) => e.event === `company-${companyId}-tag` && e.data.tag?.name === name);

describe('ending a session closes its sockets', () => {
  it('logout closes the sockets of that session at once; the same user’s other session keeps its socket and its events', async () => {
    const co = await newCompany('ss-logout');
    const here = await login(co.admin.email, co.admin.password);
    const elsewhere = await login(co.admin.email, co.admin.password);
    const ended = await socket(here.token);
    const [endedRecord] = await records(co.companyId);
    const kept = await socket(elsewhere.token);
    const keptRecord = (await records(co.companyId)).find((r) => r.connectionId !== endedRecord!.connectionId);
    expect(keptRecord!.sessionId).not.toBe(endedRecord!.sessionId);

    const out = await api('DELETE', '/auth/logout', { cookie: here.cookie });
    expect(out.status).toBe(204);
    // an event published right after the logout answered must not reach the ended socket
    const tag = await companyEvent(co, kept);
    expect(gotTag(ended, co.companyId, tag)).toBe(false);
    expect(await ended.closedWithin()).toBe(1000);
    expect(kept.isOpen()).toBe(true);
    expect(await records(co.companyId)).toEqual([keptRecord]);
    kept.close();
  });

  it('logout with only the bearer token (an API client, no refresh cookie) ends that session: access, refresh and socket', async () => {
    const co = await newCompany('ss-bearer');
    const session = await login(co.admin.email, co.admin.password);
    const ended = await socket(session.token);
    const witness = await socket(co.adminToken);

    const out = await api('DELETE', '/auth/logout', { token: session.token });
    expect(out.status).toBe(204);
    const me = await api('GET', '/auth/me', { token: session.token });
    expect(me.status).toBe(401);
    expect(me.body.error).toBe('ERR_SESSION_EXPIRED');
    expect((await api('POST', '/auth/refresh_token', { cookie: session.cookie })).status).toBe(401);
    expect((await api('POST', '/auth/ws-ticket', { token: session.token })).status).toBe(401);
    const tag = await companyEvent(co, witness);
    expect(gotTag(ended, co.companyId, tag)).toBe(false);
    expect(await ended.closedWithin()).toBe(1000);
    // the other session of the same user is untouched
    expect((await api('GET', '/auth/me', { token: co.adminToken })).status).toBe(200);
    expect(witness.isOpen()).toBe(true);
    witness.close();
  });

  it('logout with a bearer token that is not valid ends nothing and still answers 204', async () => {
    const co = await newCompany('ss-garbage');
    const client = await socket(co.adminToken);
    expect((await api('DELETE', '/auth/logout', { token: 'garbage' })).status).toBe(204);
    expect((await api('DELETE', '/auth/logout')).status).toBe(204);
    expect(await client.closedWithin(300)).toBe('open');
    await companyEvent(co, client);
    client.close();
  });

  it('a ws ticket minted before logout no longer opens a socket after it', async () => {
    const co = await newCompany('ss-ticket');
    const session = await login(co.admin.email, co.admin.password);
    const ticket = (await api('POST', '/auth/ws-ticket', { token: session.token })).body.ticket as string;
    expect((await api('DELETE', '/auth/logout', { cookie: session.cookie })).status).toBe(204);
    const status = await new Promise<number>((done) => {
      const ws = new WebSocket(`${baseUrl().replace('http', 'ws')}/ws?ticket=${encodeURIComponent(ticket)}`);
      ws.once('open', () => {
        ws.close();
        done(101);
      });
      ws.once('unexpected-response', (_req, res) => done(res.statusCode ?? 0));
      ws.once('error', () => done(0));
    });
    expect(status).toBe(401);
    expect((await records(co.companyId)).filter((r) => r.userId === co.admin.id)).toHaveLength(0);
  });

  it('a password change closes the sockets of the user’s other sessions and keeps the changer’s own', async () => {
    const co = await newCompany('ss-password');
    const here = await login(co.admin.email, co.admin.password);
    const elsewhere = await login(co.admin.email, co.admin.password);
    const mine = await socket(here.token);
    const other = await socket(elsewhere.token);

    const changed = await api('PUT', `/users/${co.admin.id}`, { token: here.token, body: { password: 'changed123' } });
    expect(changed.status).toBe(200);
    const tag = await companyEvent({ companyId: co.companyId, adminToken: here.token }, mine);
    expect(gotTag(other, co.companyId, tag)).toBe(false);
    expect(await other.closedWithin()).toBe(1000);
    expect(mine.isOpen()).toBe(true);
    // tokens follow the same rule (accounts-security.test.ts): the other session is over, this one is not
    expect((await api('GET', '/auth/me', { token: elsewhere.token })).status).toBe(401);
    expect((await api('GET', '/auth/me', { token: here.token })).status).toBe(200);
    mine.close();
  });

  it('an admin changing an agent’s password or e-mail closes every socket of the agent', async () => {
    const co = await newCompany('ss-agent-pw');
    const witness = await socket(co.adminToken);
    const agent = await createUser(co);
    const first = await socket(agent.token);
    const second = await socket((await login(agent.email, 'secret123')).token);
    expect(
      (await api('PUT', `/users/${agent.id}`, { token: co.adminToken, body: { password: 'another123' } })).status,
    ).toBe(200);
    const tag = await companyEvent(co, witness);
    expect(gotTag(first, co.companyId, tag) || gotTag(second, co.companyId, tag)).toBe(false);
    expect(await first.closedWithin()).toBe(1000);
    expect(await second.closedWithin()).toBe(1000);

    const again = await socket((await login(agent.email, 'another123')).token);
    const email = `moved-${randomUUID().slice(0, 8)}@test.dev`;
    expect((await api('PUT', `/users/${agent.id}`, { token: co.adminToken, body: { email } })).status).toBe(200);
    const after = await companyEvent(co, witness);
    expect(gotTag(again, co.companyId, after)).toBe(false);
    expect(await again.closedWithin()).toBe(1000);
    expect((await records(co.companyId)).filter((r) => r.userId === agent.id)).toEqual([]);
    witness.close();
  });

  it('deleting a user closes their sockets and removes their connection records', async () => {
    const co = await newCompany('ss-delete');
    const witness = await socket(co.adminToken);
    const agent = await createUser(co);
    const client = await socket(agent.token);
    expect((await api('DELETE', `/users/${agent.id}`, { token: co.adminToken })).status).toBe(200);
    const tag = await companyEvent(co, witness);
    expect(gotTag(client, co.companyId, tag)).toBe(false);
    expect(await client.closedWithin()).toBe(1000);
    expect((await records(co.companyId)).filter((r) => r.userId === agent.id)).toEqual([]);
    witness.close();
  });

  it('a socket whose session ended without closing it (its TTL passed) is closed at its next userStatus', async () => {
    const co = await newCompany('ss-ttl');
    const witness = await socket(co.adminToken);
    const agent = await createUser(co);
    const client = await socket(agent.token);
    await client.join('userStatus');
    const [record] = (await records(co.companyId)).filter((r) => r.userId === agent.id);
    // what the table's TTL does to a session nobody refreshed
    await rawTable().del(`SESSIONS#${co.companyId}#${agent.id}`, `S#${record!.sessionId}`);
    client.send('userStatus');
    expect(await client.closedWithin()).toBe(1000);
    const tag = await companyEvent(co, witness);
    expect(gotTag(client, co.companyId, tag)).toBe(false);
    expect((await records(co.companyId)).filter((r) => r.userId === agent.id)).toEqual([]);
    witness.close();
  });
});

describe('a change of role or queues re-scopes the sockets', () => {
  it('a demoted admin keeps the socket but no longer receives admin-only events', async () => {
    const co = await newCompany('ss-demote');
    const owner = await socket(co.adminToken);
    const admin = await createUser(co, { profile: 'admin' });
    const client = await socket(admin.token);
    const privateNote = async () => {
      const shortcode = `note-${randomUUID().slice(0, 8)}`;
      const res = await api('POST', '/quick-messages', {
        token: co.adminToken,
        body: { shortcode, message: 'admins only', geral: false },
      });
      expect(res.status).toBe(201);
      await owner.waitFor(
        (e) => e.event === `company-${co.companyId}-quickMessage` && e.data.record?.shortcode === shortcode,
      );
      return shortcode;
    };
    const noteOf = (shortcode: string) => (e: { event: string; data: any }) =>
      e.event === `company-${co.companyId}-quickMessage` && e.data.record?.shortcode === shortcode;
    // an admin's private quick message goes to the admins (quick-messages/service.ts)
    await client.waitFor(noteOf(await privateNote()));

    expect((await api('PUT', `/users/${admin.id}`, { token: co.adminToken, body: { profile: 'user' } })).status).toBe(
      200,
    );
    const after = await privateNote();
    await companyEvent(co, client);
    expect(client.events.some(noteOf(after))).toBe(false);
    expect(client.isOpen()).toBe(true);
    expect((await records(co.companyId)).find((r) => r.userId === admin.id)?.profile).toBe('user');
    owner.close();
    client.close();
  });

  it('an agent taken out of a queue keeps the socket but no longer receives that queue’s tickets', async () => {
    const co = await newCompany('ss-queue');
    const whatsapp = await createWhatsapp(co);
    const queue = await createQueue(co.adminToken);
    const leaving = await createUser(co, { queueIds: [queue.id] });
    const staying = await createUser(co, { queueIds: [queue.id] });
    const leavingRt = await socket(leaving.token);
    const stayingRt = await socket(staying.token);
    const pendingIn = async () => {
      const contact = await createContact(co.adminToken);
      const ticket = await createPendingTicket(co.adminToken, {
        contactId: contact.id,
        whatsappId: whatsapp.id,
        queueId: queue.id,
      });
      await stayingRt.waitFor(ticketEvent(ticket.id));
      return ticket.id as number;
    };
    const ticketEvent = (id: number) => (e: { event: string; data: any }) =>
      e.event === `company-${co.companyId}-ticket` && e.data.action === 'update' && e.data.ticket?.id === id;
    await leavingRt.waitFor(ticketEvent(await pendingIn()));

    const res = await api('PUT', `/users/${leaving.id}`, { token: co.adminToken, body: { queueIds: [] } });
    expect(res.status).toBe(200);
    const later = await pendingIn();
    await companyEvent(co, leavingRt);
    expect(leavingRt.events.some(ticketEvent(later))).toBe(false);
    expect(leavingRt.isOpen()).toBe(true);
    leavingRt.close();
    stayingRt.close();
  });
});

describe('company expiry closes the sockets of those it bars', () => {
  const superToken = async () => (await login(ADMIN.email, ADMIN.password)).token;

  it('a due date moved into the past closes the attendants’ sockets at once; the admin’s stays to pay', async () => {
    const sup = await superToken();
    const co = await newCompany('ss-expire');
    const agent = await createUser(co);
    const adminRt = await socket(co.adminToken);
    const agentRt = await socket(agent.token);
    const expired = await api('PUT', `/companies/${co.companyId}`, {
      token: sup,
      body: { dueDate: new Date(Date.now() - DAY).toISOString() },
    });
    expect(expired.status).toBe(200);
    expect(await agentRt.closedWithin()).toBe(1000);
    expect(adminRt.isOpen()).toBe(true);
    // the attendant cannot come back while it is expired
    await expect(realtimeClient(agent.token)).rejects.toThrow();
    // renewed: the admin's socket hears the company again, the closed one hears nothing
    const renewed = await api('PUT', `/companies/${co.companyId}`, {
      token: sup,
      body: { dueDate: new Date(Date.now() + 30 * DAY).toISOString() },
    });
    expect(renewed.status).toBe(200);
    const tag = await companyEvent(co, adminRt);
    expect(gotTag(agentRt, co.companyId, tag)).toBe(false);
    expect((await records(co.companyId)).map((r) => r.userId)).toEqual([co.admin.id]);
    adminRt.close();
  });

  it('a company the calendar expired: the invoices timer closes the attendants’ sockets when it pauses the company', async () => {
    const co = await newCompany('ss-timer');
    const agent = await createUser(co);
    const adminRt = await socket(co.adminToken);
    const agentRt = await socket(agent.token);
    // the due date passes on its own (no update that would close the sockets itself)
    await table().set(`C#${co.companyId}`, 'COMPANY', { dueDate: new Date(Date.now() - DAY).toISOString() });
    expect(await agentRt.closedWithin(300)).toBe('open');
    await runTimer('invoices');
    expect((await table().get(`C#${co.companyId}`, 'COMPANY'))?.pausedAt).toEqual(expect.any(String));
    expect(await agentRt.closedWithin()).toBe(1000);
    expect(adminRt.isOpen()).toBe(true);
    expect((await records(co.companyId)).map((r) => r.userId)).toEqual([co.admin.id]);
    adminRt.close();
  });
});

describe('tenancy', () => {
  it('another company can neither end nor re-scope these sockets, and never hears this company', async () => {
    const a = await newCompany('ss-iso-a');
    const b = await newCompany('ss-iso-b');
    const agent = await createUser(a, { profile: 'admin' });
    const agentRt = await socket(agent.token);
    const bRt = await socket(b.adminToken);
    // b's admin aims at a's user id with its own company's routes
    expect((await api('PUT', `/users/${agent.id}`, { token: b.adminToken, body: { profile: 'user' } })).status).toBe(
      404,
    );
    expect(
      (await api('PUT', `/users/${agent.id}`, { token: b.adminToken, body: { password: 'takeover1' } })).status,
    ).toBe(404);
    expect((await api('DELETE', `/users/${agent.id}`, { token: b.adminToken })).status).toBe(404);
    expect((await api('DELETE', '/auth/logout', { token: b.adminToken })).status).toBe(204);
    expect(await bRt.closedWithin()).toBe(1000);
    const tag = await companyEvent(a, agentRt);
    expect(agentRt.isOpen()).toBe(true);
    expect((await records(a.companyId)).find((r) => r.userId === agent.id)?.profile).toBe('admin');
    expect(bRt.events.some((e) => e.event.startsWith(`company-${a.companyId}-`))).toBe(false);
    expect(gotTag(bRt, a.companyId, tag)).toBe(false);
    agentRt.close();
  });
});
