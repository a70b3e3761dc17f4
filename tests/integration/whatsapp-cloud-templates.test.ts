import { describe, it, expect } from 'vitest';
import { api, newCompany, queuesIdle, realtimeClient, table, type TestCompany } from './helpers';
import { eventually } from './whatsapp-sim';
import { createContact, createTicket, createUser } from './fixtures';
import {
  cloudLine,
  conversation,
  customer,
  inbound,
  messagesOf,
  meta,
  sendsTo,
  type CloudLine,
} from './cloud-fixtures';

/**
 * Message templates of Cloud API connections (issue 36, item 5) over HTTP against the local stack:
 * synced from the business account Meta's fake scripts, kept current by its template webhook, and
 * the only messages a ticket outside the 24-hour window can send.
 */

const HOUR = 3_600_000;

const ORDER = {
  name: 'order_update',
  language: 'pt_BR',
  status: 'APPROVED',
  category: 'UTILITY',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}' },
    {
      type: 'BODY',
      text: 'Olá {{1}}, seu pedido {{2}} saiu para entrega. 🚚',
      example: { body_text: [['Maria', '#123']] },
    },
    { type: 'FOOTER', text: 'Loja Exemplo' },
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Ok' }] },
  ],
};
const WELCOME = {
  name: 'welcome_back',
  language: 'es',
  status: 'APPROVED',
  category: 'MARKETING',
  parameter_format: 'NAMED',
  components: [
    {
      type: 'BODY',
      text: 'Hola {{first_name}}, ¿seguimos?',
      example: { body_text_named_params: [{ param_name: 'first_name', example: 'Ana' }] },
    },
  ],
};
const PROMO = {
  name: 'promo_video',
  language: 'pt_BR',
  status: 'APPROVED',
  category: 'MARKETING',
  components: [
    { type: 'HEADER', format: 'VIDEO' },
    { type: 'BODY', text: 'Veja a novidade' },
  ],
};
const DRAFT = {
  name: 'draft_notice',
  language: 'en_US',
  status: 'PENDING',
  category: 'UTILITY',
  components: [{ type: 'BODY', text: 'Soon' }],
};

const templatesOf = async (co: TestCompany, line: { id: number }, token = co.adminToken) =>
  (await api('GET', `/whatsapp/${line.id}/templates`, { token })).body as any[];
const byName = (list: any[], name: string) => list.find((t) => t.name === name);

const ticketOf = async (co: TestCompany, id: number) =>
  (await api('GET', `/tickets/${id}`, { token: co.adminToken })).body as Record<string, any>;
const closeWindow = (co: TestCompany, ticketId: number) =>
  table().set(`C#${co.companyId}`, `TICKET#${String(ticketId).padStart(10, '0')}`, {
    customerMessageAt: new Date(Date.now() - 25 * HOUR).toISOString(),
  });

const sendTemplate = (co: TestCompany, ticketId: number, template: Record<string, unknown>) =>
  api('POST', `/messages/${ticketId}`, { token: co.adminToken, body: { template } });

/** Meta's template webhook exactly as given (entry time included), signed with the number's app secret. */
const templateWebhook = (line: CloudLine, wabaId: string, time: number, value: Record<string, unknown>) =>
  meta('/_deliver', {
    phoneNumberId: line.phoneNumberId,
    raw: JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: wabaId, time, changes: [{ value, field: 'message_template_status_update' }] }],
    }),
  });

