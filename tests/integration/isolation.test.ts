import { describe, it, expect, beforeAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { http, splitRouteKey, type RouteKey } from '../../infra/manifest';
import { ADMIN, api, baseUrl, login, newCompany, runTimer, table, type TestCompany, usesTimers } from './helpers';
import { createContact, createQueue, createTicket, createUser, createWhatsapp } from './fixtures';

usesTimers('invoices');

/**
 * Tenant isolation over the WHOLE route list of the manifest: company B's admin calls every route
 * that takes an id with company A's ids and must get 404 (never A's data, never a 200); lists and
 * creations that reference A's ids show or touch nothing of A. New routes are covered the moment
 * they are added to the manifest; one whose ids this file cannot fill fails with its name.
 */

/** Routes that need no session (login, signup, version ...). Everything else must refuse a missing token. */
const PUBLIC = new Set<string>([
  'POST /auth/login',
  'POST /auth/refresh_token',
  'DELETE /auth/logout',
  'POST /forgetpassword/{email}',
  'POST /resetpasswords',
  'GET /version',
  'GET /plans/list',
  'POST /companies/cadastro',
  // authenticated by a connection's API token, not a user session (tested in messages-api.test.ts)
  'POST /messages/send',
  // Meta's webhook verification: a wrong verify token is 403 as Meta expects (whatsapp-cloud.test.ts);
  // its POST refuses an unsigned call with 401 like any route here
  'GET /webhooks/whatsapp-cloud',
]);

/** Routes whose path parameter is not a record id of some company (explicit, with the reason). */
const NOT_PER_ID = new Set<string>([
  // the language code; the change applies to the caller's own user
  'POST /users/set-language/{lang}',
  // a setting name; the caller's own company's setting is written
  'PUT /settings/{key}',
  // platform announcements: super users write them and every company reads the active ones (announcements.test.ts)
  'GET /announcements/{id}',
  'PUT /announcements/{id}',
  'DELETE /announcements/{id}',
  'POST /announcements/{id}/read',
  'POST /announcements/{id}/media-upload',
  'DELETE /announcements/{id}/media-upload',
]);

/**
 * Platform routes only a super user reaches (platform-admin.test.ts): company B's admin is refused
 * with 403 before any id is looked at, and sees nothing of company A.
 */
const SUPER_ONLY = new Set<string>([
  'GET /companies/{id}',
  'PUT /companies/{id}',
  'DELETE /companies/{id}',
  'POST /companies/{id}/expire',
  // plans and helps are the platform's, not a company's
  'GET /plans/{id}',
  'PUT /plans/{id}',
  'DELETE /plans/{id}',
  'PUT /helps/{id}',
  'DELETE /helps/{id}',
  // the platform's queues (the operator's fleet view)
  'POST /fleet/queues/{name}/redrive',
]);

const allRoutes: RouteKey[] = http.flatMap((m) => m.routes);
const paramsOf = (route: string) => [...route.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
const protectedRoutes = allRoutes.filter((r) => !PUBLIC.has(r));
const idRoutes = protectedRoutes.filter((r) => paramsOf(r).length && !NOT_PER_ID.has(r) && !SUPER_ONLY.has(r));
const listRoutes = protectedRoutes.filter((r) => !paramsOf(r).length && r.startsWith('GET '));

const marker = `zq${randomUUID().slice(0, 6)}`;
let a: TestCompany;
let b: TestCompany;
const ids: Record<string, string | number> = {};

const image = () => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), 'x.png');
  return form;
};

