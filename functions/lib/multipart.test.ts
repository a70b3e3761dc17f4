import { describe, expect, it } from 'vitest';
import type { HttpEvent } from './http';
import { readMultipart, readMultipartFile } from './multipart';

const BOUNDARY = 'xBOUNDARYx';

function part(name: string, value: string | Buffer, fileName?: string) {
  const disposition = fileName
    ? `form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: image/png`
    : `form-data; name="${name}"`;
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n\r\n`),
    Buffer.from(value),
    Buffer.from('\r\n'),
  ]);
}

function event(body: Buffer, contentType = `multipart/form-data; boundary=${BOUNDARY}`): HttpEvent {
  return {
    headers: { 'content-type': contentType },
    body: body.toString('base64'),
    isBase64Encoded: true,
  } as unknown as HttpEvent;
}

const form = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]);

describe('the multipart reader', () => {
  it('reads fields and files of a well-formed body', async () => {
    const out = await readMultipart(event(form(part('body', 'hello'), part('medias', 'PNGDATA', 'a.png'))));
    expect(out.fields).toEqual({ body: 'hello' });
    expect(out.files).toEqual([
      { field: 'medias', fileName: 'a.png', mimetype: 'image/png', data: Buffer.from('PNGDATA') },
    ]);
  });

  it('fields named like built-in properties are kept as sent, as own fields', async () => {
    const out = await readMultipart(event(form(part('__proto__', 'x'), part('constructor', 'y'))));
    expect(Object.keys(out.fields).sort()).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(out.fields, '__proto__')?.value).toBe('x');
    expect(Object.getPrototypeOf(out.fields)).toBe(Object.prototype);
  });

  it('a body cut in the middle of a file is a 400, not an uncaught stream error', async () => {
    const whole = form(part('medias', 'x'.repeat(1000), 'a.png'));
    await expect(readMultipart(event(whole.subarray(0, 300)))).rejects.toMatchObject({
      code: 'ERR_VALIDATION',
      status: 400,
    });
  });

  it('a multipart content type without a boundary is a 400', async () => {
    await expect(readMultipart(event(form(part('a', 'b')), 'multipart/form-data'))).rejects.toMatchObject({
      code: 'ERR_VALIDATION',
      status: 400,
    });
  });

  it('another content type is a 400', async () => {
    await expect(readMultipart(event(Buffer.from('{}'), 'application/json'))).rejects.toMatchObject({
      code: 'ERR_VALIDATION',
      status: 400,
    });
  });

  it('more files than allowed are refused, not dropped', async () => {
    const files = Array.from({ length: 3 }, (_, i) => part('medias', 'x', `${i}.png`));
    await expect(readMultipart(event(form(...files)), { files: 2, fileBytes: 100 })).rejects.toMatchObject({
      code: 'ERR_VALIDATION',
      details: [expect.objectContaining({ message: 'too many files', max: 2 })],
    });
  });

  it('a file over the limit is refused with 413, not truncated', async () => {
    await expect(
      readMultipart(event(form(part('medias', 'x'.repeat(101), 'a.png'))), { files: 1, fileBytes: 100 }),
    ).rejects.toMatchObject({ code: 'ERR_PAYLOAD_TOO_LARGE', status: 413 });
  });

  it('too many fields are refused', async () => {
    const fields = Array.from({ length: 4 }, (_, i) => part(`f${i}`, 'v'));
    await expect(readMultipart(event(form(...fields)), { files: 1, fileBytes: 100, fields: 3 })).rejects.toMatchObject({
      code: 'ERR_VALIDATION',
    });
  });

  it('a field value over the limit is refused, not cut', async () => {
    await expect(
      readMultipart(event(form(part('body', 'x'.repeat(20)))), { files: 1, fileBytes: 100, fieldBytes: 10 }),
    ).rejects.toMatchObject({ code: 'ERR_PAYLOAD_TOO_LARGE' });
  });

  it('the single-file form wants its file and replaces spaces in the name', async () => {
    const file = await readMultipartFile(event(form(part('file', 'IMG', ' my photo.png'))));
    expect(file.fileName).toBe('my_photo.png');
    await expect(readMultipartFile(event(form(part('other', 'IMG', 'a.png'))))).rejects.toMatchObject({
      code: 'ERR_VALIDATION',
      details: [{ path: ['file'], message: 'required' }],
    });
  });
});
