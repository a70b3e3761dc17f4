import busboy from 'busboy';
import type { HttpEvent } from '../http';
import { AppError } from '../errors';

export interface UploadedFile {
  field: string;
  fileName: string;
  mimetype: string;
  data: Buffer;
}

/** Reads a `multipart/form-data` request body (API Gateway hands it over base64-encoded). */
export function parseMultipart(event: HttpEvent): Promise<{ fields: Record<string, string>; files: UploadedFile[] }> {
  const contentType = event.headers?.['content-type'] ?? event.headers?.['Content-Type'] ?? '';
  if (!contentType.includes('multipart/form-data'))
    throw new AppError('ERR_VALIDATION', 400, [{ path: [], message: 'multipart expected' }]);
  const raw = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'binary');
  return new Promise((done, fail) => {
    const fields: Record<string, string> = {};
    const files: UploadedFile[] = [];
    const parser = busboy({
      headers: { 'content-type': contentType },
      limits: { fileSize: 16 * 1024 * 1024, files: 10 },
    });
    parser.on('field', (name, value) => (fields[name] = value));
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () =>
        files.push({
          field,
          fileName: info.filename || 'file',
          mimetype: info.mimeType || 'application/octet-stream',
          data: Buffer.concat(chunks),
        }),
      );
    });
    parser.on('error', () =>
      fail(new AppError('ERR_VALIDATION', 400, [{ path: [], message: 'invalid multipart body' }])),
    );
    parser.on('close', () => done({ fields, files }));
    parser.end(raw);
  });
}
