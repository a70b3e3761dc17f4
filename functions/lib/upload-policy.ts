import { AppError } from './errors';

/**
 * The one upload policy: which media types the inbox accepts, how big each kind may be, and how a
 * file's first bytes must look for its type. Every upload path (presigned POST, multipart sends,
 * quick-message and schedule media, the external API) goes through `acceptUpload`; inbound
 * WhatsApp media goes through `inboundMediaType`, and downloads through `servedAs`.
 * Active content (html, svg, xml, scripts, executables) is never accepted.
 */
export type UploadKind = 'image' | 'audio' | 'video' | 'document';

export const MAX_BYTES: Record<UploadKind, number> = {
  image: 16 * 1024 * 1024,
  audio: 16 * 1024 * 1024,
  video: 64 * 1024 * 1024,
  document: 100 * 1024 * 1024,
};

/** What `sniff` recognises from the first bytes; `text` is anything without a NUL that is not markup. */
type Magic =
  | 'jpeg'
  | 'png'
  | 'gif'
  | 'webp'
  | 'wav'
  | 'pdf'
  | 'zip'
  | 'ole'
  | 'ogg'
  | 'mpeg-audio'
  | 'isobmff'
  | 'ebml'
  | 'amr'
  | 'rar'
  | '7z'
  | 'text'
  | 'markup'
  | 'executable';

interface TypeRule {
  kind: UploadKind;
  magic: Magic;
  extensions: string[];
}

/** Maps, not plain objects: a claimed type such as `constructor` must find nothing. */
const TYPES = new Map<string, TypeRule>(
  Object.entries({
    'image/jpeg': { kind: 'image', magic: 'jpeg', extensions: ['jpg', 'jpeg'] },
    'image/png': { kind: 'image', magic: 'png', extensions: ['png'] },
    'image/gif': { kind: 'image', magic: 'gif', extensions: ['gif'] },
    'image/webp': { kind: 'image', magic: 'webp', extensions: ['webp'] },
    'audio/ogg': { kind: 'audio', magic: 'ogg', extensions: ['ogg', 'oga', 'opus'] },
    'audio/mpeg': { kind: 'audio', magic: 'mpeg-audio', extensions: ['mp3'] },
    'audio/aac': { kind: 'audio', magic: 'mpeg-audio', extensions: ['aac'] },
    'audio/mp4': { kind: 'audio', magic: 'isobmff', extensions: ['m4a'] },
    'audio/amr': { kind: 'audio', magic: 'amr', extensions: ['amr'] },
    'audio/wav': { kind: 'audio', magic: 'wav', extensions: ['wav'] },
    'audio/webm': { kind: 'audio', magic: 'ebml', extensions: ['weba'] },
    'video/mp4': { kind: 'video', magic: 'isobmff', extensions: ['mp4', 'm4v'] },
    'video/3gpp': { kind: 'video', magic: 'isobmff', extensions: ['3gp'] },
    'video/quicktime': { kind: 'video', magic: 'isobmff', extensions: ['mov'] },
    'video/webm': { kind: 'video', magic: 'ebml', extensions: ['webm'] },
    'application/pdf': { kind: 'document', magic: 'pdf', extensions: ['pdf'] },
    'application/msword': { kind: 'document', magic: 'ole', extensions: ['doc'] },
    'application/vnd.ms-excel': { kind: 'document', magic: 'ole', extensions: ['xls'] },
    'application/vnd.ms-powerpoint': { kind: 'document', magic: 'ole', extensions: ['ppt'] },
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document': {
      kind: 'document',
      magic: 'zip',
      extensions: ['docx'],
    },
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
      kind: 'document',
      magic: 'zip',
      extensions: ['xlsx'],
    },
    'application/vnd.openxmlformats-officedocument.presentationml.presentation': {
      kind: 'document',
      magic: 'zip',
      extensions: ['pptx'],
    },
    'application/vnd.oasis.opendocument.text': { kind: 'document', magic: 'zip', extensions: ['odt'] },
    'application/vnd.oasis.opendocument.spreadsheet': { kind: 'document', magic: 'zip', extensions: ['ods'] },
    'application/vnd.oasis.opendocument.presentation': { kind: 'document', magic: 'zip', extensions: ['odp'] },
    'application/zip': { kind: 'document', magic: 'zip', extensions: ['zip'] },
    'application/vnd.rar': { kind: 'document', magic: 'rar', extensions: ['rar'] },
    'application/x-7z-compressed': { kind: 'document', magic: '7z', extensions: ['7z'] },
    'text/plain': { kind: 'document', magic: 'text', extensions: ['txt'] },
    'text/markdown': { kind: 'document', magic: 'text', extensions: ['md', 'markdown'] },
    'text/csv': { kind: 'document', magic: 'text', extensions: ['csv'] },
    'application/rtf': { kind: 'document', magic: 'text', extensions: ['rtf'] },
  } satisfies Record<string, TypeRule>),
);

