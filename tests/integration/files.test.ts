import { describe, it, expect } from 'vitest';
import { api, newCompany, realtimeClient, type TestCompany } from './helpers';

/** File lists (management.md "Files"): options with a file each, in S3 under the company prefix. */

const PNG = Buffer.from('\x89PNG\r\n\x1a\nrest of a png', 'latin1');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF', 'latin1');

/** Uploads a file the way the browser does (POST /uploads, then the presigned POST); returns its key. */
async function upload(co: TestCompany, data: Buffer, fileName: string, contentType: string) {
  const ticket = await api('POST', '/uploads', {
    token: co.adminToken,
    body: { fileName, contentType, size: data.length },
  });
  expect(ticket.status).toBe(201);
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.body.fields as Record<string, string>)) form.append(name, value);
  form.append('file', new Blob([new Uint8Array(data)]), fileName);
  const stored = await fetch(ticket.body.url, { method: 'POST', body: form });
  expect(stored.status).toBeLessThan(300);
  return ticket.body.key as string;
}

const newList = (co: TestCompany, body: Record<string, unknown>) =>
  api('POST', '/files', { token: co.adminToken, body });

describe('file lists', () => {
  it('validation of section 5: name of at least 3 characters and a message are required (ERR_VALIDATION)', async () => {
    const co = await newCompany('fl-valid');
    const res = await newList(co, { name: 'ab', options: [] });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('ERR_VALIDATION');
    expect(res.body.details.map((d: any) => d.path[0]).sort()).toEqual(['message', 'name']);
  });

  it('CRUD with options holding uploaded files under the company prefix; a replaced file is deleted; live `file` events', async () => {
    const co = await newCompany('fl-crud');
    const rt = await realtimeClient(co.adminToken);
    await rt.join('joinNotification');
    const pdf = await upload(co, PDF, 'precos.pdf', 'application/pdf');
    const created = await newList(co, {
      name: 'Catálogo',
      message: 'Nossos arquivos',
      options: [{ name: 'Tabela', path: pdf }, { name: 'Sem arquivo' }],
    });
    expect(created.status).toBe(201);
    const list = created.body;
    expect(list.options).toMatchObject([
      { name: 'Tabela', path: pdf, mediaType: 'application/pdf' },
      { name: 'Sem arquivo', path: '' },
    ]);
    expect(pdf.startsWith(`company${co.companyId}/`)).toBe(true);
    expect((await fetch(list.options[0].url)).status).toBe(200);
    await rt.waitFor((e) => e.event.endsWith('file') && e.data.action === 'create' && e.data.fileId === list.id);

    // the second option gets a file; the first one's file is replaced and the old object deleted
    const png = await upload(co, PNG, 'foto.png', 'image/png');
    const newPdf = await upload(co, PDF, 'precos-2.pdf', 'application/pdf');
    const updated = await api('PUT', `/files/${list.id}`, {
      token: co.adminToken,
      body: {
        name: 'Catálogo 2026',
        message: 'Nossos arquivos',
        options: [
          { id: list.options[0].id, name: 'Tabela', path: newPdf },
          { id: list.options[1].id, name: 'Foto', path: png },
        ],
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.options.map((o: any) => [o.id, o.path, o.mediaType])).toEqual([
      [list.options[0].id, newPdf, 'application/pdf'],
      [list.options[1].id, png, 'image/png'],
    ]);
    expect((await fetch(list.options[0].url)).status).toBe(404);
    expect((await api('GET', `/files/${list.id}`, { token: co.adminToken })).body.name).toBe('Catálogo 2026');

    const removed = await api('DELETE', `/files/${list.id}`, { token: co.adminToken });
    expect(removed.status).toBe(200);
    expect((await api('GET', `/files/${list.id}`, { token: co.adminToken })).status).toBe(404);
    for (const o of updated.body.options) expect((await fetch(o.url)).status).toBe(404);
    await rt.waitFor((e) => e.event.endsWith('file') && e.data.action === 'delete' && e.data.fileId === list.id);
    rt.close();
  });

  it("an option cannot point at another company's file nor outside the company prefix (ERR_NO_PERMISSION)", async () => {
    const co = await newCompany('fl-keys-a');
    const other = await newCompany('fl-keys-b');
    const theirs = await upload(other, PDF, 'segredo.pdf', 'application/pdf');
    for (const path of [theirs, `company${co.companyId}/../${theirs}`]) {
      const res = await newList(co, { name: 'Roubo', message: 'x', options: [{ name: 'x', path }] });
      expect(res.status, path).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
  });

  it('paging by cursor for the infinite scroll, and search by name', async () => {
    const co = await newCompany('fl-page');
    for (const name of ['Alfa lista', 'Beta lista', 'Gama lista'])
      await newList(co, { name, message: 'm', options: [] });
    const first = (await api('GET', '/files?limit=2', { token: co.adminToken })).body;
    expect(first.files.length).toBe(2);
    expect(first.hasMore).toBe(true);
    const second = (
      await api('GET', `/files?limit=2&cursor=${encodeURIComponent(first.cursor)}`, { token: co.adminToken })
    ).body;
    expect(second.hasMore).toBe(false);
    expect([...first.files, ...second.files].map((f: any) => f.name).sort()).toEqual([
      'Alfa lista',
      'Beta lista',
      'Gama lista',
    ]);
    const found = (await api('GET', '/files?searchParam=BETA', { token: co.adminToken })).body;
    expect(found.files.map((f: any) => f.name)).toEqual(['Beta lista']);
  });

  it("another company's file list is unreachable: read, change, upload, delete are 404, its list and cursor show nothing", async () => {
    const co = await newCompany('fl-iso-a');
    const other = await newCompany('fl-iso-b');
    const list = (await newList(co, { name: 'Privada', message: 'm', options: [{ name: 'a' }] })).body;
    await newList(co, { name: 'Privada 2', message: 'm', options: [] });
    const body = { name: 'Hacked', message: 'm', options: [] };
    expect((await api('GET', `/files/${list.id}`, { token: other.adminToken })).status).toBe(404);
    expect((await api('PUT', `/files/${list.id}`, { token: other.adminToken, body })).status).toBe(404);
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'x.png');
    expect((await api('POST', `/files/uploadList/${list.id}`, { token: other.adminToken, body: form })).status).toBe(
      404,
    );
    expect((await api('DELETE', `/files/${list.id}`, { token: other.adminToken })).status).toBe(404);
    expect((await api('GET', '/files', { token: other.adminToken })).body.files).toEqual([]);
    const page = (await api('GET', '/files?limit=1', { token: co.adminToken })).body;
    const stolen = await api('GET', `/files?cursor=${encodeURIComponent(page.cursor)}`, { token: other.adminToken });
    expect(stolen.status).toBe(400);
    expect((await api('GET', `/files/${list.id}`, { token: co.adminToken })).body.name).toBe('Privada');
  });
});
