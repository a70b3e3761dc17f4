import { describe, expect, it } from 'vitest';
import { createContact, createQueue, createTicket, createUser, createWhatsapp } from './fixtures';
import { api, baseUrl, newCompany, type TestCompany } from './helpers';
import { phone } from './whatsapp-sim';

/** No input kills the process or gets a 500 (security review H1, M10, L6 cursor key, L9 multipart limits). */

const BOUNDARY = 'hardeningBoundary42';
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d5b9a90000000049454e44ae426082',
  'hex',
);

function part(name: string, value: string | Buffer, fileName?: string, type = 'image/png') {
  const disposition = fileName
    ? `form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: ${type}`
    : `form-data; name="${name}"`;
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n\r\n`),
    Buffer.from(value),
    Buffer.from('\r\n'),
  ]);
}
const form = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]);

/** Posts raw bytes, as a client that sends a broken multipart body would. */
async function rawPost(path: string, body: Buffer, headers: Record<string, string>) {
  const res = await fetch(`${baseUrl()}/api${path}`, { method: 'POST', headers, body: new Uint8Array(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

interface UploadRoute {
  name: string;
  path: string;
  auth: string;
  field: string;
}

/** A company with one of each upload target: a ticket, a quick message, a schedule, a connection token. */
async function uploadTargets(co: TestCompany): Promise<UploadRoute[]> {
  const whatsapp = await createWhatsapp(co);
  const contact = await createContact(co.adminToken);
  const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id });
  const quick = await api('POST', '/quick-messages', {
    token: co.adminToken,
    body: { shortcode: 'hi', message: 'Hi' },
  });
  const schedule = await api('POST', '/schedules', {
    token: co.adminToken,
    body: { body: 'Later', contactId: contact.id, sendAt: new Date(Date.now() + 3_600_000).toISOString() },
  });
  return [
    { name: 'POST /messages/{ticketId}', path: `/messages/${ticket.id}`, auth: co.adminToken, field: 'medias' },
    {
      name: 'POST /quick-messages/{id}/media-upload',
      path: `/quick-messages/${quick.body.id}/media-upload`,
      auth: co.adminToken,
      field: 'file',
    },
    {
      name: 'POST /schedules/{id}/media-upload',
      path: `/schedules/${schedule.body.id}/media-upload`,
      auth: co.adminToken,
      field: 'file',
    },
    { name: 'POST /messages/send (API token)', path: '/messages/send', auth: whatsapp.token, field: 'medias' },
  ];
}

describe('one multipart reader: a broken body is a 4xx and the stack keeps serving', () => {
  it('a truncated body and a boundary-less body get ERR_VALIDATION on every upload route, and the next request succeeds', async () => {
    const co = await newCompany('mp-broken');
    for (const route of await uploadTargets(co)) {
      const whole = form(part('number', '5511966661234'), part(route.field, PNG, 'photo.png'));
      const headers = { authorization: `Bearer ${route.auth}` };
      const truncated = await rawPost(route.path, whole.subarray(0, whole.length - 60), {
        ...headers,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      });
      expect([route.name, truncated.status, truncated.body?.error]).toEqual([route.name, 400, 'ERR_VALIDATION']);
      const noBoundary = await rawPost(route.path, whole, { ...headers, 'content-type': 'multipart/form-data' });
      expect([route.name, noBoundary.status, noBoundary.body?.error]).toEqual([route.name, 400, 'ERR_VALIDATION']);
      const me = await api('GET', '/auth/me', { token: co.adminToken });
      expect([route.name, me.status]).toEqual([route.name, 200]);
    }
  });

  it('11 files in one message are refused, not cut to 10: nothing is sent', async () => {
    const co = await newCompany('mp-files');
    const whatsapp = await createWhatsapp(co);
    const contact = await createContact(co.adminToken);
    const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id });
    const files = Array.from({ length: 11 }, (_, i) => part('medias', PNG, `p${i}.png`));
    const res = await rawPost(`/messages/${ticket.id}`, form(...files), {
      authorization: `Bearer ${co.adminToken}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', details: [{ message: 'too many files', max: 10 }] });
    const listed = await api('GET', `/messages/${ticket.id}`, { token: co.adminToken });
    expect(listed.body.messages).toEqual([]);
    expect(await phone(co.companyId, whatsapp.id).outbound()).toEqual([]);
  });

  it('a file over the limit is refused with ERR_PAYLOAD_TOO_LARGE, not stored truncated', async () => {
    const co = await newCompany('mp-big');
    const quick = await api('POST', '/quick-messages', {
      token: co.adminToken,
      body: { shortcode: 'b', message: 'B' },
    });
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const res = await rawPost(`/quick-messages/${quick.body.id}/media-upload`, form(part('file', big, 'big.png')), {
      authorization: `Bearer ${co.adminToken}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('ERR_PAYLOAD_TOO_LARGE');
    const stored = await api('GET', `/quick-messages/${quick.body.id}`, { token: co.adminToken });
    expect(stored.body).toMatchObject({ mediaPath: null, isMedia: false });
  });
});

describe('query lists parse safely and are capped', () => {
  it('malformed JSON lists are ERR_VALIDATION 400, not 500', async () => {
    const co = await newCompany('q-lists');
    for (const path of ['/tickets?queueIds=[', '/tickets?tags=[1,2', '/tickets?users=[', '/ticket/kanban?queueIds=[']) {
      const res = await api('GET', path, { token: co.adminToken });
      expect([path, res.status, res.body.error]).toEqual([path, 400, 'ERR_VALIDATION']);
    }
    for (const path of [
      '/tickets?queueIds={"a":1}',
      '/tickets?tags=[null]',
      '/tickets?users=a,b',
      '/tickets?tags=[-1]',
    ]) {
      const res = await api('GET', path, { token: co.adminToken });
      expect([path, res.status, res.body.error]).toEqual([path, 400, 'ERR_VALIDATION']);
    }
  });

  it('an id list longer than 50 is refused; 50 is served', async () => {
    const co = await newCompany('q-cap');
    const ids = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => i + 1));
    for (const name of ['users', 'tags', 'queueIds']) {
      const tooMany = await api('GET', `/tickets?status=closed&${name}=${ids(51)}`, { token: co.adminToken });
      expect([name, tooMany.status, tooMany.body.error]).toEqual([name, 400, 'ERR_VALIDATION']);
      const fifty = await api('GET', `/tickets?status=closed&${name}=${ids(50)}`, { token: co.adminToken });
      expect([name, fifty.status]).toEqual([name, 200]);
    }
    const kanban = await api('GET', `/ticket/kanban?queueIds=${ids(51)}`, { token: co.adminToken });
    expect(kanban.status).toBe(400);
  });

  it('a users filter over many attendants (one filtered read per status) lists exactly their tickets, with the right count', async () => {
    const co = await newCompany('q-many-users');
    const whatsapp = await createWhatsapp(co);
    const agents = await Promise.all(Array.from({ length: 6 }, () => createUser(co)));
    const outsider = await createUser(co);
    const mine: number[] = [];
    for (const agent of [...agents.slice(0, 5), outsider]) {
      const contact = await createContact(co.adminToken);
      const t = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id, userId: agent.id });
      if (agent !== outsider) mine.push(t.id);
    }
    const users = JSON.stringify(agents.map((a) => a.id));
    const res = await api('GET', `/tickets?status=open&users=${users}`, { token: co.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.tickets.map((t: { id: number }) => t.id).sort()).toEqual([...mine].sort());
    expect(res.body.count).toBe(5);
  });

  it('a queue filter over many queues lists exactly their tickets', async () => {
    const co = await newCompany('q-many-queues');
    const whatsapp = await createWhatsapp(co);
    const queues = await Promise.all(Array.from({ length: 6 }, () => createQueue(co.adminToken)));
    const other = await createQueue(co.adminToken);
    const inQueues: number[] = [];
    for (const queue of [...queues, other]) {
      const contact = await createContact(co.adminToken);
      const t = await createTicket(co.adminToken, {
        contactId: contact.id,
        whatsappId: whatsapp.id,
        queueId: queue.id,
      });
      await api('PUT', `/tickets/${t.id}`, { token: co.adminToken, body: { status: 'pending', userId: null } });
      if (queue !== other) inQueues.push(t.id);
    }
    const ids = JSON.stringify(queues.map((q) => q.id));
    const res = await api('GET', `/tickets?status=pending&showAll=true&queueIds=${ids}`, { token: co.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.tickets.map((t: { id: number }) => t.id).sort()).toEqual([...inQueues].sort());
  });
});

describe('cursors are bound to their list and partition', () => {
  it('a cursor from another list is ERR_INVALID_CURSOR on /users, /contacts, /tags, /quick-messages, /schedules and /tickets', async () => {
    const co = await newCompany('cur-lists');
    await createUser(co);
    await Promise.all([createContact(co.adminToken), createContact(co.adminToken)]);
    for (const name of ['alpha', 'bravo'])
      await api('POST', '/tags', { token: co.adminToken, body: { name, color: '#000000' } });
    const tagsPage = await api('GET', '/tags?limit=1', { token: co.adminToken });
    expect(tagsPage.body.cursor).toBeTruthy();
    const foreign = encodeURIComponent(tagsPage.body.cursor);
    for (const path of [
      '/users',
      '/contacts',
      '/quick-messages',
      '/schedules',
      '/tickets',
      '/tickets?searchParam=ab',
    ]) {
      const sep = path.includes('?') ? '&' : '?';
      const res = await api('GET', `${path}${sep}cursor=${foreign}`, { token: co.adminToken });
      expect([path, res.status, res.body.error]).toEqual([path, 400, 'ERR_INVALID_CURSOR']);
    }
    const next = await api('GET', `/tags?limit=1&cursor=${foreign}`, { token: co.adminToken });
    expect(next.status).toBe(200);
    expect(next.body.tags).toHaveLength(1);
  });

  it("a cursor of one ticket's conversation is refused on another ticket's messages", async () => {
    const co = await newCompany('cur-msgs');
    const whatsapp = await createWhatsapp(co);
    const tickets = [];
    for (let i = 0; i < 2; i++) {
      const contact = await createContact(co.adminToken);
      const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id });
      for (const body of ['one', 'two'])
        await api('POST', `/messages/${ticket.id}`, { token: co.adminToken, body: { body } });
      tickets.push(ticket);
    }
    const first = await api('GET', `/messages/${tickets[0].id}?limit=1`, { token: co.adminToken });
    expect(first.body.cursor).toBeTruthy();
    const cursor = encodeURIComponent(first.body.cursor);
    const foreign = await api('GET', `/messages/${tickets[1].id}?limit=1&cursor=${cursor}`, { token: co.adminToken });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toBe('ERR_INVALID_CURSOR');
    const own = await api('GET', `/messages/${tickets[0].id}?limit=1&cursor=${cursor}`, { token: co.adminToken });
    expect(own.status).toBe(200);
  });
});

describe('dashboard ranges', () => {
  it('a reversed, impossible or over-a-year range is ERR_VALIDATION; a valid one is served', async () => {
    const co = await newCompany('dash-range');
    const bad = [
      '/dashboard?date_from=2025-03-10&date_to=2025-03-01',
      '/dashboard/ticketsDay?initialDate=2025-03-10&finalDate=2025-03-01',
      '/dashboard/ticketsUsers?initialDate=2025-02-30&finalDate=2025-03-01',
      '/dashboard?date_from=2020-01-01&date_to=2025-01-01',
    ];
    for (const path of bad) {
      const res = await api('GET', path, { token: co.adminToken });
      expect([path, res.status, res.body.error]).toEqual([path, 400, 'ERR_VALIDATION']);
    }
    const ok = await api('GET', '/dashboard?date_from=2025-01-01&date_to=2025-12-31', { token: co.adminToken });
    expect(ok.status).toBe(200);
  });
});

describe('malformed cookies', () => {
  it('a cookie that is not valid percent-encoding is ignored, never a 500', async () => {
    const co = await newCompany('cookie');
    const me = await api('GET', '/auth/me', { token: co.adminToken, cookie: 'a=%E0%A4%A; b=%' });
    expect(me.status).toBe(200);
    const refresh = await api('POST', '/auth/refresh_token', { cookie: 'jrt=%E0%A4%A' });
    expect(refresh.status).toBe(401);
  });
});

describe('JSON bodies are not coerced', () => {
  it('a top-level queue option takes parentId null; true or [id] are not ids', async () => {
    const co = await newCompany('qopt-null');
    const queue = await createQueue(co.adminToken);
    const top = await api('POST', '/queue-options', {
      token: co.adminToken,
      body: { queueId: queue.id, parentId: null, title: 'Sales', option: '1' },
    });
    expect(top.status).toBe(201);
    expect(top.body.parentId).toBeNull();
    for (const parentId of [true, [top.body.id], 0]) {
      const res = await api('POST', '/queue-options', {
        token: co.adminToken,
        body: { queueId: queue.id, parentId, title: 'Child', option: '2' },
      });
      expect([parentId, res.status, res.body.error]).toEqual([parentId, 400, 'ERR_VALIDATION']);
    }
    const listed = await api('GET', `/queue-options?queueId=${queue.id}&parentId=-1`, { token: co.adminToken });
    expect(listed.body.map((o: { title: string }) => o.title)).toEqual(['Sales']);
  });
});
