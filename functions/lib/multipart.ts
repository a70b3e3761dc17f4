import busboy from 'busboy';
import { AppError } from './errors';
import type { HttpEvent } from './http';

export interface UploadedFile {
  /** the form field the file came in */
  field: string;
  fileName: string;
  mimetype: string;
  data: Buffer;
}

export interface MultipartLimits {
  /** more files than this is refused, not cut */
  files: number;
  /** a bigger file is refused with 413, not truncated */
  fileBytes: number;
  fields?: number;
  fieldBytes?: number;
}

/** Files sent as messages: up to 10 per request, each within WhatsApp's 16 MB media limit. */
export const MESSAGE_FORM: MultipartLimits = { files: 10, fileBytes: 16 * 1024 * 1024 };
/** Media attached to a quick message or schedule: one file that fits a Lambda request. */
export const SINGLE_FILE_FORM: MultipartLimits = { files: 1, fileBytes: 5 * 1024 * 1024 };

export interface MultipartBody {
  fields: Record<string, string>;
  files: UploadedFile[];
}

const invalid = (message: string, extra: Record<string, unknown> = {}) =>
  new AppError('ERR_VALIDATION', 400, [{ path: [], message, ...extra }]);

const isMultipart = (event: HttpEvent) => /^multipart\/form-data\b/i.test(contentTypeOf(event));

function contentTypeOf(event: HttpEvent) {
  return event.headers?.['content-type'] ?? event.headers?.['Content-Type'] ?? '';
}

/**
 * The one `multipart/form-data` reader (API Gateway hands the body over whole, base64-encoded).
 * Every way a body can be wrong ends in one AppError: a truncated or malformed body, a missing
 * boundary, more files or fields than allowed, a file or field over its size limit. Nothing is
 * dropped or cut silently, and an error event can never escape as an uncaught exception.
 */
export function readMultipart(event: HttpEvent, limits: MultipartLimits = MESSAGE_FORM): Promise<MultipartBody> {
  const contentType = contentTypeOf(event);
  if (!isMultipart(event)) return Promise.reject(invalid('multipart expected'));
  const raw = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'binary');
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (err: AppError) => {
      if (settled) return;
      settled = true;
      reject(err);
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: {
          files: limits.files,
          fileSize: limits.fileBytes,
          fields: limits.fields ?? 20,
          fieldSize: limits.fieldBytes ?? 64 * 1024,
        },
      });
    } catch {
      return fail(invalid('multipart boundary missing or invalid'));
    }
    // a Map: a field named `__proto__` or `constructor` is kept as sent, handed over as an own property
    const fields = new Map<string, string>();
    const files: UploadedFile[] = [];
    const malformed = () => fail(invalid('invalid multipart body'));
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated) return fail(new AppError('ERR_PAYLOAD_TOO_LARGE'));
      fields.set(name, value);
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(new AppError('ERR_PAYLOAD_TOO_LARGE', 413, { maxBytes: limits.fileBytes })));
      stream.on('error', malformed);
      stream.on('end', () =>
        files.push({
          field,
          fileName: info.filename || 'file',
          mimetype: info.mimeType || 'application/octet-stream',
          data: Buffer.concat(chunks),
        }),
      );
    });
    parser.on('filesLimit', () => fail(invalid('too many files', { max: limits.files })));
    parser.on('fieldsLimit', () => fail(invalid('too many fields', { max: limits.fields ?? 20 })));
    parser.on('partsLimit', () => fail(invalid('too many parts')));
    parser.on('error', malformed);
    // busboy closes only after every file stream has ended
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      resolve({ fields: Object.fromEntries(fields), files });
    });
    parser.end(raw);
  });
}

/**
 * The single file of an upload form (field `file` unless told otherwise). Spaces in its name become
 * underscores (management.md section 9).
 */
export async function readMultipartFile(event: HttpEvent, field = 'file'): Promise<UploadedFile> {
  const { files } = await readMultipart(event, SINGLE_FILE_FORM);
  const file = files.find((f) => f.field === field);
  if (!file?.data.length) throw new AppError('ERR_VALIDATION', 400, [{ path: [field], message: 'required' }]);
  return { ...file, fileName: file.fileName.trim().replace(/\s+/g, '_') };
}
