import { describe, it, expect } from 'vitest';
import { api, newCompany, table, type TestCompany } from './helpers';
import { createContact, createTicket, createUser, createWhatsapp, randomNumber } from './fixtures';
import { pad } from '../../functions/lib/keys';
import { readCsv } from '../csv';
import { contactsCsv, CSV_SEPARATOR } from '../../web/src/contacts/contacts-export';
import { rowsToContacts } from '../../web/src/contacts/contacts-import';

/**
 * Custom fields beyond the drawer (issue 40 item 1): contact fields in the CSV export and the
 * spreadsheet import, the tickets list filtered by a ticket field, and the audit trail of definitions.
 */

function ok<T = any>(res: { status: number; body: any }, expected: number, what: string): T {
  if (res.status !== expected) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

const define = async (co: TestCompany, body: Record<string, unknown>) =>
  ok(await api('POST', '/custom-fields', { token: co.adminToken, body }), 201, `define ${JSON.stringify(body)}`);

const storedContact = async (co: TestCompany, id: number) =>
  (await table().get(`C#${co.companyId}`, `CONTACT#${pad(id)}`))!;

async function contactFields(co: TestCompany) {
  await define(co, { entity: 'contact', name: 'Plano', type: 'list', options: ['Bronze', 'Ouro'] });
  await define(co, { entity: 'contact', name: 'Licenças', type: 'number' });
  await define(co, { entity: 'contact', name: 'Cliente desde', type: 'date' });
  await define(co, { entity: 'contact', name: 'VIP', type: 'checkbox' });
  await define(co, { entity: 'contact', name: 'Pedido', key: 'order_no', type: 'text' });
}

/** Every contact through the export's pages, as the contacts page reads them. */
async function exportAll(token: string) {
  const out: any[] = [];
  let cursor: string | undefined;
  for (;;) {
    const q = new URLSearchParams({ limit: '2', ...(cursor ? { cursor } : { export: 'true' }) });
    const page = ok(await api('GET', `/contacts?${q}`, { token }), 200, 'export page');
    out.push(...page.contacts);
    if (!page.hasMore) return out;
    cursor = page.cursor;
  }
}

describe('custom fields: contacts import and export', () => {
  it('a column per contact field (header = name or key, read loosely) imports its values; a bad value is reported on its line and the rest of the row imports', async () => {
    const co = await newCompany('cf-import');
    await contactFields(co);
    const [n1, n2, n3] = [randomNumber(), randomNumber(), randomNumber()];
    const rows = [
      // as the web app sends them: the other columns under `fields`, headers as the sheet has them
      {
        name: 'Ana',
        number: n1,
        email: '',
        line: 2,
        fields: { plano: 'ouro', ' LICENÇAS ': '12,5', 'Cliente desde': '31/12/2024', vip: 'sim', Pedido: 'A-1' },
      },
      {
        name: 'Bob',
        number: n2,
        email: '',
        line: 3,
        fields: { Plano: 'Platina', Licencas: '3', 'Cliente desde': '2024-02-30' },
      },
      // as an API client may send them: the columns beside name and number; the key as header
      { name: 'Caio', number: n3, order_no: 'C-9', vip: 'não', Extra: 'ignored' },
    ];
    const res = ok(await api('POST', '/contacts/upload', { token: co.adminToken, body: rows }), 200, 'import');
    expect(res.newContacts.map((c: any) => c.contactName)).toEqual(['Ana', 'Bob', 'Caio']);
    expect(res.errorBag).toEqual([
      { line: 3, contactName: 'Bob', error: { message: 'plano: invalid' } },
      { line: 3, contactName: 'Bob', error: { message: 'cliente_desde: invalid' } },
    ]);
    const [ana, bob, caio] = await Promise.all(res.newContacts.map((c: any) => storedContact(co, c.contactId)));
    expect(ana!.customFields).toEqual({
      plano: 'Ouro',
      licencas: 12.5,
      cliente_desde: '2024-12-31',
      vip: true,
      order_no: 'A-1',
    });
    // Bob's good value stays, the refused ones are simply not set
    expect(bob!.customFields).toEqual({ licencas: 3 });
    expect(caio!.customFields).toEqual({ order_no: 'C-9', vip: false });
    // the audit counts rows refused, not values refused
    const trail = ok(await api('GET', '/audit?action=data.imported', { token: co.adminToken }), 200, 'audit');
    expect(trail.entries[0].changes).toMatchObject({ rows: 3, created: 3, refused: 0 });
  });

  it('the export has a column per contact field, extra info included; the file imports back into another company with the same values', async () => {
    const co = await newCompany('cf-export');
    await contactFields(co);
    const fields = ok(await api('GET', '/custom-fields?entity=contact', { token: co.adminToken }), 200, 'fields');
    const a = await createContact(co.adminToken, { name: 'Ana', email: 'ana@x.dev' });
    ok(
      await api('PUT', `/contacts/${a.id}/custom-fields`, {
        token: co.adminToken,
        body: {
          customFields: { plano: 'Ouro', licencas: -2.5, cliente_desde: '2024-02-29', vip: true, order_no: '=1+1' },
        },
      }),
      200,
      'values',
    );
    // a value still kept as extra info under the field's name is exported as the field's value
    await createContact(co.adminToken, { name: 'Bia', extraInfo: [{ name: 'Plano', value: 'bronze' }] });
    await createContact(co.adminToken, { name: 'Caio' });

    const contacts = await exportAll(co.adminToken);
    const csv = readCsv(contactsCsv(contacts, fields), CSV_SEPARATOR);
    expect(csv[0]).toEqual(['name', 'number', 'email', 'Plano', 'Licenças', 'Cliente desde', 'VIP', 'Pedido']);
    const byName = Object.fromEntries(csv.slice(1).map((r) => [r[0], r.slice(3)]));
    expect(byName.Ana).toEqual(['Ouro', '-2.5', '29/02/2024', 'Sim', "'=1+1"]);
    expect(byName.Bia).toEqual(['Bronze', '', '', '', '']);
    expect(byName.Caio).toEqual(['', '', '', '', '']);

    const other = await newCompany('cf-export-in');
    await contactFields(other);
    const sheet = csv.slice(1).map((r) => Object.fromEntries(csv[0]!.map((h, i) => [h, r[i]])));
    const res = ok(
      await api('POST', '/contacts/upload', { token: other.adminToken, body: rowsToContacts(sheet) }),
      200,
      'reimport',
    );
    expect(res.errorBag).toEqual([]);
    const back = ok(await api('GET', '/contacts?searchParam=ana', { token: other.adminToken }), 200, 'ana').contacts[0];
    // the formula guard's apostrophe is part of the text the sheet gives back
    expect(back.customFields).toEqual({
      plano: 'Ouro',
      licencas: -2.5,
      cliente_desde: '2024-02-29',
      vip: true,
      order_no: "'=1+1",
    });
  });
});

describe('custom fields: the tickets list filtered by a ticket field', () => {
  it('GET /tickets?field=&fieldValue= lists the tickets holding the value (or any value); the field must be a ticket field and the value fit it', async () => {
    const co = await newCompany('cf-tickets');
    const whatsapp = await createWhatsapp(co);
    await define(co, { entity: 'ticket', name: 'Motivo', type: 'list', options: ['Troca', 'Dúvida'] });
    await define(co, { entity: 'ticket', name: 'Urgente', type: 'checkbox' });
    await define(co, { entity: 'contact', name: 'Plano', type: 'text' });
    const tickets: { id: number }[] = [];
    for (const name of ['Ana', 'Bia', 'Caio', 'Dora']) {
      const contact = await createContact(co.adminToken, { name });
      tickets.push(await createTicket(co.adminToken, { contactId: contact.id, whatsappId: whatsapp.id }));
    }
    const set = (i: number, customFields: Record<string, unknown>) =>
      api('PUT', `/tickets/${tickets[i]!.id}/custom-fields`, { token: co.adminToken, body: { customFields } });
    ok(await set(0, { motivo: 'Troca', urgente: true }), 200, 'set 0');
    ok(await set(1, { motivo: 'Dúvida' }), 200, 'set 1');
    ok(await set(2, { motivo: 'Troca', urgente: false }), 200, 'set 2');

    const list = async (query: string, token = co.adminToken) =>
      api('GET', `/tickets?status=open&showAll=true&${query}`, { token });
    const ids = async (query: string, token?: string) =>
      ok(await list(query, token), 200, query)
        .tickets.map((t: any) => t.id)
        .sort((x: number, y: number) => x - y);

    expect(await ids('field=motivo&fieldValue=troca')).toEqual([tickets[0]!.id, tickets[2]!.id]);
    expect(await ids('field=motivo')).toEqual([tickets[0]!.id, tickets[1]!.id, tickets[2]!.id]);
    expect(await ids('field=urgente&fieldValue=sim')).toEqual([tickets[0]!.id]);
    expect(await ids('field=urgente&fieldValue=false')).toEqual([tickets[2]!.id]);
    // with the other filters and with a search
    expect(await ids('field=motivo&fieldValue=Troca&searchParam=caio')).toEqual([tickets[2]!.id]);
    // a filtered list carries no count badge (the partition counters count the unfiltered list)
    expect((await list('field=motivo&fieldValue=Troca')).body.count).toBeUndefined();
    // an attendant reads the same filter over the tickets they may see
    const agent = await createUser(co);
    expect(await ids('field=motivo&fieldValue=Troca', agent.token)).toEqual([]);

    const bad = [
      ['field=plano', 'field'],
      ['field=nope', 'field'],
      ['field=motivo&fieldValue=Outro', 'fieldValue'],
      ['field=urgente&fieldValue=talvez', 'fieldValue'],
    ] as const;
    for (const [query, path] of bad) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ error: 'ERR_VALIDATION', details: [{ path: [path] }] });
    }
    // another company's field of the same key is not this company's
    const other = await newCompany('cf-tickets-other');
    await define(other, { entity: 'contact', name: 'Motivo', type: 'text' });
    expect(
      (await api('GET', '/tickets?status=open&showAll=true&field=motivo', { token: other.adminToken })).status,
    ).toBe(400);
  });
});

