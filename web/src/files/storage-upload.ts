import type { UploadTicket } from '#shared/schemas/messages';
import { api } from '../api/client';

/**
 * Uploads a file straight to storage with a presigned POST (`POST /uploads`; its policy fixes the
 * type and the size), so no API request carries the file. Returns the object key and its type.
 */
export async function uploadToStorage(file: File): Promise<{ key: string; mimetype: string }> {
  const ticket = await api.post<UploadTicket>('/uploads', {
    fileName: file.name,
    contentType: file.type,
    size: file.size,
  });
  const form = new FormData();
  for (const [name, value] of Object.entries(ticket.fields)) form.append(name, value);
  // storage reads the policy fields first; the file must be the last part
  form.append('file', file, file.name);
  const posted = await fetch(ticket.url, { method: 'POST', body: form });
  if (!posted.ok) throw new Error(`upload failed: ${posted.status}`);
  return { key: ticket.key, mimetype: ticket.mimetype };
}
