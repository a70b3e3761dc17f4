import { describe, expect, it } from 'vitest';
import { http, type RouteKey } from '../../infra/manifest';
import { api, newCompany, queuesIdle, runTimer, table, type ApiResponse, type TestCompany, holdTimer } from './helpers';
import { createContact, createQueue, createTicket, createUser, createWhatsapp } from './fixtures';

/**
 * The soft lock on every path that changes a ticket (issue 35): a ticket someone else holds is
 * changed only by its holder, an admin, or anyone when the company enables takeoverByAnyUser, and
 * every change of holder by someone else is a takeover (a note and `ticket.taken_over`). Like the
 * isolation suite, the table walks the manifest: every route that writes is either a row below
 * (walked with a colleague who may see the ticket, the holder and an admin) or named as no change
 * of a held ticket, with the reason; a new route listed nowhere fails the first test.
 */

type Team = Awaited<ReturnType<typeof team>>;
type Held = Awaited<ReturnType<typeof held>>;

interface Row {
  route: RouteKey;
  what: string;
  call: (team: Team, t: Held, token: string) => Promise<ApiResponse>;
  /** what the colleague gets (ERR_TICKET_LOCKED unless the route refuses them earlier) */
  refused?: string;
  /** the holder's and the admin's status; a string: they are refused with that code */
  holder: number | string;
  admin: number | string;
  /** the row moves the ticket away from its holder (a takeover when someone else does it) */
  movesHolder?: boolean;
}

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

/** A schedule's outcome as a response: sent (201), or the error it recorded (as the refusal). */
async function scheduleOutcome(team: Team, id: number): Promise<ApiResponse> {
  // the schedules timer runs over every company: held only for this tick, not the file's minutes
  const release = await holdTimer('schedules');
  try {
    await runTimer('schedules');
    await queuesIdle(team.co.companyId);
  } finally {
    await release();
  }
  const s = (await api('GET', `/schedules/${id}`, { token: team.co.adminToken })).body;
  if (s.status === 'ENVIADA') return { status: 201, body: s, headers: new Headers() };
  return { status: 403, body: { error: s.error, schedule: s }, headers: new Headers() };
}

const put = (body: Record<string, unknown>) => (_: Team, t: Held, token: string) =>
  api('PUT', `/tickets/${t.ticket.id}`, { token, body });