describe('custom fields: audit trail of definitions', () => {
  it('creating, changing and deleting a field are recorded with who and what changed', async () => {
    const co = await newCompany('cf-audit');
    const field = await define(co, { entity: 'contact', name: 'Plano', type: 'list', options: ['Bronze'] });
    ok(
      await api('PUT', `/custom-fields/${field.id}`, {
        token: co.adminToken,
        body: { name: 'Plano atual', options: ['Bronze', 'Ouro'], required: true },
      }),
      200,
      'update',
    );
    ok(await api('DELETE', `/custom-fields/${field.id}`, { token: co.adminToken }), 200, 'delete');
    const entries = async (action: string) =>
      ok(await api('GET', `/audit?action=${action}`, { token: co.adminToken }), 200, action).entries;

    const [created] = await entries('custom_field.created');
    expect(created).toMatchObject({
      actorId: co.admin.id,
      target: { type: 'customField', id: field.id, name: 'Plano' },
      changes: { entity: 'contact', field: 'plano', type: 'list', options: ['Bronze'] },
    });
    const [updated] = await entries('custom_field.updated');
    expect(updated).toMatchObject({
      target: { type: 'customField', id: field.id, name: 'Plano atual' },
      changes: {
        name: { from: 'Plano', to: 'Plano atual' },
        options: { from: ['Bronze'], to: ['Bronze', 'Ouro'] },
        required: { from: false, to: true },
      },
    });
    expect(updated.changes.order).toBeUndefined();
    const [deleted] = await entries('custom_field.deleted');
    expect(deleted).toMatchObject({
      target: { type: 'customField', id: field.id, name: 'Plano atual' },
      changes: { entity: 'contact', field: 'plano', type: 'list' },
    });
    // another company's trail has none of it
    const other = await newCompany('cf-audit-other');
    expect(
      ok(await api('GET', '/audit?action=custom_field.created', { token: other.adminToken }), 200, 'other').entries,
    ).toEqual([]);
  });
});
