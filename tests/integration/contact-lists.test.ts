import { describe, it, expect } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { api, newCompany } from './helpers';

const sheet = (rows: unknown[][], name = 'list.xlsx') => {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Sheet1');
  const bytes = XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer;
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  return form;
};

describe('contact lists', () => {
  it('CRUD of lists and items: contactsCount follows, one item per number (ERR_DUPLICATED_CONTACT), search and paging', async () => {
    const co = await newCompany('cl-crud');
    const list = (await api('POST', '/contact-lists', { token: co.adminToken, body: { name: 'VIP' } })).body;
    expect(list.contactsCount).toBe(0);
    expect((await api('POST', '/contact-lists', { token: co.adminToken, body: { name: 'V' } })).body.error).toBe(
      'ERR_VALIDATION',
    );
    for (let i = 0; i < 3; i++) {
      const res = await api('POST', '/contact-list-items', {
        token: co.adminToken,
        body: { name: `Pessoa ${i}`, number: `551190000000${i}`, contactListId: list.id },
      });
      expect(res.status).toBe(201);
      expect(res.body.isWhatsappValid).toBeNull();
    }
    const dup = await api('POST', '/contact-list-items', {
      token: co.adminToken,
      body: { name: 'Twin', number: '5511900000000', contactListId: list.id },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe('ERR_DUPLICATED_CONTACT');
    const bad = await api('POST', '/contact-list-items', {
      token: co.adminToken,
      body: { name: 'A', number: '123', email: 'x', contactListId: list.id },
    });
    expect(bad.body.details.map((d: any) => d.path[0]).sort()).toEqual(['email', 'name', 'number']);
    expect((await api('GET', `/contact-lists/${list.id}`, { token: co.adminToken })).body.contactsCount).toBe(3);
    const found = (
      await api('GET', `/contact-list-items?contactListId=${list.id}&searchParam=pessoa 1`, { token: co.adminToken })
    ).body;
    expect(found.contacts.map((c: any) => c.name)).toEqual(['Pessoa 1']);
    const page1 = (await api('GET', `/contact-list-items?contactListId=${list.id}&limit=2`, { token: co.adminToken }))
      .body;
    expect(page1.hasMore).toBe(true);
    const page2 = (
      await api(
        'GET',
        `/contact-list-items?contactListId=${list.id}&limit=2&cursor=${encodeURIComponent(page1.cursor)}`,
        { token: co.adminToken },
      )
    ).body;
    expect(page2.contacts).toHaveLength(1);
    const edited = await api('PUT', `/contact-list-items/${page2.contacts[0].id}`, {
      token: co.adminToken,
      body: { number: '5511900000009' },
    });
    expect(edited.body.number).toBe('5511900000009');
    await api('DELETE', `/contact-list-items/${page2.contacts[0].id}`, { token: co.adminToken });
    expect((await api('GET', `/contact-lists/${list.id}`, { token: co.adminToken })).body.contactsCount).toBe(2);
    expect((await api('DELETE', `/contact-lists/${list.id}`, { token: co.adminToken })).status).toBe(200);
    expect((await api('GET', `/contact-lists/${list.id}`, { token: co.adminToken })).status).toBe(404);
  });

  it('import reports bad rows with their spreadsheet line; the sample spreadsheet downloads', async () => {
    const co = await newCompany('cl-import');
    const list = (await api('POST', '/contact-lists', { token: co.adminToken, body: { name: 'Import' } })).body;
    const res = await api('POST', `/contact-lists/${list.id}/upload`, {
      token: co.adminToken,
      body: sheet([
        ['name', 'number', 'email'],
        ['Ana Lima', '(11) 98888-0001', 'ana@example.com'],
        ['B', '5511988880002', ''],
        ['Caio Reis', '12', ''],
        ['Dora Dias', '11988880001', 'not-an-email'],
        ['Eva Melo', '5511988880005', ''],
        ['Eva Twin', '5511988880005', ''],
      ]),
    });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(2);
    expect(res.body.errors.map((e: any) => e.line)).toEqual([3, 4, 5, 7]);
    expect(res.body.errors[3].error).toBe('ERR_DUPLICATED_CONTACT');
    const wrongType = await api('POST', `/contact-lists/${list.id}/upload`, {
      token: co.adminToken,
      body: sheet([['name']], 'list.csv'),
    });
    expect(wrongType.status).toBe(415);
    const sample = (await api('GET', '/contact-lists/sample', { token: co.adminToken })).body;
    const bytes = new Uint8Array(await (await fetch(sample.url)).arrayBuffer());
    const rows = XLSX.utils.sheet_to_json<any[]>(XLSX.read(bytes).Sheets.contacts!, { header: 1 });
    expect(rows[0]).toEqual(['name', 'number', 'email']);
  });

  // 2,000 rows: 20 write batches of 100, more than the 8 the import runs at once, so every path of the
  // batching is taken. The 10,000 rows of issue 11 in one request, every row stored once, are
  // tests/bench/contacts-import.ts (BENCH_TARGET=contact-list BENCH_ROWS=10000), which CI runs
  // (.ci/run, suite import-scale) and which fails when a row is lost or doubled; its time (well
  // inside the 29 s API limit) is in docs/benchmarks.md: a wall-clock bound here would fail whenever
  // the shared test machine is busy.
  it('a large sheet imports in one request, every row stored once', async () => {
    const ROWS = 2_000;
    const co = await newCompany('cl-big');
    const list = (await api('POST', '/contact-lists', { token: co.adminToken, body: { name: 'Big' } })).body;
    const rows: unknown[][] = [['name', 'number']];
    for (let i = 0; i < ROWS; i++) rows.push([`Cliente ${i}`, `55119${String(i).padStart(8, '0')}`]);
    const res = await api('POST', `/contact-lists/${list.id}/upload`, { token: co.adminToken, body: sheet(rows) });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(ROWS);
    expect(res.body.errors).toEqual([]);
    expect((await api('GET', `/contact-lists/${list.id}`, { token: co.adminToken })).body.contactsCount).toBe(ROWS);
  }, 60_000);

  it("another company's lists and items are unreachable", async () => {
    const a = await newCompany('cl-iso-a');
    const b = await newCompany('cl-iso-b');
    const list = (await api('POST', '/contact-lists', { token: a.adminToken, body: { name: 'Mine' } })).body;
    const item = (
      await api('POST', '/contact-list-items', {
        token: a.adminToken,
        body: { name: 'Secret', number: '5511977776666', contactListId: list.id },
      })
    ).body;
    expect((await api('GET', `/contact-list-items/${item.id}`, { token: b.adminToken })).status).toBe(404);
    expect(
      (await api('PUT', `/contact-list-items/${item.id}`, { token: b.adminToken, body: { name: 'Hacked' } })).status,
    ).toBe(404);
    expect(
      (
        await api('POST', '/contact-list-items', {
          token: b.adminToken,
          body: { name: 'Intruder', number: '5511977775555', contactListId: list.id },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await api('POST', `/contact-lists/${list.id}/upload`, {
          token: b.adminToken,
          body: sheet([
            ['name', 'number'],
            ['X Y', '5511977774444'],
          ]),
        })
      ).status,
    ).toBe(404);
    expect((await api('GET', '/contact-lists/list', { token: b.adminToken })).body).toEqual([]);
  });
});
