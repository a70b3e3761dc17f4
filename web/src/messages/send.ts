import { api } from '../api/client';
import type { Message } from '../tickets/types';

export interface UploadTicket {
  /** presigned PUT URL */
  url?: string;
  uploadUrl?: string;
  key: string;
  headers?: Record<string, string>;
}

/** Text message (JSON). `quotedMsg` is the message being replied to. */
export const sendText = (ticketId: number, body: string, quoted?: Message | null) =>
  api.post<Message>(`/messages/${ticketId}`, { body, quotedMsg: quoted ? { id: String(quoted.id) } : undefined });

/**
 * Media: the browser uploads straight to storage with a presigned PUT (`POST /uploads`), then
 * sends the key with the file name as body, so no request through the API carries the file.
 */
export async function sendMedia(
  ticketId: number,
  file: File | Blob,
  fileName: string,
  quoted?: Message | null,
  opts: { ptt?: boolean } = {},
) {
  const contentType = file.type || 'application/octet-stream';
  const ticket = await api.post<UploadTicket>('/uploads', { fileName, contentType });
  const target = ticket.uploadUrl ?? ticket.url;
  if (!target) throw new Error('upload URL missing');
  const put = await fetch(target, {
    method: 'PUT',
    body: file,
    headers: { 'Content-Type': contentType, ...(ticket.headers ?? {}) },
  });
  if (!put.ok) throw new Error(`upload failed: ${put.status}`);
  return api.post<Message>(`/messages/${ticketId}`, {
    body: fileName,
    media: { key: ticket.key, mimetype: contentType, fileName, ...(opts.ptt ? { ptt: true } : {}) },
    quotedMsg: quoted ? { id: String(quoted.id) } : undefined,
  });
}
