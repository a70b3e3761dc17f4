import { describe, it, expect } from 'vitest';
import { randomUUID } from 'node:crypto';
import { api, login, newCompany, realtimeClient, sleep, type TestCompany } from './helpers';
import { connectedWhatsapp, eventually, phone } from './whatsapp-sim';
import { createContact, createTicket } from './fixtures';
import { MAX_QUICK_MESSAGES_PER_USER } from '#shared/constants';

async function addAgent(co: TestCompany) {
  const email = `agent-${randomUUID().slice(0, 8)}@test.dev`;
  const created = await api('POST', '/users', {
    token: co.adminToken,
    body: { name: 'Agent', email, password: 'secret123' },
  });
  return { id: created.body.id as number, token: (await login(email, 'secret123')).token };
}

const PNG = Buffer.from('\x89PNG\r\n\x1a\nPNGDATA', 'latin1');

const upload = (name: string, content: string | Buffer<ArrayBuffer>, type = 'image/png') => {
  const form = new FormData();
  form.append('typeArch', 'quickMessage');
  form.append('file', new Blob([content], { type }), name);
  return form;
};

describe('quick messages', () => {
  it('shortcode is required (ERR_VALIDATION); a created message keeps shortcode, message and geral', async () => {
    const co = await newCompany('qm-create');
    const missing = await api('POST', '/quick-messages', { token: co.adminToken, body: { message: 'Hello!' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('ERR_VALIDATION');
    expect(missing.body.details[0].path).toEqual(['shortcode']);
    const blank = await api('POST', '/quick-messages', {
      token: co.adminToken,
      body: { shortcode: '   ', message: 'Hello!' },
    });
    expect(blank.body.error).toBe('ERR_VALIDATION');
    const res = await api('POST', '/quick-messages', {
      token: co.adminToken,
      body: { shortcode: 'hi', message: 'Hello! How can I help?', geral: true },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      shortcode: 'hi',
      message: 'Hello! How can I help?',
      geral: true,
      userId: co.admin.id,
      mediaPath: null,
      isMedia: false,
    });
    expect(res.body.searchText).toBeUndefined();
    expect((await api('GET', `/quick-messages/${res.body.id}`, { token: co.adminToken })).body.shortcode).toBe('hi');
  });

  it('a user creates at most MAX_QUICK_MESSAGES_PER_USER quick messages (ERR_LIST_LIMIT_REACHED); deleting one frees a slot', async () => {
    const co = await newCompany('qm-cap');
    const agent = await addAgent(co);
    const create = (shortcode: string, token = agent.token) =>
      api('POST', '/quick-messages', { token, body: { shortcode, message: 'Hello!' } });
    for (let start = 0; start < MAX_QUICK_MESSAGES_PER_USER; start += 20) {
      const batch = Array.from({ length: Math.min(20, MAX_QUICK_MESSAGES_PER_USER - start) }, (_, i) =>
        create(`qm${start + i}`),
      );
      for (const res of await Promise.all(batch)) expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const over = await create('one-too-many');
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({
      error: 'ERR_LIST_LIMIT_REACHED',
      details: { limit: 'quickMessagesPerUser', max: MAX_QUICK_MESSAGES_PER_USER },
    });
    const mine = (await api('GET', '/quick-messages/list', { token: agent.token })).body as {
      id: number;
      shortcode: string;
    }[];
    expect(mine).toHaveLength(MAX_QUICK_MESSAGES_PER_USER);
    expect(mine.map((q) => q.shortcode)).not.toContain('one-too-many');
    // the cap is the creator's own: the admin still creates
    expect((await create('admin-one', co.adminToken)).status).toBe(201);

    // an admin deleting the agent's message gives the agent the slot back
    expect((await api('DELETE', `/quick-messages/${mine[0]!.id}`, { token: co.adminToken })).status).toBe(200);
    expect((await create('after-delete')).status).toBe(201);
    expect((await create('over-again')).body.error).toBe('ERR_LIST_LIMIT_REACHED');
  });

  it('geral messages are shared with everyone; private ones only with their owner (others get 404 and never see them in lists)', async () => {
    const co = await newCompany('qm-geral');
    const a = await addAgent(co);
    const b = await addAgent(co);
    const shared = (
      await api('POST', '/quick-messages', {
        token: a.token,
        body: { shortcode: 'shared', message: 'For all', geral: true },
      })
    ).body;
    const mine = (
      await api('POST', '/quick-messages', { token: a.token, body: { shortcode: 'mine', message: 'Only me' } })
    ).body;
    const bList = await api('GET', '/quick-messages/list', { token: b.token });
    expect(bList.body.map((q: any) => q.shortcode)).toEqual(['shared']);
    // asking for another user's list as a non-admin still answers with one's own view
    expect(
      (await api('GET', `/quick-messages/list?userId=${a.id}`, { token: b.token })).body.map((q: any) => q.shortcode),
    ).toEqual(['shared']);
    expect((await api('GET', '/quick-messages/list', { token: a.token })).body.map((q: any) => q.shortcode)).toEqual([
      'mine',
      'shared',
    ]);
    expect((await api('GET', `/quick-messages/${mine.id}`, { token: b.token })).status).toBe(404);
    expect((await api('GET', '/quick-messages', { token: b.token })).body.records.map((q: any) => q.id)).toEqual([
      shared.id,
    ]);
    // the admin sees all on the page, and a named user's view on the list
    expect((await api('GET', '/quick-messages', { token: co.adminToken })).body.records).toHaveLength(2);
    expect((await api('GET', `/quick-messages/list?userId=${a.id}`, { token: co.adminToken })).body).toHaveLength(2);
    expect((await api('GET', `/quick-messages/list?userId=${b.id}`, { token: co.adminToken })).body).toHaveLength(1);
  });

  it('only the owner or an admin changes or deletes a quick message (ERR_NO_PERMISSION for a shared one of someone else)', async () => {
    const co = await newCompany('qm-owner');
    const a = await addAgent(co);
    const b = await addAgent(co);
    const shared = (
      await api('POST', '/quick-messages', {
        token: a.token,
        body: { shortcode: 'bye', message: 'Goodbye', geral: true },
      })
    ).body;
    const put = await api('PUT', `/quick-messages/${shared.id}`, { token: b.token, body: { message: 'Hijacked' } });
    expect(put.status).toBe(403);
    expect(put.body.error).toBe('ERR_NO_PERMISSION');
    expect((await api('DELETE', `/quick-messages/${shared.id}`, { token: b.token })).status).toBe(403);
    const own = await api('PUT', `/quick-messages/${shared.id}`, { token: a.token, body: { message: 'See you' } });
    expect(own.body).toMatchObject({ shortcode: 'bye', message: 'See you' });
    const byAdmin = await api('PUT', `/quick-messages/${shared.id}`, {
      token: co.adminToken,
      body: { shortcode: 'tchau' },
    });
    expect(byAdmin.body.shortcode).toBe('tchau');
    expect((await api('DELETE', `/quick-messages/${shared.id}`, { token: co.adminToken })).status).toBe(200);
    expect((await api('GET', `/quick-messages/${shared.id}`, { token: a.token })).status).toBe(404);
  });

  it('the page searches shortcode and message (case-insensitive) and pages by cursor with hasMore', async () => {
    const co = await newCompany('qm-search');
    for (const [shortcode, message] of [
      ['pix', 'Our PIX key is 123'],
      ['hours', 'We open at 8'],
      ['address', 'Rua das Flores'],
      ['pix2', 'Backup key'],
    ]) {
      await api('POST', '/quick-messages', { token: co.adminToken, body: { shortcode, message } });
    }
    const search = await api('GET', '/quick-messages?searchParam=PIX', { token: co.adminToken });
    expect(search.body.records.map((q: any) => q.shortcode).sort()).toEqual(['pix', 'pix2']);
    expect(
      (await api('GET', '/quick-messages?searchParam=flores', { token: co.adminToken })).body.records.map(
        (q: any) => q.shortcode,
      ),
    ).toEqual(['address']);
    const first = await api('GET', '/quick-messages?limit=3', { token: co.adminToken });
    expect(first.body.records).toHaveLength(3);
    expect(first.body.hasMore).toBe(true);
    const next = await api('GET', `/quick-messages?limit=3&cursor=${encodeURIComponent(first.body.cursor)}`, {
      token: co.adminToken,
    });
    expect(next.body.records.map((q: any) => q.shortcode)).toEqual(['pix2']);
    expect(next.body.hasMore).toBe(false);
  });

  it('media upload stores the file under the tenant prefix with spaces in the name turned into underscores; delete removes it', async () => {
    const co = await newCompany('qm-media');
    const q = (
      await api('POST', '/quick-messages', { token: co.adminToken, body: { shortcode: 'menu', message: 'Our menu' } })
    ).body;
    const up = await api('POST', `/quick-messages/${q.id}/media-upload`, {
      token: co.adminToken,
      body: upload('our menu 2026.png', PNG),
    });
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ mediaName: 'our_menu_2026.png', isMedia: true });
    expect(up.body.mediaPath).toMatch(new RegExp(`^company${co.companyId}/quickMessage/.+our_menu_2026\\.png$`));
    const file = await fetch(up.body.mediaUrl);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG);
    const removed = await api('DELETE', `/quick-messages/${q.id}/media-upload`, { token: co.adminToken });
    expect(removed.body).toMatchObject({ mediaPath: null, mediaName: null, isMedia: false });
    expect((await fetch(up.body.mediaUrl)).status).toBe(404);
    const noFile = await api('POST', `/quick-messages/${q.id}/media-upload`, {
      token: co.adminToken,
      body: new FormData(),
    });
    expect(noFile.status).toBe(400);
    expect(noFile.body.error).toBe('ERR_VALIDATION');
  });

  it('media claimed as text/html is refused (ERR_UPLOAD_TYPE_NOT_ALLOWED); a PDF is served as an attachment, an image inline', async () => {
    const co = await newCompany('qm-media-policy');
    const q = (
      await api('POST', '/quick-messages', { token: co.adminToken, body: { shortcode: 'doc', message: 'Our terms' } })
    ).body;
    const html = await api('POST', `/quick-messages/${q.id}/media-upload`, {
      token: co.adminToken,
      body: upload('terms.html', '<html><script>alert(1)</script></html>', 'text/html'),
    });
    expect(html.status).toBe(415);
    expect(html.body.error).toBe('ERR_UPLOAD_TYPE_NOT_ALLOWED');
    const disguised = await api('POST', `/quick-messages/${q.id}/media-upload`, {
      token: co.adminToken,
      body: upload('terms.pdf', '<svg onload="alert(1)"/>', 'application/pdf'),
    });
    expect(disguised.status).toBe(415);
    expect((await api('GET', `/quick-messages/${q.id}`, { token: co.adminToken })).body).toMatchObject({
      mediaPath: null,
      isMedia: false,
    });

    const pdf = await api('POST', `/quick-messages/${q.id}/media-upload`, {
      token: co.adminToken,
      body: upload('our terms.pdf', '%PDF-1.4 terms', 'application/pdf'),
    });
    expect(pdf.status).toBe(200);
    const served = await fetch(pdf.body.mediaUrl);
    expect(served.headers.get('content-type')).toBe('application/pdf');
    expect(served.headers.get('content-disposition')).toBe('attachment; filename="our_terms.pdf"');
    const image = await api('POST', `/quick-messages/${q.id}/media-upload`, {
      token: co.adminToken,
      body: upload('menu.png', PNG),
    });
    const inline = await fetch(image.body.mediaUrl);
    expect(inline.headers.get('content-type')).toBe('image/png');
    expect(inline.headers.get('content-disposition')).toBeNull();
  });

  it('quickMessage events: shared ones reach the company, private ones only their owner and admins, never another company', async () => {
    const co = await newCompany('qm-events');
    const other = await newCompany('qm-events-other');
    const a = await addAgent(co);
    const b = await addAgent(co);
    const admin = await realtimeClient(co.adminToken);
    const bSocket = await realtimeClient(b.token);
    const theirs = await realtimeClient(other.adminToken);
    const name = `company-${co.companyId}-quickMessage`;
    const priv = (
      await api('POST', '/quick-messages', { token: a.token, body: { shortcode: 'secret', message: 'Private' } })
    ).body;
    expect((await admin.waitFor((e) => e.event === name && e.data.record?.id === priv.id)).data.action).toBe('create');
    const shared = (
      await api('POST', '/quick-messages', {
        token: a.token,
        body: { shortcode: 'open', message: 'Shared', geral: true },
      })
    ).body;
    await bSocket.waitFor((e) => e.event === name && e.data.record?.id === shared.id && e.data.action === 'create');
    await api('DELETE', `/quick-messages/${shared.id}`, { token: a.token });
    await bSocket.waitFor((e) => e.event === name && e.data.action === 'delete' && e.data.id === shared.id);
    await sleep(200);
    expect(bSocket.events.filter((e) => e.event === name && e.data.record?.id === priv.id)).toEqual([]);
    expect(theirs.events.filter((e) => e.event.endsWith('-quickMessage'))).toEqual([]);
    for (const s of [admin, bSocket, theirs]) s.close();
  });

  it("another company's quick message ids are 404 on every route", async () => {
    const a = await newCompany('qm-iso-a');
    const b = await newCompany('qm-iso-b');
    const q = (
      await api('POST', '/quick-messages', { token: a.adminToken, body: { shortcode: 'x', message: 'y', geral: true } })
    ).body;
    expect((await api('GET', `/quick-messages/${q.id}`, { token: b.adminToken })).status).toBe(404);
    expect((await api('PUT', `/quick-messages/${q.id}`, { token: b.adminToken, body: { message: 'z' } })).status).toBe(
      404,
    );
    expect((await api('DELETE', `/quick-messages/${q.id}`, { token: b.adminToken })).status).toBe(404);
    expect(
      (await api('POST', `/quick-messages/${q.id}/media-upload`, { token: b.adminToken, body: upload('a.png', 'x') }))
        .status,
    ).toBe(404);
    expect((await api('DELETE', `/quick-messages/${q.id}/media-upload`, { token: b.adminToken })).status).toBe(404);
    expect((await api('GET', '/quick-messages/list', { token: b.adminToken })).body).toEqual([]);
  });

  it('a chosen quick reply sends its file with its text, as a copy the message keeps; others may not use a private one', async () => {
    const co = await newCompany('qm-send');
    const w = await connectedWhatsapp(co.adminToken, co.companyId);
    const contact = await createContact(co.adminToken, { number: '5511977771234' });
    const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: w.id });
    const q = (
      await api('POST', '/quick-messages', { token: co.adminToken, body: { shortcode: 'menu', message: 'Our menu' } })
    ).body;
    await api('POST', `/quick-messages/${q.id}/media-upload`, { token: co.adminToken, body: upload('menu.png', PNG) });

    const sent = await api('POST', `/messages/${ticket.id}`, {
      token: co.adminToken,
      body: { body: 'Our menu for today', quickMessageId: q.id },
    });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ body: 'Our menu for today', mediaType: 'image', mediaName: 'menu.png' });
    // its own copy under the messages' area, not the quick reply's object
    const path = decodeURIComponent(new URL(sent.body.mediaUrl).pathname);
    expect(path).toContain(`/company${co.companyId}/media/`);
    expect(path).not.toContain('/quickMessage/');
    const out = await eventually(async () =>
      (await phone(co.companyId, w.id).outbound()).find((o: any) => o.body === 'Our menu for today'),
    );
    expect(out.media).toMatchObject({ mimetype: 'image/png', fileName: 'menu.png', kind: 'image', size: PNG.length });

    // the quick reply loses its file: the sent message keeps its own
    await api('DELETE', `/quick-messages/${q.id}/media-upload`, { token: co.adminToken });
    expect(Buffer.from(await (await fetch(sent.body.mediaUrl)).arrayBuffer())).toEqual(PNG);

    // no file left: the text alone; blank text with a text-only quick reply is refused
    const text = await api('POST', `/messages/${ticket.id}`, {
      token: co.adminToken,
      body: { body: 'Our menu', quickMessageId: q.id },
    });
    expect(text.body).toMatchObject({ body: 'Our menu', mediaType: 'chat' });
    const blank = await api('POST', `/messages/${ticket.id}`, {
      token: co.adminToken,
      body: { body: ' ', quickMessageId: q.id },
    });
    expect(blank.status).toBe(400);
    expect(blank.body.error).toBe('ERR_VALIDATION');
    const both = await api('POST', `/messages/${ticket.id}`, {
      token: co.adminToken,
      body: {
        body: 'x',
        quickMessageId: q.id,
        media: { key: path.slice(path.indexOf('company')), mimetype: 'image/png', fileName: 'a.png' },
      },
    });
    expect(both.status).toBe(400);

    // an attendant cannot use the admin's private quick reply, nor another company's
    const agent = await addAgent(co);
    const own = await createTicket(co.adminToken, {
      contactId: (await createContact(co.adminToken)).id,
      whatsappId: w.id,
      userId: agent.id,
    });
    const hidden = await api('POST', `/messages/${own.id}`, {
      token: agent.token,
      body: { body: 'hi', quickMessageId: q.id },
    });
    expect(hidden.status).toBe(404);
    const other = await newCompany('qm-send-other');
    // ids count per company: the other's second one has no twin here (this company has one)
    await api('POST', '/quick-messages', { token: other.adminToken, body: { shortcode: 'y', message: 'First' } });
    const foreign = (
      await api('POST', '/quick-messages', {
        token: other.adminToken,
        body: { shortcode: 'x', message: 'Theirs', geral: true },
      })
    ).body;
    expect(foreign.id).toBeGreaterThan(q.id);
    const stolen = await api('POST', `/messages/${ticket.id}`, {
      token: co.adminToken,
      body: { body: 'hi', quickMessageId: foreign.id },
    });
    expect(stolen.status).toBe(404);
    const messages = (await api('GET', `/messages/${ticket.id}`, { token: co.adminToken })).body.messages;
    expect(messages.map((m: any) => m.body)).toEqual(['Our menu for today', 'Our menu']);
  });
});