const ROWS: Row[] = [
  {
    route: 'PUT /tickets/{id}',
    what: 'take it',
    call: (_, t, token) => takeFor(t, token),
    holder: 200,
    admin: 200,
    movesHolder: true,
  },
  { route: 'PUT /tickets/{id}', what: 'close it', call: put({ status: 'closed' }), holder: 200, admin: 200 },
  {
    route: 'PUT /tickets/{id}',
    what: 'return it to the queue',
    call: put({ status: 'pending', userId: null }),
    holder: 200,
    admin: 200,
    movesHolder: true,
  },
  {
    route: 'PUT /tickets/{id}',
    what: 'transfer it to another queue',
    call: (team, t, token) => api('PUT', `/tickets/${t.ticket.id}`, { token, body: { queueId: team.queue2.id } }),
    holder: 200,
    admin: 200,
    movesHolder: true,
  },
  {
    route: 'PUT /tickets/{id}',
    what: 'transfer it to another attendant',
    call: (team, t, token) => api('PUT', `/tickets/${t.ticket.id}`, { token, body: { userId: team.carla.id } }),
    holder: 200,
    admin: 200,
    movesHolder: true,
  },
  {
    route: 'POST /tickets/{id}/takeover',
    what: 'take it over',
    call: (_, t, token) => api('POST', `/tickets/${t.ticket.id}/takeover`, { token }),
    // without takeoverByAnyUser an attendant may not take over at all, not even her own ticket
    refused: 'ERR_NO_PERMISSION',
    holder: 'ERR_NO_PERMISSION',
    admin: 200,
    movesHolder: true,
  },
  {
    route: 'POST /tickets/{id}/snooze',
    what: 'snooze it',
    // until the customer writes: no wake-up for the snooze timer (snooze.test.ts runs it, clock ahead)
    call: (_, t, token) =>
      api('POST', `/tickets/${t.ticket.id}/snooze`, { token, body: { untilCustomerWrites: true } }),
    holder: 200,
    admin: 200,
  },
  {
    route: 'DELETE /tickets/{id}/snooze',
    what: 'wake it from a snooze',
    call: (_, t, token) => api('DELETE', `/tickets/${t.ticket.id}/snooze`, { token }),
    holder: 200,
    admin: 200,
  },
  {
    route: 'DELETE /tickets/{id}',
    what: 'delete it',
    call: (_, t, token) => api('DELETE', `/tickets/${t.ticket.id}`, { token }),
    // deleting tickets is an admin's permission (ticket-options:deleteTicket)
    refused: 'ERR_NO_PERMISSION',
    holder: 'ERR_NO_PERMISSION',
    admin: 200,
  },
  {
    route: 'PUT /ticket-tags/{ticketId}/{tagId}',
    what: 'tag it',
    call: (team, t, token) => api('PUT', `/ticket-tags/${t.ticket.id}/${team.tag.id}`, { token }),
    holder: 200,
    admin: 200,
  },
  {
    route: 'DELETE /ticket-tags/{ticketId}',
    what: 'clear its tags',
    call: (_, t, token) => api('DELETE', `/ticket-tags/${t.ticket.id}`, { token }),
    holder: 200,
    admin: 200,
  },
  {
    route: 'PUT /tickets/{id}/custom-fields',
    what: 'set its custom fields',
    call: (_, t, token) => api('PUT', `/tickets/${t.ticket.id}/custom-fields`, { token, body: { customFields: {} } }),
    holder: 200,
    admin: 200,
  },
  {
    route: 'POST /tags/sync',
    what: 'set its tags',
    call: (team, t, token) =>
      api('POST', '/tags/sync', { token, body: { ticketId: t.ticket.id, tags: [team.tag.id] } }),
    holder: 200,
    admin: 200,
  },
  {
    route: 'POST /messages/{id}',
    what: 'send in it',
    call: (_, t, token) => api('POST', `/messages/${t.ticket.id}`, { token, body: { body: 'written by someone' } }),
    holder: 201,
    // sending is the holder's alone: an admin takes the ticket over first (issue 24)
    admin: 'ERR_TICKET_LOCKED',
  },
  {
    route: 'DELETE /messages/{id}',
    what: "delete the holder's message",
    call: (_, t, token) => api('DELETE', `/messages/${t.message.id}`, { token }),
    holder: 200,
    admin: 200,
  },
  {
    route: 'POST /messages/{id}/reactions',
    what: "react to the holder's message",
    call: (_, t, token) => api('POST', `/messages/${t.message.id}/reactions`, { token, body: { emoji: '👍' } }),
    holder: 200,
    admin: 'ERR_TICKET_LOCKED',
  },
  {
    route: 'POST /messages/{id}/resend',
    what: "resend the holder's message",
    call: (_, t, token) => api('POST', `/messages/${t.message.id}/resend`, { token }),
    holder: 201,
    admin: 'ERR_TICKET_LOCKED',
  },
  {
    route: 'POST /schedules',
    what: 'schedule a message to its contact',
    call: async (team, t, token) => {
      const made = await api('POST', '/schedules', {
        token,
        body: { body: 'scheduled', contactId: t.contact.id, sendAt: inMinutes(-1) },
      });
      expect(made.status).toBe(201);
      return scheduleOutcome(team, made.body.id);
    },
    holder: 201,
    // a due schedule sends as its author would: into a ticket someone else holds, nobody does
    admin: 'ERR_TICKET_LOCKED',
  },
  {
    route: 'PUT /schedules/{id}',
    what: 'point a schedule at its contact',
    call: async (team, t, token) => {
      const other = await createContact(team.co.adminToken);
      const made = await api('POST', '/schedules', {
        token,
        body: { body: 'scheduled', contactId: other.id, sendAt: inMinutes(60) },
      });
      expect(made.status).toBe(201);
      const moved = await api('PUT', `/schedules/${made.body.id}`, {
        token,
        body: { contactId: t.contact.id, sendAt: inMinutes(-1) },
      });
      expect(moved.status).toBe(200);
      return scheduleOutcome(team, made.body.id);
    },
    holder: 201,
    admin: 'ERR_TICKET_LOCKED',
  },
];

