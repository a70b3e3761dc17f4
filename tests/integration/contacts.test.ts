import { describe, it, expect } from 'vitest';
import { api, newCompany, realtimeClient, sleep } from './helpers';
import { createContact, createUser, randomNumber } from './fixtures';
import { expectNoFormulaCell, readCsv } from '../csv';
import { contactsCsv } from '../../web/src/contacts/contacts-export';

describe('contacts', () => {
  it('validation of attendance.md 5: name 2-50, number 8-50 digits, e-mail valid when given', async () => {
    const co = await newCompany('ct1');
    const bad = await api('POST', '/contacts', {
      token: co.adminToken,
      body: { name: 'A', number: '1234567', email: 'nope' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');
    expect(bad.body.details.map((d: any) => d.path[0]).sort()).toEqual(['email', 'name', 'number']);
    const long = await api('POST', '/contacts', {
      token: co.adminToken,
      body: { name: 'x'.repeat(51), number: '1'.repeat(51) },
    });
    expect(long.body.details.map((d: any) => [d.path[0], d.message]).sort()).toEqual([
      ['name', 'long'],
      ['number', 'long'],
    ]);
    const ok = await api('POST', '/contacts', {
      token: co.adminToken,
      body: {
        name: 'Ana Paula',
        number: '+55 (11) 98888-7777',
        email: 'ANA@x.dev',
        extraInfo: [{ name: 'CPF', value: '123' }],
      },
    });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({
      name: 'Ana Paula',
      number: '5511988887777',
      email: 'ana@x.dev',
      extraInfo: [{ name: 'CPF', value: '123' }],
    });
  });

  it('a second contact with the same number in a company is ERR_DUPLICATED_CONTACT (409), also when created at once; other companies may have it', async () => {
    const co = await newCompany('ct2');
    const other = await newCompany('ct2b');
    const number = randomNumber();
    const results = await Promise.all(
      [1, 2, 3].map((i) => api('POST', '/contacts', { token: co.adminToken, body: { name: `Twin ${i}`, number } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body.error).toBe('ERR_DUPLICATED_CONTACT');
    }
    expect(
      (await api('POST', '/contacts', { token: other.adminToken, body: { name: 'Elsewhere', number } })).status,
    ).toBe(201);

    // changing a number moves the guard: the old number is free, a taken one is refused
    const a = await createContact(co.adminToken);
    const taken = await api('PUT', `/contacts/${a.id}`, { token: co.adminToken, body: { number } });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('ERR_DUPLICATED_CONTACT');
    const moved = await api('PUT', `/contacts/${a.id}`, { token: co.adminToken, body: { number: randomNumber() } });
    expect(moved.status).toBe(200);
    expect(
      (await api('POST', '/contacts', { token: co.adminToken, body: { name: 'Reuse', number: a.number } })).status,
    ).toBe(201);
  });

  it('missing or foreign ids are ERR_NO_CONTACT_FOUND (404); delete needs contacts-page:deleteContact', async () => {
    const co = await newCompany('ct3');
    const other = await newCompany('ct3b');
    const contact = await createContact(co.adminToken);
    for (const [method, body] of [['GET'], ['PUT', { name: 'Hacked' }], ['DELETE']] as const) {
      const res = await api(method, `/contacts/${contact.id}`, { token: other.adminToken, body });
      expect(res.status, method).toBe(404);
      expect(res.body.error).toBe('ERR_NO_CONTACT_FOUND');
    }
    const agent = await createUser(co);
    const refused = await api('DELETE', `/contacts/${contact.id}`, { token: agent.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('ERR_NO_PERMISSION');
    expect((await api('DELETE', `/contacts/${contact.id}`, { token: co.adminToken })).status).toBe(200);
    expect((await api('GET', `/contacts/${contact.id}`, { token: co.adminToken })).status).toBe(404);
    // the number is free again
    expect(
      (await api('POST', '/contacts', { token: co.adminToken, body: { name: 'Again', number: contact.number } }))
        .status,
    ).toBe(201);
  });

  it('GET /contacts: name order, name-prefix search (accents ignored), number search, count, cursor paging, date filter', async () => {
    const co = await newCompany('ct4');
    for (const name of ['Maria Clara', 'Márcia Dias', 'Mariana Reis', 'Bruno Alves', 'Carla Maria'])
      await createContact(co.adminToken, { name });
    const special = await createContact(co.adminToken, { name: 'Zeca Number', number: '5599911112222' });

    const all = await api('GET', '/contacts', { token: co.adminToken });
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(6);
    expect(all.body.contacts.map((c: any) => c.name)).toEqual([
      'Bruno Alves',
      'Carla Maria',
      'Márcia Dias',
      'Maria Clara',
      'Mariana Reis',
      'Zeca Number',
    ]);

    const maria = await api('GET', '/contacts?searchParam=MARIA', { token: co.adminToken });
    expect(maria.body.contacts.map((c: any) => c.name)).toEqual(['Maria Clara', 'Mariana Reis']);
    expect(maria.body.count).toBe(2);
    const marc = await api('GET', '/contacts?searchParam=marc', { token: co.adminToken });
    expect(marc.body.contacts.map((c: any) => c.name)).toEqual(['Márcia Dias']);
    const byNumber = await api('GET', '/contacts?searchParam=559991111', { token: co.adminToken });
    expect(byNumber.body.contacts.map((c: any) => c.id)).toEqual([special.id]);

    const p1 = await api('GET', '/contacts?limit=4', { token: co.adminToken });
    expect(p1.body.hasMore).toBe(true);
    const p2 = await api('GET', `/contacts?limit=4&cursor=${encodeURIComponent(p1.body.cursor)}`, {
      token: co.adminToken,
    });
    expect([...p1.body.contacts, ...p2.body.contacts]).toHaveLength(6);
    expect(p2.body.hasMore).toBe(false);

    const today = new Date().toISOString().slice(0, 10);
    expect((await api('GET', `/contacts?date=${today}`, { token: co.adminToken })).body.count).toBe(6);
    expect(
      (await api('GET', '/contacts?dateStart=2001-01-01&dateEnd=2001-12-31', { token: co.adminToken })).body.contacts,
    ).toEqual([]);

    const options = await api('GET', '/contacts/list', { token: co.adminToken });
    expect(options.body).toHaveLength(6);
    expect(options.body[0]).toMatchObject({ id: expect.any(Number), name: 'Bruno Alves', number: expect.any(String) });
  });

  it('a contact named as a formula is exported as text: its CSV cell starts with an apostrophe, read with ; or with ,', async () => {
    const co = await newCompany('ct-csv');
    const name = "=cmd|' /C calc'!A0";
    const created = await api('POST', '/contacts', { token: co.adminToken, body: { name, number: '5511970000501' } });
    expect(created.status).toBe(201);
    // the pages the contacts page reads for its export, through the same CSV builder
    const res = await api('GET', '/contacts?export=true&limit=100', { token: co.adminToken });
    expect(res.status).toBe(200);
    const csv = contactsCsv(res.body.contacts);
    expectNoFormulaCell(csv);
    expect(readCsv(csv, ';')).toEqual([
      ['name', 'number', 'email'],
      [`'${name}`, '5511970000501', ''],
    ]);
  });

  it('POST /contacts/upload: each row becomes a new contact or an error entry', async () => {
    const co = await newCompany('ct5');
    const existing = await createContact(co.adminToken);
    const res = await api('POST', '/contacts/upload', {
      token: co.adminToken,
      body: [
        { name: 'Imported One', number: '5511955550001', email: 'one@x.dev' },
        { Nome: 'Imported Two', Numero: '55 11 95555-0002' },
        { name: 'X', number: '5511955550003' },
        { name: 'Dup', number: existing.number },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.newContacts.map((c: any) => c.contactName)).toEqual(['Imported One', 'Imported Two']);
    expect(res.body.newContacts[0].contactId).toEqual(expect.any(Number));
    expect(res.body.errorBag).toEqual([
      { line: 4, contactName: 'X', error: { message: expect.stringContaining('name') } },
      { line: 5, contactName: 'Dup', error: { message: 'ERR_DUPLICATED_CONTACT' } },
    ]);
  });

  it('a batched import (POST /contacts/upload): duplicates in the file and in the company are listed by line, the stored count is exact, one reload event, at most 5,000 rows', async () => {
    const co = await newCompany('ct-bulk');
    const numberOf = (i: number) => `5531${String(i).padStart(8, '0')}`;
    for (const i of [10, 20, 30]) await createContact(co.adminToken, { number: numberOf(i) });
    const rt = await realtimeClient(co.adminToken);
    const rows: Record<string, unknown>[] = Array.from({ length: 990 }, (_, i) => ({
      name: i === 100 ? 'X' : `Bulk ${i}`,
      number: numberOf(i),
      line: i + 2,
    }));
    // the last ten lines repeat numbers from the top of the file
    for (let i = 0; i < 10; i++) rows.push({ name: `Again ${i}`, number: numberOf(i), line: 992 + i });

    // the speed of 5,000 rows is measured by tests/bench/contacts-import.ts
    const res = await api('POST', '/contacts/upload', { token: co.adminToken, body: rows });
    expect(res.status).toBe(200);
    expect(res.body.newContacts).toHaveLength(986);
    expect(new Set(res.body.newContacts.map((c: any) => c.contactId)).size).toBe(986);
    expect(res.body.errorBag).toHaveLength(14);
    expect(
      res.body.errorBag.filter((e: any) => e.error.message === 'ERR_DUPLICATED_CONTACT').map((e: any) => e.line),
    ).toEqual([12, 22, 32, ...Array.from({ length: 10 }, (_, i) => 992 + i)]);
    expect(res.body.errorBag.find((e: any) => e.line === 102)).toMatchObject({ contactName: 'X' });

    // the usage counter and the contacts actually stored agree: 3 earlier + 986 imported
    const counted = await api('GET', '/contacts?limit=1', { token: co.adminToken });
    const stored = await api('GET', '/contacts?limit=1&dateStart=2000-01-01', { token: co.adminToken });
    expect(counted.body.count).toBe(989);
    expect(stored.body.count).toBe(989);
    // the number guards hold: the same number cannot be created again
    const again = await api('POST', '/contacts', {
      token: co.adminToken,
      body: { name: 'Late', number: numberOf(400) },
    });
    expect(again.body.error).toBe('ERR_DUPLICATED_CONTACT');

    const reload = await rt.waitFor((e) => e.event === `company-${co.companyId}-contact` && e.data.action === 'reload');
    expect(reload.data.count).toBe(986);
    await sleep(300);
    expect(
      rt.events.filter((e) => e.event === `company-${co.companyId}-contact` && e.data.action === 'create'),
    ).toHaveLength(0);
    rt.close();

    const tooMany = await api('POST', '/contacts/upload', {
      token: co.adminToken,
      body: Array.from({ length: 5001 }, (_, i) => ({ name: `Over ${i}`, number: numberOf(10_000 + i) })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toBe('ERR_VALIDATION');
  }, 60_000);

  it('contact events reach the company (create, update, delete) and never another company', async () => {
    const co = await newCompany('ct6');
    const other = await newCompany('ct6b');
    const agent = await createUser(co);
    const ws = await realtimeClient(agent.token);
    const wsOther = await realtimeClient(other.adminToken);
    try {
      const c = await createContact(co.adminToken);
      await ws.waitFor(
        (e) =>
          e.event === `company-${co.companyId}-contact` && e.data.action === 'create' && e.data.contact.id === c.id,
      );
      await api('PUT', `/contacts/${c.id}`, { token: co.adminToken, body: { name: 'Renamed Person' } });
      await ws.waitFor(
        (e) =>
          e.event === `company-${co.companyId}-contact` &&
          e.data.action === 'update' &&
          e.data.contact.name === 'Renamed Person',
      );
      await api('DELETE', `/contacts/${c.id}`, { token: co.adminToken });
      await ws.waitFor(
        (e) => e.event === `company-${co.companyId}-contact` && e.data.action === 'delete' && e.data.contactId === c.id,
      );
      await sleep(200);
      expect(wsOther.events.filter((e) => e.event.includes('contact'))).toHaveLength(0);
    } finally {
      ws.close();
      wsOther.close();
    }
  });
});
