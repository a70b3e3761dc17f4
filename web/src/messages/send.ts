import { api } from '../api/client';
import type { UploadTicket } from '#shared/schemas/messages';
import type { Message } from '../tickets/types';

/**
 * Text message (JSON). `quotedMsg` is the message being replied to; `quickMessageId` a chosen quick
 * reply whose file the server attaches (a copy of its own for this message).
 */
export const sendText = (ticketId: number, body: string, quoted?: Message | null, quickMessageId?: number) =>
  api.post<Message>(`/messages/${ticketId}`, {
    body,
    quotedMsg: quoted ? { id: String(quoted.id) } : undefined,
    ...(quickMessageId ? { quickMessageId } : {}),
  });

/**
 * Media: the browser uploads straight to storage with a presigned POST (`POST /uploads`, whose
 * policy fixes the type and size), then sends the key with the file name as body, so no request
 * through the API carries the file.
 */
export async function sendMedia(
  ticketId: number,
  file: File | Blob,
  fileName: string,
  quoted?: Message | null,
  opts: { ptt?: boolean } = {},
) {
  const ticket = await api.post<UploadTicket>('/uploads', { fileName, contentType: file.type, size: file.size });
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
  // storage reads the policy fields first; the file must be the last part
  form.append('file', file, fileName);
  const posted = await fetch(ticket.url, { method: 'POST', body: form });
  if (!posted.ok) throw new Error(`upload failed: ${posted.status}`);
  return api.post<Message>(`/messages/${ticketId}`, {
    body: fileName,
    media: { key: ticket.key, mimetype: ticket.mimetype, fileName, ...(opts.ptt ? { ptt: true } : {}) },
    quotedMsg: quoted ? { id: String(quoted.id) } : undefined,
  });
}