/** Other names browsers and phones give the same types. */
const ALIASES = new Map<string, string>(
  Object.entries({
    'image/jpg': 'image/jpeg',
    'image/pjpeg': 'image/jpeg',
    'audio/mp3': 'audio/mpeg',
    'audio/x-m4a': 'audio/mp4',
    'audio/x-wav': 'audio/wav',
    'audio/wave': 'audio/wav',
    'audio/vnd.wave': 'audio/wav',
    'application/x-zip-compressed': 'application/zip',
    'application/x-rar-compressed': 'application/vnd.rar',
    'text/rtf': 'application/rtf',
    'text/x-markdown': 'text/markdown',
  }),
);

/** The type a magic number stands for when a download's own type cannot be trusted. */
const TYPE_OF_MAGIC: Partial<Record<Magic, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  wav: 'audio/wav',
  pdf: 'application/pdf',
  ogg: 'audio/ogg',
  'mpeg-audio': 'audio/mpeg',
  amr: 'audio/amr',
  text: 'text/plain',
};

const BY_EXTENSION = new Map([...TYPES].flatMap(([type, rule]) => rule.extensions.map((ext) => [ext, type] as const)));

const extensionOf = (fileName: string) => /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';

/** `Audio/Ogg; codecs=opus` -> `audio/ogg`, aliases resolved. */
function canonical(type: string | undefined): string {
  const bare = (type ?? '').split(';')[0]!.trim().toLowerCase();
  return ALIASES.get(bare) ?? bare;
}

const startsWith = (head: Uint8Array, bytes: number[], at = 0) => bytes.every((b, i) => head[at + i] === b);
const ascii = (head: Uint8Array, from: number, to: number) => String.fromCharCode(...head.subarray(from, to));

/**
 * The format of a file from its first bytes (16 are enough): JPEG, PNG, GIF, WebP and WAV (RIFF),
 * PDF, ZIP (also docx/xlsx/pptx/odt), OLE2 (doc/xls/ppt), Ogg, MP3/AAC (ID3 or a frame sync),
 * MP4/MOV/3GP/M4A (`ftyp`), WebM/Matroska (EBML), AMR, RAR, 7z; Windows, Linux and macOS
 * executables and scripts; markup (html, svg, xml: a `<` first); otherwise text or unknown binary.
 */
export function sniff(head: Uint8Array): Magic | undefined {
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47])) return 'png';
  if (/^GIF8[79]a/.test(ascii(head, 0, 6))) return 'gif';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'webp';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WAVE') return 'wav';
  if (ascii(head, 0, 5) === '%PDF-') return 'pdf';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'ole';
  if (ascii(head, 0, 4) === 'OggS') return 'ogg';
  if (ascii(head, 0, 3) === 'ID3' || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)) return 'mpeg-audio';
  if (ascii(head, 4, 8) === 'ftyp') return 'isobmff';
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return 'ebml';
  if (ascii(head, 0, 5) === '#!AMR') return 'amr';
  if (ascii(head, 0, 6) === 'Rar!\x1a\x07') return 'rar';
  if (startsWith(head, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c])) return '7z';
  if (
    ascii(head, 0, 2) === 'MZ' ||
    ascii(head, 0, 4) === '\x7fELF' ||
    ascii(head, 0, 2) === '#!' ||
    [
      [0xfe, 0xed, 0xfa, 0xce],
      [0xfe, 0xed, 0xfa, 0xcf],
      [0xce, 0xfa, 0xed, 0xfe],
      [0xcf, 0xfa, 0xed, 0xfe],
      [0xca, 0xfe, 0xba, 0xbe],
    ].some((m) => startsWith(head, m))
  )
    return 'executable';
  const text = Buffer.from(head)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  if (/^\s*</.test(text)) return 'markup';
  if (!head.includes(0)) return 'text';
  return undefined;
}