/** A body that passes each route's validation, so the call reaches the ownership check. */
const BODIES: Record<string, () => unknown> = {
  'POST /tickets/{id}/snooze': () => ({ untilCustomerWrites: true }),
  'PUT /users/{id}': () => ({ name: 'Taken Over' }),
  'PUT /queue/{id}': () => ({ name: 'Taken Over' }),
  'PUT /queue-options/{id}': () => ({ title: 'Taken Over' }),
  'PUT /quick-messages/{id}': () => ({ message: 'Taken Over' }),
  'POST /quick-messages/{id}/media-upload': image,
  'PUT /schedules/{id}': () => ({ body: 'Taken over body' }),
  'POST /schedules/{id}/media-upload': image,
  'PUT /whatsapp/{id}': () => ({ name: 'Taken Over' }),
  'POST /whatsapp/{id}/cloud-transport': () => ({
    phoneNumberId: '123456789012345',
    wabaId: '223456789012345',
    accessToken: 'EAAGtakenovertoken',
    appSecret: 'taken-over-secret',
  }),
  'POST /messages/{id}/reactions': () => ({ emoji: '👍' }),
  'PUT /tickets/{id}': () => ({ status: 'closed' }),
  'PUT /contacts/{id}': () => ({ name: 'Taken Over' }),
  'POST /contacts/{id}/merge': () => ({ otherId: ids.contact2 }),
  'PUT /tags/{id}': () => ({ name: 'Taken Over' }),
  'PUT /chats/{id}': () => ({ title: 'Taken Over' }),
  'PUT /contact-lists/{id}': () => ({ name: 'Taken Over' }),
  'PUT /contact-list-items/{id}': () => ({ name: 'Taken Over', number: '5511999990000' }),
  'PUT /campaigns/{id}': () => ({ name: 'Taken Over', message1: 'Taken over', whatsappId: 1, contactListId: 1 }),
  'POST /contact-lists/{id}/upload': image,
  'POST /files/uploadList/{id}': image,
  'POST /campaigns/{id}/media-upload': image,
  'PUT /files/{id}': () => ({ name: 'Taken Over', message: 'Taken over' }),
  'PUT /prompt/{id}': () => ({ name: 'Taken Over' }),
  'PUT /knowledge/{id}': () => ({ title: 'Taken Over' }),
  'PUT /custom-fields/{id}': () => ({ name: 'Taken Over' }),
  'PUT /segments/{id}': () => ({ name: 'Taken Over' }),
  'POST /automation-rules': () => ({
    name: 'Taken Over',
    event: { type: 'ticket_created' },
    actions: [{ type: 'add_note', body: 'x' }],
  }),
  'POST /automation-rules/dry-run': () => ({
    name: 'Taken Over',
    event: { type: 'ticket_created' },
    actions: [{ type: 'add_note', body: 'x' }],
  }),
  'PUT /automation-rules/{id}': () => ({
    name: 'Taken Over',
    event: { type: 'ticket_created' },
    actions: [{ type: 'add_note', body: 'x' }],
  }),
  'PUT /contacts/{id}/custom-fields': () => ({ customFields: {} }),
  'PUT /tickets/{id}/custom-fields': () => ({ customFields: {} }),
  'PUT /queueIntegration/{id}': () => ({ type: 'webhook', name: 'Taken Over', urlN8N: 'https://x.example.test' }),
  'PUT /companies/{id}': () => ({ name: 'Taken Over' }),
  'PUT /plans/{id}': () => ({ name: 'Taken Over' }),
  'PUT /helps/{id}': () => ({ title: 'Taken Over' }),
  'POST /chats/{id}/messages': () => ({ message: 'intrusion' }),
  'POST /messages/{id}': () => ({ body: 'intrusion' }),
  'PUT /companies/{id}/schedules': () => ({
    schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '00:00', endTime: '00:01' }],
  }),
  'PUT /push/subscriptions/{id}': () => ({ device: 'Taken Over' }),
  'POST /copilot/{ticketId}/summary': () => ({ language: 'en' }),
  'POST /copilot/{ticketId}/rewrite': () => ({ text: 'Taken over draft', style: 'formal' }),
  'POST /copilot/{ticketId}/translate': () => ({ text: 'Taken over draft', to: 'es' }),
};