/** PUT /tickets/{id} with the caller as the new holder. */
async function takeFor(t: Held, token: string) {
  const me = (await api('GET', '/auth/me', { token })).body;
  return api('PUT', `/tickets/${t.ticket.id}`, { token, body: { userId: me.id } });
}

/** Routes that write but change no ticket someone holds, each with why. */
const NOT_A_HELD_TICKET_CHANGE: Record<string, RouteKey[]> = {
  'sessions and accounts': [
    'POST /auth/login',
    'POST /auth/refresh_token',
    'DELETE /auth/logout',
    'DELETE /auth/sessions',
    'POST /auth/ws-ticket',
    'POST /forgetpassword/{email}',
    'POST /resetpasswords',
    'POST /users',
    'PUT /users/{id}',
    'DELETE /users/{id}',
    'POST /users/set-language/{lang}',
    'POST /push/subscriptions',
    'PUT /push/subscriptions/{id}',
    'DELETE /push/subscriptions/{id}',
  ],
  // the knowledge base's learning: unanswered questions and draft articles; the bench sends and stores nothing
  'knowledge base learning (admins)': [
    'DELETE /knowledge/unanswered/{id}',
    'POST /knowledge/unanswered/{id}/draft',
    'POST /knowledge/test-bench',
  ],
  // a new ticket: the open guard refuses one beside a contact's open ticket (ERR_OTHER_OPEN_TICKET)
  'a new ticket': ['POST /tickets'],
  // notes are how colleagues talk about a ticket to its holder; they change neither it nor the conversation
  'internal notes': ['POST /ticket-notes', 'DELETE /ticket-notes/{id}'],
  // a file put aside for a later send; the send itself is locked (POST /messages/{id})
  'uploads and media kept for later': [
    'POST /uploads',
    'POST /quick-messages',
    'PUT /quick-messages/{id}',
    'DELETE /quick-messages/{id}',
    'POST /quick-messages/{id}/media-upload',
    'DELETE /quick-messages/{id}/media-upload',
    'DELETE /schedules/{id}',
    'POST /schedules/{id}/media-upload',
    'DELETE /schedules/{id}/media-upload',
  ],
  // the internal chat between users, not a customer's ticket
  'internal chat': [
    'POST /chats',
    'PUT /chats/{id}',
    'DELETE /chats/{id}',
    'POST /chats/{id}/messages',
    'POST /chats/{id}/read',
  ],
  // the copilot answers the caller a text to edit (copilot.test.ts): it stores and sends nothing; the send is locked
  'the copilot': [
    'POST /copilot/{ticketId}/suggest',
    'POST /copilot/{ticketId}/summary',
    'POST /copilot/{ticketId}/rewrite',
    'POST /copilot/{ticketId}/translate',
  ],
  // the company's integration speaks for the company through a connection's token, not as a user (messages-api.test.ts)
  'the messages API': ['POST /messages/send'],
  // Meta's webhook: the customer's messages and statuses, as the session runner's events are
  'WhatsApp itself (Cloud API webhook)': ['POST /webhooks/whatsapp-cloud'],
  // contacts and tags themselves; a merge is an admin's (tickets follow the kept contact)
  'contacts and tags': [
    'POST /contacts/duplicates/dismiss',
    'POST /contacts/{id}/merge',
    'POST /contacts',
    'POST /contacts/upload',
    'POST /contacts/import',
    'PUT /contacts/{id}',
    'PUT /contacts/{id}/custom-fields',
    'DELETE /contacts/{id}',
    'POST /tags',
    'PUT /tags/{id}',
    'DELETE /tags/{id}',
  ],
  'company set-up (admins)': [
    'POST /whatsapp',
    'PUT /whatsapp/{id}',
    'DELETE /whatsapp/{id}',
    'POST /whatsapp/{id}/templates/sync',
    'POST /whatsapp/{id}/cloud-transport',
    'PUT /whatsapp/{id}/cloud-transport',
    'DELETE /whatsapp/{id}/cloud-transport',
    'POST /whatsappsession/{id}',
    'PUT /whatsappsession/{id}',
    'DELETE /whatsappsession/{id}',
    'POST /queue',
    'PUT /queue/{id}',
    'DELETE /queue/{id}',
    'POST /prompt',
    'PUT /prompt/{id}',
    'DELETE /prompt/{id}',
    'POST /knowledge',
    'PUT /knowledge/{id}',
    'DELETE /knowledge/{id}',
    'POST /knowledge/search',
    'POST /custom-fields',
    'PUT /custom-fields/{id}',
    'DELETE /custom-fields/{id}',
    'POST /segments',
    'PUT /segments/{id}',
    'DELETE /segments/{id}',
    'POST /automation-rules',
    'POST /automation-rules/dry-run',
    'PUT /automation-rules/{id}',
    'DELETE /automation-rules/{id}',
    'POST /queueIntegration',
    'PUT /queueIntegration/{id}',
    'DELETE /queueIntegration/{id}',
    'POST /queueIntegration/testSession',
    'POST /queue-options',
    'PUT /queue-options/{id}',
    'DELETE /queue-options/{id}',
    'PUT /settings/{key}',
    'PUT /companies/{id}/schedules',
    'POST /files',
    'PUT /files/{id}',
    'DELETE /files/{id}',
    'POST /files/uploadList/{id}',
  ],
  // campaigns write to contact lists through their own shippings, never into an attendant's ticket
  campaigns: [
    'POST /contact-lists',
    'PUT /contact-lists/{id}',
    'DELETE /contact-lists/{id}',
    'POST /contact-lists/{id}/upload',
    'POST /contact-list-items',
    'PUT /contact-list-items/{id}',
    'DELETE /contact-list-items/{id}',
    'POST /campaigns',
    'PUT /campaigns/{id}',
    'DELETE /campaigns/{id}',
    'POST /campaigns/{id}/cancel',
    'POST /campaigns/{id}/restart',
    'POST /campaigns/{id}/media-upload',
    'DELETE /campaigns/{id}/media-upload',
    'POST /campaign-settings',
  ],
  'the platform and billing': [
    'POST /announcements',
    'PUT /announcements/{id}',
    'DELETE /announcements/{id}',
    'POST /announcements/{id}/read',
    'POST /announcements/{id}/media-upload',
    'DELETE /announcements/{id}/media-upload',
    'POST /companies/cadastro',
    'POST /companies',
    'PUT /companies/{id}',
    'DELETE /companies/{id}',
    'POST /companies/{id}/expire',
    'POST /plans',
    'PUT /plans/{id}',
    'DELETE /plans/{id}',
    'POST /helps',
    'PUT /helps/{id}',
    'DELETE /helps/{id}',
    'POST /subscription',
    'POST /payments/asaas/webhook',
    'POST /fleet/queues/{name}/redrive',
  ],
};

