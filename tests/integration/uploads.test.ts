import { describe, it, expect } from 'vitest';
import { api, newCompany, type TestCompany } from './helpers';
import { createContact, createTicket, createWhatsapp } from './fixtures';

const PNG = Buffer.from('\x89PNG\r\n\x1a\nrest of a png', 'latin1');
const HTML = Buffer.from('<!doctype html><script>alert(document.cookie)</script>');

async function ticketOf(co: TestCompany) {
  const w = await createWhatsapp(co);
  const contact = await createContact(co.adminToken);
  return createTicket(co.adminToken, { contactId: contact.id, whatsappId: w.id });
}

/** Posts a file to a presigned POST the way the browser does: the policy fields, then the file. */
async function postToStorage(
  ticket: { url: string; fields: Record<string, string> },
  file: Buffer<ArrayBuffer>,
  overrides: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...ticket.fields, ...overrides })) form.append(name, value);
  form.append('file', new Blob([file]), 'upload');
  return fetch(ticket.url, { method: 'POST', body: form });
}

const sendByKey = (co: TestCompany, ticketId: number, media: Record<string, unknown>) =>
  api('POST', `/messages/${ticketId}`, { token: co.adminToken, body: { body: 'file', media } });

describe('uploads', () => {
  it('POST /uploads signs a POST whose policy fixes the type and the size range; the sent message takes the stored type, not the claimed one', async () => {
    const co = await newCompany('up-post');
    const ticket = await ticketOf(co);
    const upload = await api('POST', '/uploads', {
      token: co.adminToken,
      body: { fileName: 'photo one.png', contentType: 'image/png', size: PNG.length },
    });
    expect(upload.status).toBe(201);
    expect(upload.body).toMatchObject({ mimetype: 'image/png', maxBytes: 16 * 1024 * 1024 });
    expect(upload.body.key).toMatch(new RegExp(`^company${co.companyId}/media/.+-photo_one\\.png$`));
    expect(upload.body.fields).toMatchObject({ key: upload.body.key, 'Content-Type': 'image/png' });
    const policy = JSON.parse(Buffer.from(upload.body.fields.Policy, 'base64').toString('utf8'));
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['content-length-range', 1, 16 * 1024 * 1024],
        ['eq', '$Content-Type', 'image/png'],
      ]),
    );
    expect((await postToStorage(upload.body, PNG)).ok).toBe(true);

    const sent = await sendByKey(co, ticket.id, { key: upload.body.key, mimetype: 'text/html', fileName: 'photo.png' });
    expect(sent.status).toBe(201);
    expect(sent.body.mediaType).toBe('image');
    const download = await fetch(sent.body.mediaUrl);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('content-disposition')).toBeNull();
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG);
  });

  it('active content and unlisted types are refused with ERR_UPLOAD_TYPE_NOT_ALLOWED (415), an oversized file with ERR_PAYLOAD_TOO_LARGE (413)', async () => {
    const co = await newCompany('up-refuse');
    for (const [fileName, contentType] of [
      ['page.html', 'text/html'],
      ['logo.svg', 'image/svg+xml'],
      ['feed.xml', 'application/xml'],
      ['app.js', 'text/javascript'],
      ['setup.exe', 'application/x-msdownload'],
      ['setup.exe', 'application/octet-stream'],
      ['setup.exe', ''],
    ]) {
      const res = await api('POST', '/uploads', { token: co.adminToken, body: { fileName, contentType } });
      expect(res.status, `${fileName} ${contentType}`).toBe(415);
      expect(res.body.error).toBe('ERR_UPLOAD_TYPE_NOT_ALLOWED');
    }
    // a generic type is resolved from the listed extension
    const docx = await api('POST', '/uploads', {
      token: co.adminToken,
      body: { fileName: 'contract.docx', contentType: 'application/octet-stream' },
    });
    expect(docx.body.mimetype).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const big = await api('POST', '/uploads', {
      token: co.adminToken,
      body: { fileName: 'big.png', contentType: 'image/png', size: 16 * 1024 * 1024 + 1 },
    });
    expect(big.status).toBe(413);
    expect(big.body.error).toBe('ERR_PAYLOAD_TOO_LARGE');
  });

  it('multipart sends are sniffed: html claimed as png and an executable claimed as pdf are refused, and nothing is sent', async () => {
    const co = await newCompany('up-multi');
    const ticket = await ticketOf(co);
    for (const [content, type, name] of [
      [HTML, 'image/png', 'cat.png'],
      [Buffer.from('MZ\x90\x00 windows executable'), 'application/pdf', 'invoice.pdf'],
    ] as const) {
      const form = new FormData();
      form.append('medias', new Blob([PNG], { type: 'image/png' }), 'fine.png');
      form.append('medias', new Blob([content], { type }), name);
      const res = await api('POST', `/messages/${ticket.id}`, { token: co.adminToken, body: form });
      expect(res.status, name).toBe(415);
      expect(res.body).toMatchObject({ error: 'ERR_UPLOAD_TYPE_NOT_ALLOWED', details: { reason: 'content' } });
    }
    const listed = await api('GET', `/messages/${ticket.id}`, { token: co.adminToken });
    expect(listed.body.messages).toEqual([]);
  });

  it('an object posted with another type or content than the signed one is refused when sent by key, and deleted', async () => {
    const co = await newCompany('up-swap');
    const ticket = await ticketOf(co);
    // the local emulator does not enforce the POST policy: the send re-checks the stored object
    const swappedType = (
      await api('POST', '/uploads', { token: co.adminToken, body: { fileName: 'a.png', contentType: 'image/png' } })
    ).body;
    expect((await postToStorage(swappedType, HTML, { 'Content-Type': 'text/html' })).ok).toBe(true);
    const refused = await sendByKey(co, ticket.id, { key: swappedType.key, mimetype: 'image/png', fileName: 'a.png' });
    expect(refused.status).toBe(415);
    expect(refused.body.error).toBe('ERR_UPLOAD_TYPE_NOT_ALLOWED');
    const again = await sendByKey(co, ticket.id, { key: swappedType.key, mimetype: 'image/png', fileName: 'a.png' });
    expect(again.status).toBe(400);
    expect(again.body.details[0]).toMatchObject({ path: ['media', 'key'], message: 'not uploaded' });

    const swappedContent = (
      await api('POST', '/uploads', { token: co.adminToken, body: { fileName: 'b.png', contentType: 'image/png' } })
    ).body;
    await postToStorage(swappedContent, HTML);
    const html = await sendByKey(co, ticket.id, { key: swappedContent.key, mimetype: 'image/png', fileName: 'b.png' });
    expect(html.status).toBe(415);
    expect((await api('GET', `/messages/${ticket.id}`, { token: co.adminToken })).body.messages).toEqual([]);
  });

  it('a file name with `..` inside is accepted and sanitised; traversal and foreign keys are refused with ERR_NO_PERMISSION', async () => {
    const co = await newCompany('up-names');
    const other = await newCompany('up-names-other');
    const ticket = await ticketOf(co);
    const dots = await api('POST', '/uploads', {
      token: co.adminToken,
      body: { fileName: 'a..b.png', contentType: 'image/png' },
    });
    expect(dots.status).toBe(201);
    expect(dots.body.key).toMatch(new RegExp(`^company${co.companyId}/media/[0-9a-f-]{36}-a\\.b\\.png$`));
    await postToStorage(dots.body, PNG);
    expect(
      (await sendByKey(co, ticket.id, { key: dots.body.key, mimetype: 'image/png', fileName: 'a..b.png' })).status,
    ).toBe(201);
    const climbing = await api('POST', '/uploads', {
      token: co.adminToken,
      body: { fileName: '../../etc/passwd.txt', contentType: 'text/plain' },
    });
    expect(climbing.status).toBe(201);
    expect(climbing.body.key).toMatch(new RegExp(`^company${co.companyId}/media/[0-9a-f-]{36}-etcpasswd\\.txt$`));

    for (const key of [
      `company${co.companyId}/media/../../company${other.companyId}/media/x.png`,
      `company${co.companyId}/../company${other.companyId}/media/x.png`,
      `company${co.companyId}/media/./x.png`,
      `company${co.companyId}//x.png`,
      `/company${co.companyId}/media/x.png`,
      `company${other.companyId}/media/x.png`,
    ]) {
      const res = await sendByKey(co, ticket.id, { key, mimetype: 'image/png', fileName: 'x.png' });
      expect(res.status, key).toBe(403);
      expect(res.body.error).toBe('ERR_NO_PERMISSION');
    }
  });
});
