import { describe, it, expect } from 'vitest';
import { api, newCompany, realtimeClient, queuesIdle, table, sleep } from './helpers';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';
import { attendanceCompany, createContact, createTicket, createWhatsapp } from './fixtures';

const pad = (n: number) => String(n).padStart(10, '0');

describe('messages', () => {
  it('POST /messages stores the message (fromMe, ack 0), bumps the ticket, publishes, and the runner sends it (ack and wid recorded)', async () => {
    const co = await newCompany('msg1');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const contact = await createContact(co.adminToken, { number: '5511977770001' });
    const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: w.id });
    const rt = await realtimeClient(co.adminToken);
    try {
      const res = await api('POST', `/messages/${ticket.id}`, {
        token: co.adminToken,
        body: { body: 'Hello there', fromMe: true, read: 1 },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        body: 'Hello there',
        fromMe: true,
        ack: 0,
        ticketId: ticket.id,
        mediaType: 'chat',
        isDeleted: false,
      });
      const created = await rt.waitFor(
        (e) =>
          e.event === `company-${co.companyId}-appMessage` &&
          e.data.action === 'create' &&
          e.data.message.id === res.body.id,
      );
      expect(created.data.ticket).toMatchObject({ id: ticket.id, lastMessage: 'Hello there' });
      const p = phone(co.companyId, w.id);
      const out = await eventually(async () => (await p.outbound()).find((o: any) => o.body === 'Hello there'));
      expect(out.to).toBe('5511977770001@s.whatsapp.net');
      const sent = await rt.waitFor(
        (e) =>
          e.event === `company-${co.companyId}-appMessage` &&
          e.data.action === 'update' &&
          e.data.message.id === res.body.id &&
          e.data.message.ack >= 1,
        8000,
      );
      expect(sent.data.message.wid).toBe(out.wid);

      // the echo of our own message (fromMe, same WhatsApp id) is never stored twice
      await p.send({ from: '5511977770001', body: 'Hello there', fromMe: true, wid: out.wid });
      await queuesIdle();
      const list = await api('GET', `/messages/${ticket.id}`, { token: co.adminToken });
      expect(list.body.messages.filter((m: any) => m.body === 'Hello there')).toHaveLength(1);
    } finally {
      rt.close();
    }
  });

  it('blank text is never sent (ERR_VALIDATION); a foreign or missing ticket is ERR_NO_TICKET_FOUND', async () => {
    const co = await newCompany('msg2');
    const other = await newCompany('msg2b');
    const w = await createWhatsapp(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: w.id });
    const blank = await api('POST', `/messages/${ticket.id}`, { token: co.adminToken, body: { body: '   ' } });
    expect(blank.status).toBe(400);
    expect(blank.body).toMatchObject({ error: 'ERR_VALIDATION', details: [{ path: ['body'] }] });
    const foreign = await api('POST', `/messages/${ticket.id}`, { token: other.adminToken, body: { body: 'hi' } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_TICKET_FOUND');
  });

  it('media: presigned upload then send by key; multipart for small files; keys of another company are refused', async () => {
    const co = await newCompany('msg3');
    const other = await newCompany('msg3b');
    const w = await createWhatsapp(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: w.id });

    const upload = await api('POST', '/uploads', {
      token: co.adminToken,
      body: { fileName: 'photo one.png', contentType: 'image/png' },
    });
    expect(upload.status).toBe(201);
    expect(upload.body.key).toMatch(new RegExp(`^company${co.companyId}/media/`));
    const bytes = Buffer.from('\x89PNG\r\n\x1a\npng', 'latin1');
    const policyForm = new FormData();
    for (const [name, value] of Object.entries(upload.body.fields as Record<string, string>))
      policyForm.append(name, value);
    policyForm.append('file', new Blob([bytes]), 'photo one.png');
    const posted = await fetch(upload.body.url, { method: 'POST', body: policyForm });
    expect(posted.ok).toBe(true);
    const sent = await api('POST', `/messages/${ticket.id}`, {
      token: co.adminToken,
      body: {
        body: 'photo one.png',
        media: { key: upload.body.key, mimetype: 'image/png', fileName: 'photo one.png' },
      },
    });
    expect(sent.status).toBe(201);
    expect(sent.body.mediaType).toBe('image');
    expect(Buffer.from(await (await fetch(sent.body.mediaUrl)).arrayBuffer())).toEqual(bytes);

    const form = new FormData();
    form.append('medias', new Blob([Buffer.from('%PDF-1.4 small')], { type: 'application/pdf' }), 'contract.pdf');
    form.append('body', 'contract.pdf');
    const multipart = await api('POST', `/messages/${ticket.id}`, { token: co.adminToken, body: form });
    expect(multipart.status).toBe(201);
    expect(multipart.body).toMatchObject({ body: 'contract.pdf', mediaType: 'application', fromMe: true });
    expect(decodeURIComponent(new URL(multipart.body.mediaUrl).pathname)).toContain(`/company${co.companyId}/media/`);
    expect(await (await fetch(multipart.body.mediaUrl)).text()).toBe('%PDF-1.4 small');

    const otherTicket = await createTicket(other.adminToken, {
      contactId: (await createContact(other.adminToken)).id,
      whatsappId: (await createWhatsapp(other)).id,
    });
    const stolen = await api('POST', `/messages/${otherTicket.id}`, {
      token: other.adminToken,
      body: { body: 'x', media: { key: upload.body.key, mimetype: 'image/png', fileName: 'x.png' } },
    });
    expect(stolen.status).toBe(403);
    expect(stolen.body.error).toBe('ERR_NO_PERMISSION');
  });

  it("a reply carries the quoted message; the page is newest-first by cursor and spans the contact's earlier tickets", async () => {
    const co = await newCompany('msg4');
    const w = await createWhatsapp(co);
    const contact = await createContact(co.adminToken);
    const first = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: w.id });
    const m1 = (await api('POST', `/messages/${first.id}`, { token: co.adminToken, body: { body: 'one' } })).body;
    await api('PUT', `/tickets/${first.id}`, { token: co.adminToken, body: { status: 'closed' } });
    const second = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: w.id });
    for (const body of ['two', 'three'])
      await api('POST', `/messages/${second.id}`, { token: co.adminToken, body: { body } });
    const quoted = await api('POST', `/messages/${second.id}`, {
      token: co.adminToken,
      body: { body: 'four', quotedMsg: { id: m1.id } },
    });
    expect(quoted.body.quotedMsg).toMatchObject({ id: m1.id, body: 'one', fromMe: true });

    const page1 = await api('GET', `/messages/${second.id}?limit=2`, { token: co.adminToken });
    expect(page1.status).toBe(200);
    expect(page1.body.messages.map((m: any) => m.body)).toEqual(['three', 'four']);
    expect(page1.body.hasMore).toBe(true);
    expect(page1.body.ticket.id).toBe(second.id);
    const page2 = await api('GET', `/messages/${second.id}?limit=2&cursor=${encodeURIComponent(page1.body.cursor)}`, {
      token: co.adminToken,
    });
    expect(page2.body.messages.map((m: any) => m.body)).toEqual(['one', 'two']);
    // the earlier ticket's message says which ticket it was, with its close time (the banner)
    expect(page2.body.messages[0].ticket).toMatchObject({ id: first.id, status: 'closed' });
    expect(page2.body.messages[0].ticket.closedAt).toBeTruthy();
    expect(page2.body.messages[1].ticket).toMatchObject({ id: second.id });
  });

  it("reading a ticket's messages resets unreadMessages and emits ticket updateUnread", async () => {
    const co = await newCompany('msg5');
    const { whatsapp, queueA, agentA, agentB } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(agentA.token, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    await table().set(`C#${co.companyId}`, `TICKET#${pad(ticket.id)}`, { unreadMessages: 3 });
    const wsA = await realtimeClient(agentA.token);
    const wsB = await realtimeClient(agentB.token);
    try {
      const read = await api('GET', `/messages/${ticket.id}`, { token: agentA.token });
      expect(read.body.ticket.unreadMessages).toBe(0);
      await wsA.waitFor(
        (e) =>
          e.event === `company-${co.companyId}-ticket` &&
          e.data.action === 'updateUnread' &&
          e.data.ticketId === ticket.id,
      );
      expect((await api('GET', `/tickets/${ticket.id}`, { token: agentA.token })).body.unreadMessages).toBe(0);
      await sleep(300);
      expect(wsB.events.filter((e) => e.data?.action === 'updateUnread')).toHaveLength(0);
    } finally {
      wsA.close();
      wsB.close();
    }
  });

  it("a wrong conversation hint still answers the ticket's own page; a malformed one is refused", async () => {
    const co = await newCompany('msg5c');
    const { whatsapp, queueA, agentA } = await attendanceCompany(co);
    const mine = await createContact(co.adminToken);
    const other = await createContact(co.adminToken);
    const ticket = await createTicket(agentA.token, {
      contactId: mine.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const elsewhere = await createTicket(agentA.token, {
      contactId: other.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    await api('POST', `/messages/${ticket.id}`, { token: agentA.token, body: { body: 'on my ticket' } });
    await api('POST', `/messages/${elsewhere.id}`, { token: agentA.token, body: { body: 'on the other one' } });
    // a fresh ticket id on this instance: only the hint names a conversation, and it names the other contact's
    const page = await api('GET', `/messages/${ticket.id}?conversation=${other.id}-${whatsapp.id}`, {
      token: agentA.token,
    });
    expect(page.status).toBe(200);
    expect(page.body.messages.map((m: any) => m.body)).toEqual(['on my ticket']);
    const bad = await api('GET', `/messages/${ticket.id}?conversation=x-1`, { token: agentA.token });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
  });

  it('the message page refuses a ticket the viewer may not see, also once its conversation is known and after a transfer', async () => {
    const co = await newCompany('msg5b');
    const { whatsapp, queueA, queueB, agentA, agentB } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(agentA.token, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    await api('POST', `/messages/${ticket.id}`, { token: agentA.token, body: { body: 'kept from queue B' } });
    // read first by those who may see it: the page's reads now go out together, the ticket beside the messages
    expect((await api('GET', `/messages/${ticket.id}`, { token: co.adminToken })).status).toBe(200);
    expect((await api('GET', `/messages/${ticket.id}`, { token: agentA.token })).status).toBe(200);

    const refused = await api('GET', `/messages/${ticket.id}`, { token: agentB.token });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ error: 'ERR_NO_PERMISSION' });
    // the client's conversation hint starts the page's Query early: it never lets the page out
    const hinted = await api('GET', `/messages/${ticket.id}?conversation=${contact.id}-${whatsapp.id}`, {
      token: agentB.token,
    });
    expect(hinted.status).toBe(403);
    expect(hinted.body).toEqual({ error: 'ERR_NO_PERMISSION' });

    // moved to queue B and its attendant: the page follows the ticket as it is now, not as it was read
    const moved = await api('PUT', `/tickets/${ticket.id}`, {
      token: co.adminToken,
      body: { queueId: queueB.id, userId: agentB.id },
    });
    expect(moved.status).toBe(200);
    const nowVisible = await api('GET', `/messages/${ticket.id}`, { token: agentB.token });
    expect(nowVisible.status).toBe(200);
    expect(nowVisible.body.messages.map((m: any) => m.body)).toContain('kept from queue B');
    const nowRefused = await api('GET', `/messages/${ticket.id}`, { token: agentA.token });
    expect(nowRefused.status).toBe(403);
    expect(nowRefused.body).toEqual({ error: 'ERR_NO_PERMISSION' });
  });

  it('DELETE /messages/{id}: only messages sent by us (fromMe); the message is marked deleted and announced', async () => {
    const co = await newCompany('msg6');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const rt = await realtimeClient(co.adminToken);
    try {
      const p = phone(co.companyId, w.id);
      const { wid } = await p.send({ from: '5511977770006', body: 'customer text' });
      const inbound = await rt.waitFor(
        (e) => e.event === `company-${co.companyId}-appMessage` && e.data.message?.wid === wid,
        8000,
      );
      const ticketId = inbound.data.ticket.id;
      const refused = await api('DELETE', `/messages/${inbound.data.message.id}`, { token: co.adminToken });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('ERR_NO_PERMISSION');

      const mine = (await api('POST', `/messages/${ticketId}`, { token: co.adminToken, body: { body: 'oops' } })).body;
      const deleted = await api('DELETE', `/messages/${mine.id}`, { token: co.adminToken });
      expect(deleted.status).toBe(200);
      expect(deleted.body.isDeleted).toBe(true);
      await rt.waitFor(
        (e) =>
          e.event === `company-${co.companyId}-appMessage` &&
          e.data.action === 'update' &&
          e.data.message.id === mine.id &&
          e.data.message.isDeleted,
      );
      const other = await newCompany('msg6b');
      expect((await api('DELETE', `/messages/${mine.id}`, { token: other.adminToken })).status).toBe(404);
    } finally {
      rt.close();
    }
  });

  it('appMessage events go to viewers of the ticket only (not other queues, not another company)', async () => {
    const co = await newCompany('msg7');
    const other = await newCompany('msg7b');
    const { whatsapp, queueA, agentA, agentB } = await attendanceCompany(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(agentA.token, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      queueId: queueA.id,
    });
    const wsA = await realtimeClient(agentA.token);
    const wsB = await realtimeClient(agentB.token);
    const wsOther = await realtimeClient(other.adminToken);
    try {
      const sent = (await api('POST', `/messages/${ticket.id}`, { token: agentA.token, body: { body: 'private' } }))
        .body;
      await wsA.waitFor((e) => e.event === `company-${co.companyId}-appMessage` && e.data.message.id === sent.id);
      await sleep(300);
      expect(wsB.events.filter((e) => e.event.endsWith('-appMessage'))).toHaveLength(0);
      expect(wsOther.events.filter((e) => e.event.endsWith('-appMessage'))).toHaveLength(0);
    } finally {
      for (const ws of [wsA, wsB, wsOther]) ws.close();
    }
  });
});