/** Ana and Bruno in one queue (each sees the other's tickets: the lock, not visibility, refuses), Carla in another. */
async function team(label: string) {
  const co = await newCompany(label);
  const whatsapp = await createWhatsapp(co);
  const queue = await createQueue(co.adminToken);
  const queue2 = await createQueue(co.adminToken);
  const ana = await createUser(co, { name: 'Ana', queueIds: [queue.id] });
  const bruno = await createUser(co, { name: 'Bruno', queueIds: [queue.id] });
  const carla = await createUser(co, { name: 'Carla', queueIds: [queue2.id] });
  const tag = (await api('POST', '/tags', { token: co.adminToken, body: { name: `lock-${label}`, color: '#123456' } }))
    .body;
  return { co, whatsapp, queue, queue2, ana, bruno, carla, tag };
}

/** A ticket Ana holds, with one message of hers. */
async function held(team: Team) {
  const contact = await createContact(team.co.adminToken);
  const ticket = await createTicket(team.ana.token, {
    contactId: contact.id,
    whatsappId: team.whatsapp.id,
    queueId: team.queue.id,
  });
  const message = (await api('POST', `/messages/${ticket.id}`, { token: team.ana.token, body: { body: 'from Ana' } }))
    .body;
  await queuesIdle(team.co.companyId);
  return { contact, ticket, message };
}