/** Which of A's ids fills a parameter, by the route's first path segment and the parameter name. */
const FILL: Record<string, Record<string, () => string | number>> = {
  users: { id: () => ids.user! },
  queue: { id: () => ids.queue! },
  'queue-options': { id: () => ids.option! },
  'quick-messages': { id: () => ids.quickMessage! },
  schedules: { id: () => ids.schedule! },
  whatsapp: { id: () => ids.whatsapp! },
  whatsappsession: { id: () => ids.whatsapp! },
  tickets: { id: () => ids.ticket!, uuid: () => ids.ticketUuid! },
  contacts: { id: () => ids.contact!, otherId: () => ids.contact2! },
  tags: { id: () => ids.tag! },
  chats: { id: () => ids.chat! },
  'ticket-notes': { id: () => ids.note! },
  'ticket-tags': { ticketId: () => ids.ticket!, tagId: () => ids.tag! },
  messages: { ticketId: () => ids.ticket!, id: () => ids.message! },
  companies: { id: () => a.companyId, companyId: () => a.companyId },
  'contact-lists': { id: () => ids.contactList! },
  'contact-list-items': { id: () => ids.contactListItem! },
  campaigns: { id: () => ids.campaign! },
  files: { id: () => ids.fileList! },
  invoices: { id: () => ids.invoice! },
  plans: { id: () => 1 },
  prompt: { id: () => ids.prompt! },
  knowledge: { id: () => ids.knowledge! },
  'custom-fields': { id: () => ids.customField! },
  segments: { id: () => ids.segment! },
  'automation-rules': { id: () => ids.automationRule! },
  queueIntegration: { id: () => ids.integration! },
  helps: { id: () => ids.help! },
  push: { id: () => ids.pushSubscription! },
  fleet: { name: () => 'schedules' },
  copilot: { ticketId: () => ids.ticket! },
};

/** Where one path level serves two kinds of id, the route itself says which (checked before FILL). */
const ROUTE_FILL: Record<string, Record<string, () => string | number>> = {
  // the ticket whose messages are read or written; DELETE /messages/{id} names a message
  'GET /messages/{id}': { id: () => ids.ticket! },
  'POST /messages/{id}': { id: () => ids.ticket! },
  // an unanswered question of the knowledge base (its id names its key), not an article
  'DELETE /knowledge/unanswered/{id}': { id: () => ids.unansweredQuestion! },
  'POST /knowledge/unanswered/{id}/draft': { id: () => ids.unansweredQuestion! },
};

function fill(route: string): string {
  const { path } = splitRouteKey(route as RouteKey);
  const resource = path.split('/')[1]!;
  return path.replace(/\{(\w+)\}/g, (_, param: string) => {
    const value = ROUTE_FILL[route]?.[param] ?? FILL[resource]?.[param];
    if (!value)
      throw new Error(
        `${route}: no id of company A for {${param}} - add it to FILL (or, if it is not a record id, to NOT_PER_ID with the reason)`,
      );
    return encodeURIComponent(String(value()));
  });
}

const ok = (res: { status: number; body: any }, what: string) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