export interface AcceptedUpload {
  /** the allow-listed type the file is stored and sent as */
  mimetype: string;
  kind: UploadKind;
  maxBytes: number;
}

/** `reason`: `type` (not on the list) or `content` (the first bytes are not of that type) */
const notAllowed = (reason: 'type' | 'content') => new AppError('ERR_UPLOAD_TYPE_NOT_ALLOWED', 415, { reason });

/**
 * Decides whether a file may be uploaded and as what type. The claimed type must be on the list
 * (a generic or missing one is taken from the file name's extension); when the first bytes are at
 * hand they must match that type (an image or audio of another listed format of the same kind is
 * kept as the format its bytes show), and the size must fit the kind.
 * ERR_UPLOAD_TYPE_NOT_ALLOWED (415) or ERR_PAYLOAD_TOO_LARGE (413).
 */
export function acceptUpload(file: {
  fileName: string;
  mimetype?: string;
  size?: number;
  head?: Uint8Array;
}): AcceptedUpload {
  const claimed = canonical(file.mimetype);
  let mimetype =
    !claimed || claimed === 'application/octet-stream' ? (BY_EXTENSION.get(extensionOf(file.fileName)) ?? '') : claimed;
  const rule = TYPES.get(mimetype);
  if (!rule) throw notAllowed('type');
  const magic = file.head && sniff(file.head);
  if (file.head && magic !== rule.magic) {
    const shown = magic ? TYPE_OF_MAGIC[magic] : undefined;
    if (rule.kind === 'document' || !shown || TYPES.get(shown)?.kind !== rule.kind) throw notAllowed('content');
    mimetype = shown;
  }
  const maxBytes = MAX_BYTES[rule.kind];
  if (file.size !== undefined && file.size > maxBytes) throw new AppError('ERR_PAYLOAD_TOO_LARGE', 413, { maxBytes });
  if (file.size === 0) throw new AppError('ERR_VALIDATION', 400, [{ path: ['file'], message: 'empty' }]);
  return { mimetype, kind: rule.kind, maxBytes };
}

/**
 * The type inbound WhatsApp media is stored as. A customer's file is never refused (the message must
 * arrive), but its claimed type is kept only when the first bytes agree; otherwise the sniffed type,
 * or `application/octet-stream` for anything unknown or active.
 */
export function inboundMediaType(claimed: string, head: Uint8Array): string {
  const type = canonical(claimed);
  const magic = sniff(head);
  const rule = TYPES.get(type);
  // an unknown type and bytes of no known format agree on nothing
  if (rule && rule.magic === magic) return type;
  return (magic && TYPE_OF_MAGIC[magic]) || 'application/octet-stream';
}

/**
 * How a stored object is served, from its key's file name: images, audio and video inline with their
 * allow-listed type; everything else as an attachment, never rendered by the browser.
 */
export function servedAs(key: string): { inline: boolean; contentType: string; fileName: string } {
  const fileName = (key.split('/').pop() ?? 'file').replace(/^[0-9a-f-]{36}-/, '');
  const type = BY_EXTENSION.get(extensionOf(fileName));
  const rule = type ? TYPES.get(type) : undefined;
  const inline = rule !== undefined && rule.kind !== 'document';
  return { inline, contentType: type ?? 'application/octet-stream', fileName };
}