/** What a refused call must leave as it was: the stored ticket, its messages, its notes, the contact's schedules sent. */
async function snapshot(co: TestCompany, t: Held) {
  const stored = await table().get(`C#${co.companyId}`, `TICKET#${String(t.ticket.id).padStart(10, '0')}`);
  // the undelivered watchdog's flag is its own (undelivered.test.ts runs it platform-wide, clock
  // ahead, beside this file): a ticket's count of unacknowledged messages, the order key it moves
  // and the version its write takes (every ticket write takes one: the change shows in the rest)
  const { undeliveredMessages: _count, gsi2sk: _order, version: _version, ...ticket } = stored ?? {};
  const messages = (await api('GET', `/messages/${t.ticket.id}`, { token: co.adminToken })).body.messages?.map(
    (m: { id: string; body: string; isDeleted: boolean }) => [m.id, m.body, m.isDeleted],
  );
  const notes = (await notesOf(co, t)).length;
  return { ticket, messages, notes };
}

const notesOf = async (co: TestCompany, t: Held) =>
  (await api('GET', `/ticket-notes/list?contactId=${t.contact.id}&ticketId=${t.ticket.id}`, { token: co.adminToken }))
    .body as { note: string }[];

const takeoversOf = async (co: TestCompany, ticketId: number) =>
  (
    (await api('GET', '/audit?action=ticket.taken_over', { token: co.adminToken })).body.entries as {
      target: { id: number };
      actorId: number;
      changes: { userId: { from: number; to: number | null } };
    }[]
  ).filter((e) => e.target.id === ticketId);

function expectOutcome(res: ApiResponse, expected: number | string, who: string) {
  const seen = `${who}: ${res.status} ${JSON.stringify(res.body)}`;
  if (typeof expected === 'number') expect(res.status, seen).toBe(expected);
  else {
    expect(res.status, seen).toBe(403);
    expect(res.body.error, seen).toBe(expected);
  }
}