describe('templates synced from the business account', () => {
  it('a new cloud connection reads its templates: texts, variables with their examples, what cannot be filled', async () => {
    const co = await newCompany('tplsync');
    const line = await cloudLine(co, { templates: [ORDER, WELCOME, PROMO, DRAFT] });
    const list = await templatesOf(co, line);
    expect(list.map((t) => t.name).sort()).toEqual(['draft_notice', 'order_update', 'promo_video', 'welcome_back']);
    expect(byName(list, 'order_update')).toMatchObject({
      whatsappId: line.id,
      language: 'pt_BR',
      category: 'UTILITY',
      status: 'APPROVED',
      headerFormat: 'TEXT',
      header: 'Pedido {{1}}',
      body: 'Olá {{1}}, seu pedido {{2}} saiu para entrega. 🚚',
      footer: 'Loja Exemplo',
      buttons: ['Ok'],
      parameterFormat: 'positional',
      parameters: [
        { component: 'header', name: '1' },
        { component: 'body', name: '1', example: 'Maria' },
        { component: 'body', name: '2', example: '#123' },
      ],
    });
    expect(byName(list, 'order_update').unsupported).toBeUndefined();
    expect(byName(list, 'welcome_back')).toMatchObject({
      parameterFormat: 'named',
      parameters: [{ component: 'body', name: 'first_name', example: 'Ana' }],
    });
    expect(byName(list, 'promo_video')).toMatchObject({ headerFormat: 'VIDEO', unsupported: 'mediaHeader' });
    expect(byName(list, 'draft_notice').status).toBe('PENDING');
    const connection = (await api('GET', `/whatsapp/${line.id}`, { token: co.adminToken })).body;
    expect(Date.parse(connection.templatesSyncedAt)).toBeGreaterThan(Date.now() - HOUR);
    // attendants read them (the composer's picker); another company never does
    const agent = await createUser(co);
    expect((await templatesOf(co, line, agent.token)).length).toBe(4);
    const other = await newCompany('tplother');
    const foreign = await api('GET', `/whatsapp/${line.id}/templates`, { token: other.adminToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_WAPP_FOUND');
    // a WhatsApp Web connection has none, and cannot sync any
    const web = await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Web line' } });
    expect(await templatesOf(co, web.body)).toEqual([]);
    const sync = await api('POST', `/whatsapp/${web.body.id}/templates/sync`, { token: co.adminToken });
    expect(sync.status).toBe(400);
    expect(sync.body.error).toBe('ERR_TEMPLATES_NEED_CLOUD');
  });

  it('a sync reads every page, stores what changed, drops what Meta no longer has and tells the browsers', async () => {
    const co = await newCompany('tplpages');
    const many = Array.from({ length: 130 }, (_, i) => ({
      ...DRAFT,
      name: `notice_${String(i).padStart(3, '0')}`,
      status: 'APPROVED',
    }));
    const line = await cloudLine(co, { templates: many });
    expect((await templatesOf(co, line)).length).toBe(130);
    // 100 a page: the account's list took two requests
    const listings = (await meta<any[]>('/_requests')).filter((r) =>
      r.path.endsWith(`/${line.created.wabaId}/message_templates`),
    );
    expect(listings.length).toBe(2);

    await meta('/_script', {
      phoneNumberId: line.phoneNumberId,
      templates: [many[0], { ...many[1], status: 'PAUSED' }, ORDER],
    });
    const ws = await realtimeClient(co.adminToken);
    try {
      const res = await api('POST', `/whatsapp/${line.id}/templates/sync`, { token: co.adminToken });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.templates.map((t: any) => t.name).sort()).toEqual(['notice_000', 'notice_001', 'order_update']);
      expect(byName(res.body.templates, 'notice_001').status).toBe('PAUSED');
      const event = await ws.waitFor((e) => e.event === `company-${co.companyId}-whatsappTemplate`);
      expect(event.data).toEqual({ action: 'reload', whatsappId: line.id });
    } finally {
      ws.close();
    }
    expect((await templatesOf(co, line)).length).toBe(3);
    // only admins sync
    const agent = await createUser(co);
    const refused = await api('POST', `/whatsapp/${line.id}/templates/sync`, { token: agent.token });
    expect(refused.status).toBe(403);
  });

  it('a sync the Graph API refuses is ERR_TEMPLATE_SYNC_FAILED with the reason, and keeps the stored templates', async () => {
    const co = await newCompany('tplfail');
    const line = await cloudLine(co, { templates: [ORDER] });
    await meta('/_script', { phoneNumberId: line.phoneNumberId, tokenExpired: true, templates: [] });
    const res = await api('POST', `/whatsapp/${line.id}/templates/sync`, { token: co.adminToken });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ error: 'ERR_TEMPLATE_SYNC_FAILED', details: { reason: 'tokenExpired', code: 190 } });
    expect((await templatesOf(co, line)).map((t) => t.name)).toEqual(['order_update']);
  });

  it('deleting the connection deletes its templates', async () => {
    const co = await newCompany('tpldelete');
    await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Default web', isDefault: true } });
    const line = await cloudLine(co, { templates: [ORDER, WELCOME] });
    expect((await templatesOf(co, line)).length).toBe(2);
    const deleted = await api('DELETE', `/whatsapp/${line.id}`, { token: co.adminToken });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const left = (await table().query(`C#${co.companyId}`)).filter((i) => String(i.sk).startsWith('WTPL#'));
    expect(left).toEqual([]);
  });
});

