import { describe, it, expect } from 'vitest';
import { api, newCompany, realtimeClient, runTimer, table, usesTimers, type TestCompany } from './helpers';
import { createContact, createTicket, createUser, createWhatsapp, randomNumber } from './fixtures';
import { eventually, phone } from './whatsapp-sim';
import { pad } from '../../functions/lib/keys';

usesTimers('campaigns');

function ok<T = any>(res: { status: number; body: any }, expected: number, what: string): T {
  if (res.status !== expected) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

const define = async (co: TestCompany, body: Record<string, unknown>) =>
  ok(await api('POST', '/custom-fields', { token: co.adminToken, body }), 201, `define ${JSON.stringify(body)}`);

const stored = (co: TestCompany) => table().query(`C#${co.companyId}#CFIELDS`);

/** One field of each type for contacts. */
async function allTypes(co: TestCompany) {
  return {
    plan: await define(co, { entity: 'contact', name: 'Plano', type: 'list', options: ['Bronze', 'Ouro'] }),
    order: await define(co, { entity: 'contact', name: 'Pedido', key: 'order_no', type: 'text' }),
    seats: await define(co, { entity: 'contact', name: 'Licenças', type: 'number' }),
    since: await define(co, { entity: 'contact', name: 'Cliente desde', type: 'date' }),
    vip: await define(co, { entity: 'contact', name: 'VIP', type: 'checkbox' }),
    site: await define(co, { entity: 'contact', name: 'Site', type: 'link' }),
  };
}

describe('custom fields: definitions', () => {
  it('admins create, change and delete them: the answer, the stored items, the event to the company', async () => {
    const co = await newCompany('cf-crud');
    const agent = await createUser(co);
    const agents = await realtimeClient(agent.token);
    const event = `company-${co.companyId}-customField`;

    const plan = await define(co, {
      entity: 'contact',
      name: 'Plano do cliente',
      type: 'list',
      options: ['Bronze', 'Ouro'],
    });
    expect(plan).toMatchObject({
      companyId: co.companyId,
      entity: 'contact',
      key: 'plano_do_cliente',
      name: 'Plano do cliente',
      type: 'list',
      options: ['Bronze', 'Ouro'],
      required: false,
    });
    const onCreate = await agents.waitFor((e) => e.event === event && e.data.action === 'create');
    expect(onCreate.data.field).toEqual(plan);
    let items = await stored(co);
    expect(items.find((i) => i.sk === `FIELD#${pad(plan.id)}`)).toMatchObject({
      key: 'plano_do_cliente',
      type: 'list',
    });
    expect(items.find((i) => i.sk === 'KEY#contact#plano_do_cliente')).toMatchObject({ fieldId: plan.id });

    // the same key on the same entity is taken; on tickets it is another field
    const again = await api('POST', '/custom-fields', {
      token: co.adminToken,
      body: { entity: 'contact', name: 'Plano do cliente', type: 'text' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'ERR_CUSTOM_FIELD_KEY_TAKEN', details: { key: 'plano_do_cliente' } });
    const onTicket = await define(co, { entity: 'ticket', name: 'Plano do cliente', type: 'text', required: true });
    expect(onTicket.key).toBe('plano_do_cliente');

    const listed = ok(await api('GET', '/custom-fields?entity=contact', { token: agent.token }), 200, 'list');
    expect(listed).toEqual([plan]);
    expect(ok(await api('GET', '/custom-fields', { token: agent.token }), 200, 'all')).toHaveLength(2);

    const changed = ok(
      await api('PUT', `/custom-fields/${plan.id}`, {
        token: co.adminToken,
        body: { name: 'Plano', options: ['Bronze', 'Prata', 'Ouro'], required: true, order: 3 },
      }),
      200,
      'update',
    );
    expect(changed).toMatchObject({
      key: 'plano_do_cliente',
      name: 'Plano',
      options: ['Bronze', 'Prata', 'Ouro'],
      required: true,
      order: 3,
    });
    const onUpdate = await agents.waitFor((e) => e.event === event && e.data.action === 'update');
    expect(onUpdate.data.field).toMatchObject({ id: plan.id, name: 'Plano' });
    expect((await table().get(`C#${co.companyId}#CFIELDS`, `FIELD#${pad(plan.id)}`))!.options).toEqual([
      'Bronze',
      'Prata',
      'Ouro',
    ]);
    // key and type never change; options belong to lists
    for (const body of [{ key: 'other' }, { type: 'text' }]) {
      const refused = await api('PUT', `/custom-fields/${plan.id}`, { token: co.adminToken, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error).toBe('ERR_VALIDATION');
    }
    const notList = await api('PUT', `/custom-fields/${onTicket.id}`, {
      token: co.adminToken,
      body: { options: ['a'] },
    });
    expect(notList.body).toMatchObject({ error: 'ERR_VALIDATION', details: [{ path: ['options'] }] });

    ok(await api('DELETE', `/custom-fields/${plan.id}`, { token: co.adminToken }), 200, 'delete');
    await agents.waitFor((e) => e.event === event && e.data.action === 'delete' && e.data.fieldId === plan.id);
    items = await stored(co);
    expect(items.map((i) => i.sk).sort()).toEqual([`FIELD#${pad(onTicket.id)}`, 'KEY#ticket#plano_do_cliente']);
    expect((await api('DELETE', `/custom-fields/${plan.id}`, { token: co.adminToken })).status).toBe(404);
    // the key is free again
    await define(co, { entity: 'contact', name: 'Plano do cliente', type: 'text' });
    agents.close();
  });

  it('a list needs options, a key is lowercase letters, digits and _, and other types take no options (ERR_VALIDATION)', async () => {
    const co = await newCompany('cf-shape');
    for (const [body, path] of [
      [{ entity: 'contact', name: 'Plano', type: 'list' }, ['options']],
      [{ entity: 'contact', name: 'Plano', type: 'list', options: ['a', 'a'] }, ['options']],
      [{ entity: 'contact', name: 'Nota', type: 'text', options: ['a'] }, ['options']],
      [{ entity: 'contact', name: 'Nota', type: 'text', key: 'Nota Fiscal' }, ['key']],
      [{ entity: 'contact', name: '', type: 'text' }, ['name']],
      [{ entity: 'lead', name: 'Nota', type: 'text' }, ['entity']],
      [{ entity: 'contact', name: 'Nota', type: 'color' }, ['type']],
    ] as const) {
      const res = await api('POST', '/custom-fields', { token: co.adminToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe('ERR_VALIDATION');
      expect(
        res.body.details.map((d: any) => d.path),
        JSON.stringify(body),
      ).toContainEqual(path);
    }
    expect(await stored(co)).toEqual([]);
  });

  it('only admins define fields (ERR_NO_PERMISSION); attendants read them', async () => {
    const co = await newCompany('cf-admin');
    const agent = await createUser(co);
    const field = await define(co, { entity: 'contact', name: 'Pedido', type: 'text' });
    const attempts = [
      ['POST', '/custom-fields', { entity: 'contact', name: 'Outro', type: 'text' }],
      ['PUT', `/custom-fields/${field.id}`, { name: 'Mudado' }],
      ['DELETE', `/custom-fields/${field.id}`, undefined],
    ] as const;
    for (const [method, path, body] of attempts) {
      const res = await api(method, path, { token: agent.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
    expect((await stored(co)).filter((i) => (i.sk as string).startsWith('FIELD#'))).toEqual([
      expect.objectContaining({ name: 'Pedido' }),
    ]);
    expect(ok(await api('GET', '/custom-fields', { token: agent.token }), 200, 'read')).toEqual([field]);
  });
});

describe('custom fields: values', () => {
  it('each type keeps only its values; a refused value names its field (ERR_VALIDATION) and changes nothing', async () => {
    const co = await newCompany('cf-types');
    await allTypes(co);
    const contact = await createContact(co.adminToken);
    const put = (customFields: Record<string, unknown>) =>
      api('PUT', `/contacts/${contact.id}/custom-fields`, { token: co.adminToken, body: { customFields } });

    const bad: [string, unknown][] = [
      ['plano', 'Platina'],
      ['plano', 1],
      ['order_no', 12],
      ['order_no', 'x'.repeat(1001)],
      ['licencas', 'doze'],
      ['licencas', true],
      ['cliente_desde', '2025-02-30'],
      ['cliente_desde', '31/12/2025'],
      ['vip', 'sim'],
      ['site', 'javascript:alert(1)'],
      ['site', 'example.com'],
      ['nope', 'x'],
    ];
    for (const [key, value] of bad) {
      const res = await put({ [key]: value });
      expect(res.status, `${key}=${JSON.stringify(value)}`).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', details: [{ path: ['customFields', key] }] });
    }
    expect((await table().get(`C#${co.companyId}`, `CONTACT#${pad(contact.id)}`))!.customFields).toBeUndefined();

    const good = {
      plano: 'Ouro',
      order_no: '  A-1234 ',
      licencas: '12,5',
      cliente_desde: '2024-02-29',
      vip: true,
      site: 'https://loja.example.com/cliente/1',
    };
    const saved = ok(await put(good), 200, 'good values');
    const expected = {
      plano: 'Ouro',
      order_no: 'A-1234',
      licencas: 12.5,
      cliente_desde: '2024-02-29',
      vip: true,
      site: 'https://loja.example.com/cliente/1',
    };
    expect(saved.customFields).toEqual(expected);
    expect((await table().get(`C#${co.companyId}`, `CONTACT#${pad(contact.id)}`))!.customFields).toEqual(expected);
    // one bad value among good ones: nothing of the request is kept
    const mixed = await put({ plano: 'Bronze', licencas: 'muitas' });
    expect(mixed.body.details).toEqual([{ path: ['customFields', 'licencas'], message: 'invalid' }]);
    expect((await api('GET', `/contacts/${contact.id}`, { token: co.adminToken })).body.customFields.plano).toBe(
      'Ouro',
    );
    // null clears a value; a required field cannot be cleared
    const cleared = ok(await put({ site: null, order_no: '' }), 200, 'clear');
    expect(cleared.customFields).toEqual({ plano: 'Ouro', licencas: 12.5, cliente_desde: '2024-02-29', vip: true });
  });

  it('values through the contact routes: create and update check them; the contact event carries them', async () => {
    const co = await newCompany('cf-contact');
    const fields = await allTypes(co);
    await api('PUT', `/custom-fields/${fields.plan.id}`, { token: co.adminToken, body: { required: true } });
    const agent = await createUser(co);
    const watcher = await realtimeClient(agent.token);

    const refused = await api('POST', '/contacts', {
      token: agent.token,
      body: { name: 'Maria', number: randomNumber(), customFields: { licencas: 'x' } },
    });
    expect(refused.body).toMatchObject({ error: 'ERR_VALIDATION', details: [{ path: ['customFields', 'licencas'] }] });
    const created = await createContact(agent.token, {
      name: 'Maria Souza',
      customFields: { plano: 'Bronze', vip: false },
    });
    expect(created.customFields).toEqual({ plano: 'Bronze', vip: false });

    const updated = ok(
      await api('PUT', `/contacts/${created.id}`, {
        token: agent.token,
        body: { name: 'Maria S.', customFields: { licencas: 3 } },
      }),
      200,
      'update',
    );
    expect(updated).toMatchObject({ name: 'Maria S.', customFields: { plano: 'Bronze', vip: false, licencas: 3 } });
    const event = await watcher.waitFor(
      (e) =>
        e.event === `company-${co.companyId}-contact` && e.data.action === 'update' && e.data.contact.id === created.id,
    );
    expect(event.data.contact.customFields).toEqual({ plano: 'Bronze', vip: false, licencas: 3 });
    const required = await api('PUT', `/contacts/${created.id}`, {
      token: agent.token,
      body: { customFields: { plano: null } },
    });
    expect(required.body).toMatchObject({
      error: 'ERR_VALIDATION',
      details: [{ path: ['customFields', 'plano'], message: 'required' }],
    });
    // an edit that does not name the fields leaves them as they are
    const renamed = ok(
      await api('PUT', `/contacts/${created.id}`, { token: agent.token, body: { name: 'Maria' } }),
      200,
      'rename',
    );
    expect(renamed.customFields).toEqual({ plano: 'Bronze', vip: false, licencas: 3 });
    watcher.close();
  });

  it('the contacts list filters by a field value, read as its type, beside the name search (one Query with a filter)', async () => {
    const co = await newCompany('cf-filter');
    await allTypes(co);
    const gold = await createContact(co.adminToken, { name: 'Ana Ouro', customFields: { plano: 'Ouro', vip: true } });
    const bronze = await createContact(co.adminToken, { name: 'Ana Bronze', customFields: { plano: 'Bronze' } });
    const none = await createContact(co.adminToken, { name: 'Beto Sem' });
    const list = async (query: string) =>
      ok(await api('GET', `/contacts?${query}`, { token: co.adminToken }), 200, query) as {
        contacts: { id: number }[];
        count: number;
      };
    const ids = (r: { contacts: { id: number }[] }) => r.contacts.map((c) => c.id).sort();

    expect(ids(await list('field=plano&fieldValue=ouro'))).toEqual([gold.id]);
    expect((await list('field=plano&fieldValue=Ouro')).count).toBe(1);
    expect(ids(await list('field=plano'))).toEqual([gold.id, bronze.id].sort());
    expect(ids(await list('field=vip&fieldValue=sim'))).toEqual([gold.id]);
    expect(ids(await list('field=plano&fieldValue=Bronze&searchParam=ana'))).toEqual([bronze.id]);
    expect(ids(await list('field=plano&fieldValue=Bronze&searchParam=beto'))).toEqual([]);
    expect(ids(await list(''))).toEqual([gold.id, bronze.id, none.id].sort());
    const unknown = await api('GET', '/contacts?field=nope&fieldValue=x', { token: co.adminToken });
    expect(unknown.body).toMatchObject({ error: 'ERR_VALIDATION', details: [{ path: ['field'] }] });
    const badValue = await api('GET', '/contacts?field=licencas&fieldValue=muitas', { token: co.adminToken });
    expect(badValue.body).toMatchObject({ error: 'ERR_VALIDATION', details: [{ path: ['fieldValue'] }] });
  });

  it('a deleted field leaves its values stored and unread; the contact stays editable', async () => {
    const co = await newCompany('cf-deleted');
    const fields = await allTypes(co);
    const contact = await createContact(co.adminToken, { customFields: { licencas: 7, vip: true } });
    ok(await api('DELETE', `/custom-fields/${fields.seats.id}`, { token: co.adminToken }), 200, 'delete field');
    const after = ok(
      await api('PUT', `/contacts/${contact.id}`, { token: co.adminToken, body: { customFields: { vip: false } } }),
      200,
      'edit after delete',
    );
    expect(after.customFields).toEqual({ licencas: 7, vip: false });
    const gone = await api('PUT', `/contacts/${contact.id}/custom-fields`, {
      token: co.adminToken,
      body: { customFields: { licencas: 8 } },
    });
    expect(gone.body).toMatchObject({
      error: 'ERR_VALIDATION',
      details: [{ path: ['customFields', 'licencas'], message: 'unknown' }],
    });
    expect((await api('GET', `/contacts/${contact.id}`, { token: co.adminToken })).status).toBe(200);
  });

  it('ticket values: set by who may change the ticket, checked by the ticket fields, sent with the ticket event', async () => {
    const co = await newCompany('cf-ticket');
    const whatsapp = await createWhatsapp(co);
    const contact = await createContact(co.adminToken);
    const reason = await define(co, { entity: 'ticket', name: 'Motivo', type: 'list', options: ['Troca', 'Dúvida'] });
    await define(co, { entity: 'ticket', name: 'Valor', type: 'number' });
    await define(co, { entity: 'contact', name: 'Pedido', type: 'text' });
    const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id });
    const watcher = await realtimeClient(co.adminToken);

    const put = (token: string, customFields: Record<string, unknown>) =>
      api('PUT', `/tickets/${ticket.id}/custom-fields`, { token, body: { customFields } });
    // a contact field is not a ticket field
    expect((await put(co.adminToken, { pedido: 'A1' })).body).toMatchObject({
      error: 'ERR_VALIDATION',
      details: [{ path: ['customFields', 'pedido'], message: 'unknown' }],
    });
    expect((await put(co.adminToken, { motivo: 'Outro' })).body.details).toEqual([
      { path: ['customFields', 'motivo'], message: 'invalid' },
    ]);
    const saved = ok(await put(co.adminToken, { motivo: 'Troca', valor: 199.9 }), 200, 'ticket values');
    expect(saved).toMatchObject({ id: ticket.id, customFields: { motivo: 'Troca', valor: 199.9 } });
    expect((await table().get(`C#${co.companyId}`, `TICKET#${pad(ticket.id)}`))!.customFields).toEqual({
      motivo: 'Troca',
      valor: 199.9,
    });
    const event = await watcher.waitFor(
      (e) => e.event === `company-${co.companyId}-ticket` && e.data.ticket?.customFields?.motivo === 'Troca',
    );
    expect(event.data.action).toBe('update');
    expect((await api('GET', `/tickets/${ticket.id}`, { token: co.adminToken })).body.customFields).toEqual({
      motivo: 'Troca',
      valor: 199.9,
    });
    // the soft lock: an attendant who does not hold the ticket changes nothing in it
    const agent = await createUser(co);
    const locked = await put(agent.token, { motivo: 'Dúvida' });
    expect([403, 404]).toContain(locked.status);
    expect((await table().get(`C#${co.companyId}`, `TICKET#${pad(ticket.id)}`))!.customFields.motivo).toBe('Troca');
    void reason;
    watcher.close();
  });

  it("another company's fields and values are unreachable", async () => {
    const co = await newCompany('cf-iso-a');
    const other = await newCompany('cf-iso-b');
    // ids count per company: theirs is their second field, an id this company does not have
    await define(other, { entity: 'ticket', name: 'Primeiro', type: 'text' });
    const theirs = await define(other, { entity: 'contact', name: 'Segredo', type: 'text' });
    const theirContact = await createContact(other.adminToken, { customFields: { segredo: 'x' } });
    const whatsapp = await createWhatsapp(other);
    const theirTicket = await createTicket(other.adminToken, { contactId: theirContact.id, whatsappId: whatsapp.id });
    await define(co, { entity: 'contact', name: 'Segredo', type: 'text' });

    expect(ok(await api('GET', '/custom-fields', { token: co.adminToken }), 200, 'mine')).toEqual([
      expect.objectContaining({ companyId: co.companyId }),
    ]);
    expect(
      (await api('PUT', `/custom-fields/${theirs.id}`, { token: co.adminToken, body: { name: 'Meu' } })).status,
    ).toBe(404);
    expect((await api('DELETE', `/custom-fields/${theirs.id}`, { token: co.adminToken })).status).toBe(404);
    const contactPut = await api('PUT', `/contacts/${theirContact.id}/custom-fields`, {
      token: co.adminToken,
      body: { customFields: { segredo: 'meu' } },
    });
    expect(contactPut.status).toBe(404);
    const ticketPut = await api('PUT', `/tickets/${theirTicket.id}/custom-fields`, {
      token: co.adminToken,
      body: { customFields: {} },
    });
    expect(ticketPut.status).toBe(404);
    expect((await table().get(`C#${other.companyId}#CFIELDS`, `FIELD#${pad(theirs.id)}`))!.name).toBe('Segredo');
    expect((await table().get(`C#${other.companyId}`, `CONTACT#${pad(theirContact.id)}`))!.customFields).toEqual({
      segredo: 'x',
    });
  });
});

describe('custom fields: extra info and message variables', () => {
  it("today's extra info is read as the field of the same name, moves into it on the contact's next field edit, and the rest stays", async () => {
    const co = await newCompany('cf-extra');
    const contact = await createContact(co.adminToken, {
      extraInfo: [
        { name: 'Plano', value: 'Ouro' },
        { name: 'Observação', value: 'prefere e-mail' },
        { name: 'Licenças', value: 'muitas' },
      ],
    });
    await define(co, { entity: 'contact', name: 'Plano', type: 'list', options: ['Bronze', 'Ouro'] });
    await define(co, { entity: 'contact', name: 'Licenças', type: 'number' });
    await define(co, { entity: 'contact', name: 'VIP', type: 'checkbox' });
    // defining fields touches no contact
    const before = (await api('GET', `/contacts/${contact.id}`, { token: co.adminToken })).body;
    expect(before.extraInfo).toHaveLength(3);
    expect(before.customFields).toBeUndefined();

    const edited = ok(
      await api('PUT', `/contacts/${contact.id}/custom-fields`, {
        token: co.adminToken,
        body: { customFields: { vip: true } },
      }),
      200,
      'edit',
    );
    // "Plano" moved into its field; "Licenças" does not fit a number and stays extra info, as does the note
    expect(edited.customFields).toEqual({ plano: 'Ouro', vip: true });
    expect(edited.extraInfo).toEqual([
      { name: 'Observação', value: 'prefere e-mail' },
      { name: 'Licenças', value: 'muitas' },
    ]);
    const row = await table().get(`C#${co.companyId}`, `CONTACT#${pad(contact.id)}`);
    expect(row).toMatchObject({ customFields: { plano: 'Ouro', vip: true } });
    expect(row!.extraInfo).toHaveLength(2);
  });

  it('a chosen quick message is sent with its variables filled for the ticket contact, {{contact.<key>}} included; typed text is sent as written', async () => {
    const co = await newCompany('cf-quick');
    const whatsapp = await createWhatsapp(co);
    await define(co, { entity: 'contact', name: 'Pedido', type: 'text' });
    const contact = await createContact(co.adminToken, { name: 'Carla Dias', customFields: { pedido: 'A-77' } });
    const ticket = await createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id });
    const quick = ok(
      await api('POST', '/quick-messages', {
        token: co.adminToken,
        body: { shortcode: 'pedido', message: 'Oi {{firstName}}, seu pedido {{contact.pedido}} saiu.' },
      }),
      201,
      'quick message',
    );
    const sent = ok(
      await api('POST', `/messages/${ticket.id}`, {
        token: co.adminToken,
        body: { body: quick.message, quickMessageId: quick.id },
      }),
      201,
      'send quick',
    );
    expect(sent.body).toBe('Oi Carla, seu pedido A-77 saiu.');
    const typed = ok(
      await api('POST', `/messages/${ticket.id}`, {
        token: co.adminToken,
        body: { body: 'Digitei {{contact.pedido}}' },
      }),
      201,
      'send typed',
    );
    expect(typed.body).toBe('Digitei {{contact.pedido}}');
    const out = await eventually(async () => {
      const all = await phone(co.companyId, whatsapp.id).outbound();
      return all.length === 2 ? all : undefined;
    });
    expect(out.map((o: any) => o.body)).toEqual(['Oi Carla, seu pedido A-77 saiu.', 'Digitei {{contact.pedido}}']);
  });

  it('{{contact.<key>}} is filled in a campaign message from the contact fields (and from extra info a field claims)', async () => {
    const co = await newCompany('cf-campaign');
    const whatsapp = await createWhatsapp(co);
    await define(co, { entity: 'contact', name: 'Plano', type: 'list', options: ['Bronze', 'Ouro'] });
    await define(co, { entity: 'contact', name: 'Cliente desde', type: 'date' });
    await define(co, { entity: 'contact', name: 'Código', key: 'codigo', type: 'text' });
    const withFields = await createContact(co.adminToken, {
      name: 'Ana Lima',
      customFields: { plano: 'Ouro', cliente_desde: '2023-05-01' },
    });
    const fromExtra = await createContact(co.adminToken, {
      name: 'Bruno Reis',
      extraInfo: [{ name: 'Plano', value: 'Bronze' }],
    });
    const list = ok(
      await api('POST', '/contact-lists', { token: co.adminToken, body: { name: 'Clientes' } }),
      201,
      'list',
    );
    for (const c of [withFields, fromExtra])
      ok(
        await api('POST', '/contact-list-items', {
          token: co.adminToken,
          body: { name: c.name, number: c.number, contactListId: list.id },
        }),
        201,
        'list item',
      );
    const created = ok(
      await api('POST', '/campaigns', {
        token: co.adminToken,
        body: {
          name: 'Renovação',
          message1:
            'Olá {{firstName}}, plano {{contact.plano}} desde {{contact.cliente_desde}}, código [{{contact.codigo}}] {{contact.nada}}',
          whatsappId: whatsapp.id,
          contactListId: list.id,
          scheduledAt: new Date(Date.now() - 1000).toISOString(),
        },
      }),
      201,
      'campaign',
    );
    await runTimer('campaigns');
    const out = await eventually(async () => {
      const sent = (await phone(co.companyId, whatsapp.id).outbound()).filter((o: any) => !o.deleted);
      return sent.length === 2 ? sent : undefined;
    }, 20_000);
    const bodyTo = (n: string) => out.find((o: any) => o.to.startsWith(`${n}@`))?.body;
    expect(bodyTo(withFields.number)).toBe('Olá Ana, plano Ouro desde 01/05/2023, código [] {{contact.nada}}');
    expect(bodyTo(fromExtra.number)).toBe('Olá Bruno, plano Bronze desde , código [] {{contact.nada}}');
    void created;
  });
});