beforeAll(async () => {
  a = await newCompany('iso-a');
  b = await newCompany('iso-b');
  const t = a.adminToken;
  const whatsapp = await createWhatsapp(a, { name: `Line ${marker}` });
  const contact = await createContact(t, { name: `Contact ${marker}` });
  // a second contact of A: the merge routes name two
  const contact2 = await createContact(t, { name: `Contact ${marker} 2` });
  const queue = await createQueue(t, { name: `Queue ${marker}` });
  const user = await createUser(a, { name: `User ${marker}`, queueIds: [queue.id] });
  const ticket = await createTicket(t, { contactId: contact.id, whatsappId: whatsapp.id, queueId: queue.id });
  const message = ok(
    await api('POST', `/messages/${ticket.id}`, { token: t, body: { body: `Message ${marker}` } }),
    'message',
  );
  const note = ok(
    await api('POST', '/ticket-notes', {
      token: t,
      body: { note: `Note ${marker}`, ticketId: ticket.id, contactId: contact.id },
    }),
    'note',
  );
  const tag = ok(await api('POST', '/tags', { token: t, body: { name: `Tag ${marker}` } }), 'tag');
  ok(await api('PUT', `/ticket-tags/${ticket.id}/${tag.id}`, { token: t }), 'ticket tag');
  const option = ok(
    await api('POST', '/queue-options', {
      token: t,
      body: { queueId: queue.id, parentId: -1, title: `Option ${marker}`, option: '1' },
    }),
    'option',
  );
  const quickMessage = ok(
    await api('POST', '/quick-messages', {
      token: t,
      body: { shortcode: `qm${marker}`, message: `Quick ${marker}`, geral: true },
    }),
    'quick message',
  );
  const schedule = ok(
    await api('POST', '/schedules', {
      token: t,
      body: {
        body: `Schedule ${marker}`,
        contactId: contact.id,
        sendAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
    }),
    'schedule',
  );
  const chat = ok(
    await api('POST', '/chats', { token: t, body: { title: `Chat ${marker}`, users: [user.id] } }),
    'chat',
  );
  ok(
    await api('POST', `/chats/${chat.id}/messages`, { token: t, body: { message: `Chat message ${marker}` } }),
    'chat message',
  );
  const contactList = ok(
    await api('POST', '/contact-lists', { token: t, body: { name: `List ${marker}` } }),
    'contact list',
  );
  const contactListItem = ok(
    await api('POST', '/contact-list-items', {
      token: t,
      body: { name: `Item ${marker}`, number: '5511977770000', contactListId: contactList.id },
    }),
    'contact list item',
  );
  const campaign = ok(
    await api('POST', '/campaigns', {
      token: t,
      body: {
        name: `Campaign ${marker}`,
        message1: `Hello ${marker}`,
        whatsappId: whatsapp.id,
        contactListId: contactList.id,
      },
    }),
    'campaign',
  );
  const fileList = ok(
    await api('POST', '/files', { token: t, body: { name: `Files ${marker}`, message: `Files ${marker}` } }),
    'file list',
  );
  // the invoice timer bills a trial company whose due date is near (company B's is moved away, so
  // B has no invoice of its own under A's invoice id: ids count per company)
  const superToken = (await login(ADMIN.email, ADMIN.password)).token as string;
  ok(
    await api('PUT', `/companies/${b.companyId}`, {
      token: superToken,
      body: { dueDate: new Date(Date.now() + 90 * 86_400_000).toISOString() },
    }),
    'company B due date',
  );
  await runTimer('invoices');
  const invoice = ok(await api('GET', '/invoices', { token: t }), 'invoices').invoices?.[0];
  if (!invoice) throw new Error('the invoices timer created no invoice for company A');
  // helps are the platform's, shown to every company: no marker in them
  const help = ok(
    await api('POST', '/helps', { token: superToken, body: { title: 'Help iso', description: 'd', video: '' } }),
    'help',
  );
  const prompt = ok(
    await api('POST', '/prompt', {
      token: t,
      body: {
        name: `Prompt ${marker}`,
        prompt: `You answer the customers of ${marker} politely, briefly and in their own language.`,
        apiKey: 'sk-isolation-test-key-1234',
        queueId: queue.id,
      },
    }),
    'prompt',
  );
  const knowledge = ok(
    await api('POST', '/knowledge', {
      token: t,
      body: { title: `Article ${marker}`, body: `The answer of ${marker} to every question.`, tags: [marker] },
    }),
    'knowledge article',
  );
  const customField = ok(
    await api('POST', '/custom-fields', {
      token: t,
      body: { entity: 'contact', name: `Field ${marker}`, type: 'list', options: [marker] },
    }),
    'custom field',
  );
  const segment = ok(
    await api('POST', '/segments', {
      token: t,
      body: { name: `Segment ${marker}`, conditions: [{ type: 'name', op: 'contains', value: marker }] },
    }),
    'segment',
  );
  const automationRule = ok(
    await api('POST', '/automation-rules', {
      token: t,
      body: {
        name: `Rule ${marker}`.slice(0, 80),
        event: { type: 'ticket_created' },
        actions: [{ type: 'add_note', body: marker }],
      },
    }),
    'automation rule',
  );
  const integration = ok(
    await api('POST', '/queueIntegration', {
      token: t,
      body: { type: 'webhook', name: `Hook ${marker}`.slice(0, 50), urlN8N: 'https://hooks.example.test/x' },
    }),
    'integration',
  );
  // a push device of A's user, subscribed at the local fake push service
  const browser = await (await fetch(`${baseUrl()}/@push/subscriptions`, { method: 'POST' })).json();
  const pushDevice = ok(
    await api('POST', '/push/subscriptions', {
      token: user.token,
      body: {
        endpoint: browser.endpoint,
        keys: browser.keys,
        device: `Device ${marker}`,
        preferences: { pendingTicket: true, ticketMessage: true, chatMention: true, slaBreach: true },
      },
    }),
    'push subscription',
  );
  // a question A's AI agent could not answer (written as the agent writes it: functions/lib/knowledge/hand-off.ts)
  const askedAt = new Date().toISOString();
  await table().set(`C#${a.companyId}#KBQ`, `Q#${askedAt}#${String(ticket.id).padStart(10, '0')}`, {
    ticketId: ticket.id,
    question: `Question ${marker}`,
    reason: 'nothing_found',
    createdAt: askedAt,
  });
  Object.assign(ids, {
    unansweredQuestion: `${Date.parse(askedAt)}-${ticket.id}`,
    pushSubscription: pushDevice.id,
    prompt: prompt.id,
    knowledge: knowledge.id,
    customField: customField.id,
    segment: segment.id,
    automationRule: automationRule.id,
    integration: integration.id,
    contactList: contactList.id,
    contactListItem: contactListItem.id,
    campaign: campaign.id,
    fileList: fileList.id,
    invoice: invoice.id,
    help: help.id,
    whatsapp: whatsapp.id,
    contact: contact.id,
    contact2: contact2.id,
    queue: queue.id,
    user: user.id,
    ticket: ticket.id,
    ticketUuid: ticket.uuid,
    message: message.id,
    note: note.id,
    tag: tag.id,
    option: option.id,
    quickMessage: quickMessage.id,
    schedule: schedule.id,
    chat: chat.id,
  });
});

describe('tenant isolation over every route of the manifest', () => {
  it('the manifest has routes with ids to check (the route list is read, not typed in)', () => {
    expect(idRoutes.length).toBeGreaterThan(30);
    expect(idRoutes).toContain('GET /tickets/{id}');
  });

  it.each(protectedRoutes)('%s refuses a call without a session (401)', async (route) => {
    const { method } = splitRouteKey(route as RouteKey);
    const path = paramsOf(route).length
      ? splitRouteKey(route as RouteKey).path.replace(/\{\w+\}/g, '1')
      : splitRouteKey(route as RouteKey).path;
    const res = await api(method, path);
    expect(res.status).toBe(401);
  });

  it.each(idRoutes)("%s with company A's ids answers 404 to company B's admin", async (route) => {
    const { method } = splitRouteKey(route as RouteKey);
    const path = fill(route);
    const res = await api(method, path, { token: b.adminToken, body: BODIES[route]?.() });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(404);
    expect(JSON.stringify(res.body ?? '')).not.toContain(marker);
  });

  it.each([...SUPER_ONLY])(
    "%s is refused to company B's admin (403, super users only) and shows nothing",
    async (route) => {
      const { method } = splitRouteKey(route as RouteKey);
      const path = fill(route);
      const res = await api(method, path, { token: b.adminToken, body: BODIES[route]?.() });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(403);
      expect(JSON.stringify(res.body ?? '')).not.toContain(marker);
    },
  );

  it.each(listRoutes)('%s shows company B nothing of company A', async (route) => {
    const { path } = splitRouteKey(route as RouteKey);
    // lists that take ids in the query are asked with A's ids
    const query = new URLSearchParams({
      companyId: String(a.companyId),
      queueId: String(ids.queue),
      ticketId: String(ids.ticket),
      contactId: String(ids.contact),
      userId: String(ids.user),
      showAll: 'true',
    });
    const res = await api('GET', `${path}?${query}`, { token: b.adminToken });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    expect(JSON.stringify(res.body ?? '')).not.toContain(marker);
  });

  it("company B's own lists hold only B's records (spot checks)", async () => {
    const users = await api('GET', '/users/list', { token: b.adminToken });
    expect(users.body.map((u: any) => u.companyId)).toEqual([b.companyId]);
    expect((await api('GET', '/queue', { token: b.adminToken })).body).toEqual([]);
    expect((await api('GET', '/quick-messages', { token: b.adminToken })).body.records).toEqual([]);
    expect((await api('GET', '/schedules', { token: b.adminToken })).body.schedules).toEqual([]);
    expect((await api('GET', '/whatsapp', { token: b.adminToken })).body).toEqual([]);
    expect((await api('GET', '/tags/list', { token: b.adminToken })).body).toEqual([]);
    expect((await api('GET', '/contacts/list', { token: b.adminToken })).body).toEqual([]);
    expect((await api('GET', '/tickets?showAll=true&status=open', { token: b.adminToken })).body.tickets).toEqual([]);
  });

  it("creations that point at company A's records are refused (404) and create nothing", async () => {
    const t = b.adminToken;
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const attempts: [string, string, unknown][] = [
      ['POST', '/tickets', { contactId: ids.contact, whatsappId: ids.whatsapp, status: 'open' }],
      ['POST', '/schedules', { body: 'Hello there', contactId: ids.contact, sendAt: tomorrow }],
      ['POST', '/queue-options', { queueId: ids.queue, parentId: -1, title: 'X' }],
      ['POST', '/ticket-notes', { note: 'intrusion', ticketId: ids.ticket, contactId: ids.contact }],
      ['POST', '/tags/sync', { ticketId: ids.ticket, tags: [ids.tag] }],
    ];
    for (const [method, path, body] of attempts) {
      const res = await api(method, path, { token: t, body });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(404);
    }
    const user = await api('POST', '/users', {
      token: t,
      body: { name: 'Intruder', email: `x-${marker}@test.dev`, password: 'secret123', queueIds: [ids.queue] },
    });
    expect(user.status).toBe(400);
  });

  it("company A's records are untouched after company B's attempts", async () => {
    const t = a.adminToken;
    expect((await api('GET', `/users/${ids.user}`, { token: t })).body.name).toBe(`User ${marker}`);
    expect((await api('GET', `/queue/${ids.queue}`, { token: t })).body.name).toBe(`Queue ${marker}`);
    expect((await api('GET', `/contacts/${ids.contact}`, { token: t })).body.name).toBe(`Contact ${marker}`);
    expect((await api('GET', `/whatsapp/${ids.whatsapp}`, { token: t })).body.name).toBe(`Line ${marker}`);
    expect((await api('GET', `/tags/${ids.tag}`, { token: t })).body.name).toBe(`Tag ${marker}`);
    expect((await api('GET', `/quick-messages/${ids.quickMessage}`, { token: t })).body.message).toBe(
      `Quick ${marker}`,
    );
    expect((await api('GET', `/schedules/${ids.schedule}`, { token: t })).body.body).toBe(`Schedule ${marker}`);
    const ticket = (await api('GET', `/tickets/${ids.ticket}`, { token: t })).body;
    expect(ticket.status).toBe('open');
    expect(ticket.tags.map((x: any) => x.id)).toEqual([ids.tag]);
    const options = (await api('GET', `/queue-options?queueId=${ids.queue}&parentId=-1`, { token: t })).body;
    expect(options.map((o: any) => o.title)).toEqual([`Option ${marker}`]);
    const notes = (await api('GET', `/ticket-notes/list?ticketId=${ids.ticket}&contactId=${ids.contact}`, { token: t }))
      .body;
    expect(JSON.stringify(notes)).toContain(`Note ${marker}`);
    const hours = (await api('GET', `/companies/${a.companyId}/schedules`, { token: t })).body.schedules;
    expect(hours).toHaveLength(7);
  });
});
