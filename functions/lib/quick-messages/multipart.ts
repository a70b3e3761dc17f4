import busboy from 'busboy';
import type { HttpEvent } from '../http';
import { AppError } from '../errors';

export interface UploadedFile {
  /** the name the browser gave, spaces turned into underscores (management.md section 9) */
  filename: string;
  mimeType: string;
  data: Buffer;
  fields: Record<string, string>;
}

/** Media that fits a Lambda request; bigger files go to S3 through a presigned URL. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

const invalid = (message: string) => new AppError('ERR_VALIDATION', 400, [{ path: ['file'], message }]);

/** Reads the single file of a `multipart/form-data` request (field `file` unless told otherwise). */
export function readMultipartFile(event: HttpEvent, field = 'file'): Promise<UploadedFile> {
  const contentType = event.headers?.['content-type'] ?? event.headers?.['Content-Type'] ?? '';
  if (!contentType.startsWith('multipart/form-data') || !event.body) return Promise.reject(invalid('required'));
  const raw = Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { 'content-type': contentType }, limits: { files: 1, fileSize: MAX_FILE_BYTES } });
    } catch {
      return reject(invalid('invalid'));
    }
    const fields: Record<string, string> = {};
    let file: Omit<UploadedFile, 'fields'> | undefined;
    let tooLarge = false;
    parser.on('field', (name, value) => {
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== field) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        tooLarge = true;
      });
      stream.on('end', () => {
        file = {
          filename: (info.filename || 'file').trim().replace(/\s+/g, '_'),
          mimeType: info.mimeType,
          data: Buffer.concat(chunks),
        };
      });
    });
    parser.on('error', () => reject(invalid('invalid')));
    parser.on('close', () => {
      if (tooLarge) return reject(new AppError('ERR_PAYLOAD_TOO_LARGE'));
      if (!file?.data.length) return reject(invalid('required'));
      resolve({ ...file, fields });
    });
    parser.end(raw);
  });
}