describe("Meta's template webhook (message_template_status_update)", () => {
  it('a status change reaches the stored template and the browsers; a later event is never undone by an older one', async () => {
    const co = await newCompany('tplhook');
    const line = await cloudLine(co, { templates: [ORDER] });
    const ws = await realtimeClient(co.adminToken);
    try {
      const hook = await meta('/_templateStatus', {
        phoneNumberId: line.phoneNumberId,
        name: 'order_update',
        language: 'pt_BR',
        event: 'PAUSED',
        reason: 'Low quality',
      });
      expect(hook.delivered.status).toBe(200);
      const event = await ws.waitFor(
        (e) => e.event === `company-${co.companyId}-whatsappTemplate` && e.data.action === 'update',
      );
      expect(event.data.template).toMatchObject({ name: 'order_update', status: 'PAUSED', reason: 'Low quality' });
    } finally {
      ws.close();
    }
    expect(byName(await templatesOf(co, line), 'order_update')).toMatchObject({
      status: 'PAUSED',
      reason: 'Low quality',
    });

    // Meta's events out of order: APPROVED sent at t+10 arrives first, PAUSED of t+5 after it
    const wabaId = line.created.wabaId as string;
    const base = Math.floor(Date.now() / 1000) + 60;
    const value = (event: string) => ({
      event,
      message_template_id: 1,
      message_template_name: 'order_update',
      message_template_language: 'pt_BR',
      reason: 'NONE',
    });
    expect((await templateWebhook(line, wabaId, base + 10, value('APPROVED'))).delivered.status).toBe(200);
    await eventually(async () => byName(await templatesOf(co, line), 'order_update').status === 'APPROVED');
    expect(byName(await templatesOf(co, line), 'order_update').reason).toBeUndefined();
    expect((await templateWebhook(line, wabaId, base + 5, value('PAUSED'))).delivered.status).toBe(200);
    await queuesIdle(co.companyId);
    expect(byName(await templatesOf(co, line), 'order_update').status).toBe('APPROVED');
  });

  it('a bad signature changes nothing; a deleted template goes; one never synced is read from the account', async () => {
    const co = await newCompany('tplhook2');
    const line = await cloudLine(co, { templates: [ORDER, WELCOME] });
    const forged = await meta('/_templateStatus', {
      phoneNumberId: line.phoneNumberId,
      name: 'order_update',
      language: 'pt_BR',
      event: 'DISABLED',
      signature: 'wrong',
    });
    expect(forged.delivered.status).toBe(401);
    await queuesIdle(co.companyId);
    expect(byName(await templatesOf(co, line), 'order_update').status).toBe('APPROVED');

    await meta('/_templateStatus', {
      phoneNumberId: line.phoneNumberId,
      name: 'welcome_back',
      language: 'es',
      event: 'DELETED',
    });
    await eventually(async () => !byName(await templatesOf(co, line), 'welcome_back'));

    // made in Meta's manager after the last sync: its first event brings it in
    await meta('/_script', { phoneNumberId: line.phoneNumberId, templates: [ORDER, { ...DRAFT, status: 'PENDING' }] });
    await meta('/_templateStatus', {
      phoneNumberId: line.phoneNumberId,
      name: 'draft_notice',
      language: 'en_US',
      event: 'APPROVED',
    });
    const found = await eventually(async () => byName(await templatesOf(co, line), 'draft_notice'));
    expect(found.status).toBe('APPROVED');
  });

  it("another company's connection of another business account is not touched", async () => {
    const a = await newCompany('tplwabaa');
    const b = await newCompany('tplwabab');
    const lineA = await cloudLine(a, { templates: [ORDER] });
    const lineB = await cloudLine(b, { templates: [ORDER] });
    await meta('/_templateStatus', {
      phoneNumberId: lineA.phoneNumberId,
      name: 'order_update',
      language: 'pt_BR',
      event: 'DISABLED',
    });
    await eventually(async () => byName(await templatesOf(a, lineA), 'order_update').status === 'DISABLED');
    await queuesIdle(b.companyId);
    expect(byName(await templatesOf(b, lineB), 'order_update').status).toBe('APPROVED');
  });
});

