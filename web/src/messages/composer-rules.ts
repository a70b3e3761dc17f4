import { MIN_RECORDING_BYTES, QUICK_REPLY_LABEL_CHARS } from '#shared/constants';

/** Empty or blank text is never sent (attendance.md 2.6, section 5). */
export const canSendText = (text: string) => text.trim().length > 0;

/** A signed message is prefixed with the attendant name in bold and a newline. */
export const signBody = (text: string, attendant: string, sign: boolean) => (sign ? `*${attendant}:*\n${text}` : text);

/** Quick replies are suggested after a leading slash and at least 2 typed characters. */
export function quickReplyQuery(text: string): string | null {
  if (!text.startsWith('/')) return null;
  const query = text.slice(1);
  return query.length >= 2 && !/\s/.test(query) ? query.toLowerCase() : null;
}

export interface QuickReply {
  id?: number;
  shortcode: string;
  message: string;
  mediaPath?: string | null;
  mediaName?: string | null;
}

/** Matching on shortcode. */
export const matchQuickReplies = (list: QuickReply[], query: string) =>
  list.filter((q) => q.shortcode.toLowerCase().includes(query.toLowerCase()));

/** The suggestion label truncates the message at 35 characters. */
export const quickReplyLabel = (q: QuickReply) =>
  `${q.shortcode} - ${q.message.length > QUICK_REPLY_LABEL_CHARS ? `${q.message.slice(0, QUICK_REPLY_LABEL_CHARS)}...` : q.message}`;

/** A recording smaller than 10000 bytes is discarded. */
export const keepRecording = (bytes: number) => bytes >= MIN_RECORDING_BYTES;

/** Audio recording is available only while the ticket is open. */
export const canRecord = (status: string | undefined) => status === 'open';

/**
 * The spec asks for mp3 (128 kbps). Browsers' MediaRecorder cannot encode mp3, so the recording
 * uses audio/mpeg where a browser offers it and otherwise the best type it supports (ogg/opus,
 * webm/opus, mp4); the server may transcode.
 */
export function pickAudioType(isSupported: (type: string) => boolean): string | undefined {
  return ['audio/mpeg', 'audio/ogg;codecs=opus', 'audio/webm;codecs=opus', 'audio/mp4', 'audio/webm'].find((type) =>
    isSupported(type),
  );
}

export const audioExtension = (type: string) =>
  type.includes('mpeg') ? 'mp3' : type.includes('ogg') ? 'ogg' : type.includes('mp4') ? 'm4a' : 'webm';

/** Composer rows: multiline up to 5. */
export { COMPOSER_MAX_ROWS } from '#shared/constants';
