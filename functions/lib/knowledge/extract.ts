import mammoth from 'mammoth';
import { extractText, getDocumentProxy } from 'unpdf';
import { KNOWLEDGE_DOCUMENT_TYPES, KNOWLEDGE_MAX_BODY, KNOWLEDGE_MAX_FILE_BYTES } from '#shared/schemas/knowledge';
import { AppError } from '../errors';
import { acceptStoredUpload, getObject, objectSize } from '../storage';

/**
 * The text of a knowledge base document: PDF (unpdf, a serverless build of Mozilla's pdf.js), DOCX
 * (mammoth), plain text and Markdown (kept as written). Everything here reads; nothing is stored, so
 * a file refused here leaves the knowledge base as it was.
 */
export type DocumentFormat = (typeof KNOWLEDGE_DOCUMENT_TYPES)[keyof typeof KNOWLEDGE_DOCUMENT_TYPES];

const unreadable = (why: string) => new AppError('ERR_KNOWLEDGE_FILE_UNREADABLE', 422, { reason: why });

/** UTF-8 (a BOM dropped); a file that is not valid UTF-8 is read as Windows-1252, what older editors save. */
function decodeText(data: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data);
  } catch {
    return new TextDecoder('windows-1252').decode(data);
  }
}

async function pdfText(data: Uint8Array): Promise<string> {
  let pages: string[];
  try {
    // a copy: pdf.js refuses a Node Buffer, and takes over the bytes it is given
    const pdf = await getDocumentProxy(new Uint8Array(data));
    pages = (await extractText(pdf, { mergePages: false })).text;
    await pdf.destroy();
  } catch (err) {
    // InvalidPDFException, PasswordException, a damaged stream...
    throw unreadable((err as Error).name || 'pdf');
  }
  // a page is a paragraph break at least, so passages do not run across pages
  return pages.map((page) => page.trim()).join('\n\n');
}

async function docxText(data: Uint8Array): Promise<string> {
  try {
    return (await mammoth.extractRawText({ buffer: Buffer.from(data) })).value;
  } catch {
    // not a zip, or a zip without word/document.xml
    throw unreadable('docx');
  }
}

/**
 * The text of a document's bytes, with its lines' trailing spaces and runs of blank lines tidied.
 * ERR_KNOWLEDGE_FILE_UNREADABLE (422), ERR_KNOWLEDGE_EMPTY (422) when there is no text (a scanned
 * PDF), ERR_KNOWLEDGE_TOO_LARGE (413) when the text is over KNOWLEDGE_MAX_BODY.
 */
export async function documentText(format: DocumentFormat, data: Uint8Array): Promise<string> {
  const raw = format === 'pdf' ? await pdfText(data) : format === 'docx' ? await docxText(data) : decodeText(data);
  const text = raw
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters a reader never wants
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (!/[\p{L}\p{N}]/u.test(text)) throw new AppError('ERR_KNOWLEDGE_EMPTY', 422);
  if (text.length > KNOWLEDGE_MAX_BODY)
    throw new AppError('ERR_KNOWLEDGE_TOO_LARGE', 413, { maxChars: KNOWLEDGE_MAX_BODY, chars: text.length });
  return text;
}

export interface ExtractedDocument {
  text: string;
  mimetype: string;
  size: number;
}

/**
 * The upload policy's refusals in this call's words: a type the knowledge base does not read, or
 * nothing uploaded under `upload.key`.
 */
function inOurWords(err: unknown) {
  if (!(err instanceof AppError)) return err;
  if (err.code === 'ERR_UPLOAD_TYPE_NOT_ALLOWED') return new AppError('ERR_KNOWLEDGE_FILE_TYPE', 415, err.details);
  if (err.code === 'ERR_VALIDATION')
    return new AppError('ERR_VALIDATION', 400, [{ path: ['upload', 'key'], message: 'not uploaded' }]);
  return err;
}

/**
 * A document uploaded with `POST /uploads` (the key under the company's prefix): checked by the upload
 * policy from its stored type, size and first bytes, then read whole and turned into text.
 * ERR_KNOWLEDGE_FILE_TYPE (415) for anything but PDF, DOCX, text and Markdown; ERR_KNOWLEDGE_TOO_LARGE
 * (413) over KNOWLEDGE_MAX_FILE_BYTES; ERR_NO_PERMISSION for another company's key; ERR_VALIDATION
 * when nothing was uploaded under the key.
 */
export async function extractUpload(
  companyId: number,
  upload: { key: string; fileName: string },
): Promise<ExtractedDocument> {
  const accepted = await acceptStoredUpload(companyId, upload.key, upload.fileName).catch((err) => {
    throw inOurWords(err);
  });
  const format = (KNOWLEDGE_DOCUMENT_TYPES as Record<string, DocumentFormat | undefined>)[accepted.mimetype];
  if (!format) throw new AppError('ERR_KNOWLEDGE_FILE_TYPE', 415, { mimetype: accepted.mimetype });
  // refused by its size before it is read into memory
  if ((await objectSize(upload.key)) > KNOWLEDGE_MAX_FILE_BYTES)
    throw new AppError('ERR_KNOWLEDGE_TOO_LARGE', 413, { maxBytes: KNOWLEDGE_MAX_FILE_BYTES });
  const data = await getObject(upload.key);
  return { text: await documentText(format, data), mimetype: accepted.mimetype, size: data.length };
}