describe('sending a template', () => {
  it('outside the window a template goes: its text filled (message variables too), kept on the message, sent as Meta expects', async () => {
    const { co, line, number, ticket } = await conversation('tplsend', { templates: [ORDER, WELCOME] });
    await api('PUT', `/contacts/${(await ticketOf(co, ticket.id)).contactId}`, {
      token: co.adminToken,
      body: { name: 'Joana Prado', number },
    });
    await closeWindow(co, ticket.id);
    const free = await api('POST', `/messages/${ticket.id}`, { token: co.adminToken, body: { body: 'oi?' } });
    expect(free.body.error).toBe('ERR_CLOUD_WINDOW_CLOSED');
    const sent = (await sendsTo(line)).length;

    const res = await sendTemplate(co, ticket.id, {
      name: 'order_update',
      language: 'pt_BR',
      header: { 1: '#778' },
      body: { 1: '{{firstName}}', 2: '#778' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const text = '*Pedido #778*\n\nOlá Joana, seu pedido #778 saiu para entrega. 🚚\n\n_Loja Exemplo_';
    expect(res.body).toMatchObject({
      body: text,
      fromMe: true,
      template: { name: 'order_update', language: 'pt_BR', header: { 1: '#778' }, body: { 1: 'Joana', 2: '#778' } },
    });
    const calls = await eventually(async () => {
      const all = await sendsTo(line);
      return all.length === sent + 1 ? all : undefined;
    });
    expect(calls.at(-1).body).toMatchObject({
      to: number,
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'pt_BR' },
        components: [
          { type: 'header', parameters: [{ type: 'text', text: '#778' }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Joana' },
              { type: 'text', text: '#778' },
            ],
          },
        ],
      },
    });
    const stored = await eventually(async () => {
      const m = (await messagesOf(co, ticket.id)).find((x) => x.id === res.body.id);
      return m?.ack === 1 ? m : undefined;
    });
    expect(stored.wid).toMatch(/^wamid\./);
    expect(stored.body).toBe(text);

    // named parameters travel with their names
    const named = await sendTemplate(co, ticket.id, {
      name: 'welcome_back',
      language: 'es',
      body: { first_name: 'Jo' },
    });
    expect(named.status, JSON.stringify(named.body)).toBe(201);
    expect(named.body.body).toBe('Hola Jo, ¿seguimos?');
    const last = await eventually(async () => {
      const all = await sendsTo(line);
      return all.length === sent + 2 ? all.at(-1) : undefined;
    });
    expect(last.body.template.components).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: 'Jo', parameter_name: 'first_name' }] },
    ]);
  });

  it('a template that is not approved, unknown, fillable only in part or missing a value is refused, nothing stored or sent', async () => {
    const { co, line, ticket } = await conversation('tplrefuse', { templates: [ORDER, PROMO, DRAFT] });
    await closeWindow(co, ticket.id);
    const messages = (await messagesOf(co, ticket.id)).length;
    const sent = (await sendsTo(line)).length;
    const cases: [Record<string, unknown>, number, Record<string, unknown>][] = [
      [{ name: 'nope', language: 'pt_BR' }, 404, { error: 'ERR_TEMPLATE_NOT_FOUND' }],
      [{ name: 'order_update', language: 'en_US' }, 404, { error: 'ERR_TEMPLATE_NOT_FOUND' }],
      [
        { name: 'draft_notice', language: 'en_US' },
        409,
        { error: 'ERR_TEMPLATE_NOT_SENDABLE', details: { status: 'PENDING' } },
      ],
      [
        { name: 'promo_video', language: 'pt_BR' },
        409,
        { error: 'ERR_TEMPLATE_NOT_SENDABLE', details: { status: 'APPROVED', unsupported: 'mediaHeader' } },
      ],
      [
        { name: 'order_update', language: 'pt_BR', header: { 1: 'x' }, body: { 1: 'Ana', 2: '   ' } },
        400,
        { error: 'ERR_VALIDATION' },
      ],
    ];
    for (const [template, status, body] of cases) {
      const res = await sendTemplate(co, ticket.id, template);
      expect(res.status, JSON.stringify({ template, answer: res.body })).toBe(status);
      expect(res.body).toMatchObject(body);
    }
    const missing = await sendTemplate(co, ticket.id, {
      name: 'order_update',
      language: 'pt_BR',
      body: { 1: 'a', 2: 'b' },
    });
    expect(missing.body.details).toEqual([{ path: ['template', 'header', '1'], message: 'required' }]);
    await queuesIdle(co.companyId);
    expect((await messagesOf(co, ticket.id)).length).toBe(messages);
    expect((await sendsTo(line)).length).toBe(sent);
  });

  it('a WhatsApp Web connection has no templates: ERR_TEMPLATES_NEED_CLOUD', async () => {
    const co = await newCompany('tplweb');
    const web = await api('POST', '/whatsapp', { token: co.adminToken, body: { name: 'Web line' } });
    const contact = await createContact(co.adminToken, { number: customer() });
    const t = (await createTicket(co.adminToken, { contactId: contact.id, whatsappId: web.body.id })) as { id: number };
    const res = await sendTemplate(co, t.id, { name: 'order_update', language: 'pt_BR' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_TEMPLATES_NEED_CLOUD');
  });

  it("Meta's refusal of a template (paused since the last sync) shows on the message; a resend sends the same template", async () => {
    const { co, line, number, ticket } = await conversation('tplpaused', { templates: [ORDER] });
    await closeWindow(co, ticket.id);
    // Meta paused it; no webhook came: the product still has it approved
    await meta('/_script', { phoneNumberId: line.phoneNumberId, templates: [{ ...ORDER, status: 'PAUSED' }] });
    const values = { name: 'order_update', language: 'pt_BR', header: { 1: 'A1' }, body: { 1: 'Bia', 2: 'A1' } };
    const res = await sendTemplate(co, ticket.id, values);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const failed = await eventually(async () => {
      const m = (await messagesOf(co, ticket.id)).find((x) => x.id === res.body.id);
      return m?.error ? m : undefined;
    });
    expect(failed).toMatchObject({ error: 'ERR_SENDING_WAPP_MSG', providerError: { code: 132015 } });

    await meta('/_script', { phoneNumberId: line.phoneNumberId, templates: [ORDER] });
    const sent = (await sendsTo(line)).length;
    const again = await api('POST', `/messages/${res.body.id}/resend`, { token: co.adminToken });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.template).toEqual({ ...values, header: { 1: 'A1' }, body: { 1: 'Bia', 2: 'A1' } });
    const call = await eventually(async () => {
      const all = await sendsTo(line);
      return all.length === sent + 1 ? all.at(-1) : undefined;
    });
    expect(call.body).toMatchObject({ to: number, type: 'template', template: { name: 'order_update' } });
    await eventually(async () => {
      const m = (await messagesOf(co, ticket.id)).find((x) => x.id === again.body.id);
      return m?.ack === 1;
    });
  });

  it('the customer writing again opens the window: free text goes again beside templates', async () => {
    const { co, line, number, ticket } = await conversation('tplreopen', { templates: [ORDER] });
    await closeWindow(co, ticket.id);
    await inbound(line, { from: number, text: 'voltei' });
    await eventually(async () => Date.parse((await ticketOf(co, ticket.id)).customerMessageAt) > Date.now() - HOUR);
    const free = await api('POST', `/messages/${ticket.id}`, { token: co.adminToken, body: { body: 'que bom' } });
    expect(free.status).toBe(201);
    const tpl = await sendTemplate(co, ticket.id, {
      name: 'order_update',
      language: 'pt_BR',
      header: { 1: '1' },
      body: { 1: '{{name}}', 2: '1' },
    });
    expect(tpl.status, JSON.stringify(tpl.body)).toBe(201);
  });
});