describe('the soft lock on every route that changes a ticket', () => {
  it('every route of the manifest that writes is walked below or named as no change of a held ticket', () => {
    const writes = http.flatMap((m) => m.routes).filter((r) => !r.startsWith('GET '));
    const walked = new Set(ROWS.map((r) => r.route));
    const named = new Set(Object.values(NOT_A_HELD_TICKET_CHANGE).flat());
    expect(writes.filter((r) => !walked.has(r) && !named.has(r))).toEqual([]);
    // and nothing is both, or named but gone from the manifest
    expect([...walked].filter((r) => named.has(r))).toEqual([]);
    expect([...walked, ...named].filter((r) => !writes.includes(r))).toEqual([]);
  });

  // the rows share one company (each on tickets of its own): a connected company per row costs seconds
  let shared: Promise<Team> | undefined;
  for (const row of ROWS) {
    it(`${row.route} (${row.what}): a colleague who sees the ticket is refused and nothing changes; the holder and an admin as the rule says`, async () => {
      shared ??= team('lk');
      const tm = await shared;
      const t = await held(tm);
      const before = await snapshot(tm.co, t);
      expectOutcome(await row.call(tm, t, tm.bruno.token), row.refused ?? 'ERR_TICKET_LOCKED', 'colleague');
      await queuesIdle(tm.co.companyId);
      expect(await snapshot(tm.co, t)).toEqual(before);

      expectOutcome(await row.call(tm, t, tm.ana.token), row.holder, 'holder');
      await queuesIdle(tm.co.companyId);
      // the holder changes her own ticket: no takeover
      expect(await takeoversOf(tm.co, t.ticket.id)).toEqual([]);

      expectOutcome(await row.call(tm, await held(tm), tm.co.adminToken), row.admin, 'admin');
    });
  }

  it('a change of holder by an admin is a takeover, admins included: the note and the audit entry', async () => {
    const tm = await team('lk-admin');
    for (const row of ROWS.filter((r) => r.movesHolder)) {
      const t = await held(tm);
      expectOutcome(await row.call(tm, t, tm.co.adminToken), 200, row.what);
      const after = (await api('GET', `/tickets/${t.ticket.id}`, { token: tm.co.adminToken })).body;
      expect(
        (await notesOf(tm.co, t)).map((n) => n.note),
        row.what,
      ).toEqual([expect.stringContaining('Ana')]);
      expect(await takeoversOf(tm.co, t.ticket.id), row.what).toEqual([
        expect.objectContaining({
          actorId: tm.co.admin.id,
          changes: { userId: { from: tm.ana.id, to: after.userId } },
        }),
      ]);
    }
  });

  it('with takeoverByAnyUser enabled a colleague may change the ticket, and each change of holder is a takeover', async () => {
    const tm = await team('lk-any');
    expect(
      (await api('PUT', '/settings/takeoverByAnyUser', { token: tm.co.adminToken, body: { value: 'enabled' } })).status,
    ).toBe(200);
    for (const row of ROWS.filter((r) => r.movesHolder)) {
      const t = await held(tm);
      expectOutcome(await row.call(tm, t, tm.bruno.token), 200, row.what);
      const after = (await api('GET', `/tickets/${t.ticket.id}`, { token: tm.co.adminToken })).body;
      expect(after.userId, row.what).not.toBe(tm.ana.id);
      expect(
        (await notesOf(tm.co, t)).map((n) => n.note),
        row.what,
      ).toEqual([expect.stringContaining('Ana')]);
      expect(await takeoversOf(tm.co, t.ticket.id), row.what).toEqual([
        expect.objectContaining({ actorId: tm.bruno.id, changes: { userId: { from: tm.ana.id, to: after.userId } } }),
      ]);
    }
    // a change that keeps the holder leaves no takeover behind
    const t = await held(tm);
    expect(
      (await api('PUT', `/tickets/${t.ticket.id}`, { token: tm.bruno.token, body: { status: 'closed' } })).status,
    ).toBe(200);
    expect(await takeoversOf(tm.co, t.ticket.id)).toEqual([]);
    // sending stays the holder's: the colleague takes the ticket over first
    const t2 = await held(tm);
    const send = await api('POST', `/messages/${t2.ticket.id}`, { token: tm.bruno.token, body: { body: 'x' } });
    expect(send.body.error).toBe('ERR_TICKET_LOCKED');
  });

  it('a pending ticket locks nobody out: a colleague accepts it as before, without a takeover', async () => {
    const tm = await team('lk-pending');
    const t = await held(tm);
    expect((await put({ status: 'pending', userId: null })(tm, t, tm.ana.token)).status).toBe(200);
    const accepted = await api('PUT', `/tickets/${t.ticket.id}`, {
      token: tm.bruno.token,
      body: { status: 'open', userId: tm.bruno.id },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ status: 'open', userId: tm.bruno.id });
    expect(await takeoversOf(tm.co, t.ticket.id)).toEqual([]);
  });
});

describe('schedules reach only contacts their author may see', () => {
  it('an attendant cannot schedule to, or move a schedule to, a contact whose open ticket is kept from them; an admin can', async () => {
    const tm = await team('lk-sched');
    const t = await held(tm);
    // Carla's queue is not the ticket's
    const refused = await api('POST', '/schedules', {
      token: tm.carla.token,
      body: { body: 'Hello there', contactId: t.contact.id, sendAt: inMinutes(60) },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_NO_PERMISSION');

    const free = await createContact(tm.co.adminToken);
    const own = await api('POST', '/schedules', {
      token: tm.carla.token,
      body: { body: 'Hello there', contactId: free.id, sendAt: inMinutes(60) },
    });
    expect(own.status).toBe(201);
    const moved = await api('PUT', `/schedules/${own.body.id}`, {
      token: tm.carla.token,
      body: { contactId: t.contact.id },
    });
    expect(moved.status).toBe(403);
    expect(moved.body.error).toBe('ERR_NO_PERMISSION');
    expect((await api('GET', `/schedules/${own.body.id}`, { token: tm.co.adminToken })).body.contactId).toBe(free.id);

    const admin = await api('POST', '/schedules', {
      token: tm.co.adminToken,
      body: { body: 'Hello there', contactId: t.contact.id, sendAt: inMinutes(60) },
    });
    expect(admin.status).toBe(201);
  });
});
